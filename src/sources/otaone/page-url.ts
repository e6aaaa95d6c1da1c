/**
 * `otaone` addresses a property by a page-name slug after a two-letter country segment:
 * `/hotel/<cc>/<pagename>[.<lang>].html`. Paths only; the host lives in the upstream host table.
 */

export interface OtaonePageRef {
  country: string;
  pagename: string;
  /** Language suffix of the page, e.g. en-gb; empty when absent. */
  lang: string;
}

const PAGE_PATH = /\/hotel\/([a-z]{2})\/([a-z0-9][a-z0-9-]*?)(?:\.([a-z]{2}(?:-[a-z]{2,4})?))?\.html\b/i;

/** Reads country, page name and language from a property URL or path; null when it is not one. */
export function parseOtaonePageUrl(url: string): OtaonePageRef | null {
  const m = PAGE_PATH.exec(url);
  if (!m) return null;
  return { country: m[1]!.toLowerCase(), pagename: m[2]!, lang: (m[3] ?? '').toLowerCase() };
}

export interface OtaoneStayQuery {
  country: string;
  pagename: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  rooms: number;
  currency: string;
  /** Page language suffix, e.g. en-gb; omitted when not given. */
  lang?: string;
}

/** Path and query of the property page priced for a stay (the page carries the room table). */
export function otaonePropertyPath(q: OtaoneStayQuery): string {
  const lang = q.lang ? `.${q.lang}` : '';
  const params = new URLSearchParams({
    checkin: q.checkIn,
    checkout: q.checkOut,
    group_adults: String(q.adults),
    group_children: '0',
    no_rooms: String(q.rooms),
    selected_currency: q.currency,
  });
  return `/hotel/${q.country.toLowerCase()}/${encodeURIComponent(q.pagename)}${lang}.html?${params.toString()}`;
}
