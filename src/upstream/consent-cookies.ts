/** Consent choice "reject all" as the search engine's consent page stores it; it stops the consent redirect. */
export const CONSENT_COOKIES = [
  { name: 'SOCS', value: 'CAESEwgDEgk0ODE3Nzk3MjQaAmVuIAEaBgiA_LyaBg' },
  { name: 'CONSENT', value: 'PENDING+987' },
];
