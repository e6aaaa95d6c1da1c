import type { CareersAts } from './types.js';

/**
 * The fixed public API hosts of the systems that have one. Workday, Recruitee and Teamtailor
 * answer on each company's own host (`<tenant>.wdN.myworkdayjobs.com`, `<c>.recruitee.com`,
 * the career site), which the board carries.
 */
export const ATS_API_HOSTS = {
  greenhouse: 'https://boards-api.greenhouse.io',
  lever: 'https://api.lever.co',
  lever_eu: 'https://api.eu.lever.co',
  ashby: 'https://api.ashbyhq.com',
  workable: 'https://apply.workable.com',
  smartrecruiters: 'https://api.smartrecruiters.com',
} as const;

export function atsApiBase(system: CareersAts, region?: 'eu'): string | null {
  if (system === 'lever') return region === 'eu' ? ATS_API_HOSTS.lever_eu : ATS_API_HOSTS.lever;
  return system in ATS_API_HOSTS ? ATS_API_HOSTS[system as keyof typeof ATS_API_HOSTS] : null;
}

/**
 * Host → base URL replacements for board requests (tests point real ATS hosts at a local replay
 * server). The path and query of the request are kept; the replacement may add a path prefix.
 */
export type AtsHostOverrides = Readonly<Record<string, string>>;

export function atsUrl(url: string, overrides: AtsHostOverrides | undefined): string {
  if (!overrides) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const base = overrides[u.hostname.toLowerCase()];
  if (!base) return url;
  return `${base.replace(/\/+$/, '')}${u.pathname}${u.search}`;
}
