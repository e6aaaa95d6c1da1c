/**
 * The live check's one request per source: an operation of the registry (so the same source code
 * the routes run) with inputs naming something well known that should always be there. Searches
 * and look-ups are preferred: one cheap request each, and an empty answer means something broke.
 */
export interface CanonicalCheck {
  source: string;
  /** Operation name in the registry. */
  operation: string;
  input: Record<string, unknown>;
  /** What is asked, for the operator's table. */
  checked: string;
}

const HOTEL = 'The Plaza New York';

/** Stay dates a month ahead, so that every source has something to price or list. */
function isoDay(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

export function canonicalChecks(now = new Date()): CanonicalCheck[] {
  const checkIn = isoDay(now, 30);
  return [
    {
      source: 'metasearch',
      operation: 'resolve_hotel',
      input: { name: 'The Plaza', city: 'New York', limit: 1, verify: false },
      checked: 'resolve "The Plaza", New York',
    },
    { source: 'otaone', operation: 'search_otaone', input: { query: HOTEL, limit: 1 }, checked: `search "${HOTEL}"` },
    { source: 'otatwo', operation: 'search_otatwo', input: { query: HOTEL, market: 'US', limit: 1 }, checked: `property search "${HOTEL}" (US)` },
    { source: 'otathree', operation: 'search_otathree', input: { query: HOTEL, market: 'US', limit: 1 }, checked: `property search "${HOTEL}" (US)` },
    { source: 'otafour', operation: 'search_otafour', input: { query: HOTEL, limit: 1 }, checked: `property search "${HOTEL}"` },
    { source: 'rentalone', operation: 'search_rentalone', input: { query: 'Lake Tahoe', limit: 1 }, checked: 'place search "Lake Tahoe"' },
    {
      source: 'rentaltwo',
      operation: 'search_rentals',
      input: { q: 'Paris', check_in_date: checkIn, check_out_date: isoDay(now, 32) },
      checked: `rentals in Paris from ${checkIn}, 2 nights`,
    },
    {
      source: 'travelreview',
      operation: 'search_travelreview',
      input: { query: HOTEL, check_in: checkIn, nights: 1, limit: 1 },
      checked: `"${HOTEL}" on ${checkIn}, 1 night`,
    },
    {
      source: 'hostel',
      operation: 'search_hostels',
      input: { query: 'Amsterdam', check_in: checkIn, nights: 1, limit: 1 },
      checked: `hostels in Amsterdam on ${checkIn}, 1 night`,
    },
    {
      source: 'network',
      operation: 'search_network_jobs',
      input: { keywords: 'software engineer', location: 'United States' },
      checked: 'jobs "software engineer", United States',
    },
    { source: 'video', operation: 'get_video', input: { video_id: 'dQw4w9WgXcQ' }, checked: 'video dQw4w9WgXcQ' },
    { source: 'apps', operation: 'get_app', input: { app_id: '803453959' }, checked: 'app 803453959 (Slack, us storefront)' },
    { source: 'retail', operation: 'search_retail', input: { q: 'laptop' }, checked: 'product search "laptop"' },
    { source: 'trends', operation: 'get_trends_interest', input: { keyword: 'coffee', geo: 'US' }, checked: 'interest in "coffee", US, last month' },
    {
      source: 'careers',
      operation: 'get_careers_jobs',
      input: { url: 'https://boards.greenhouse.io/amplitude', limit: 1 },
      checked: 'board greenhouse/amplitude',
    },
  ];
}
