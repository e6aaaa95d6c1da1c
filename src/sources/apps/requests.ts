/** A request relative to the apps base URL (the store's web-service host). */
export interface AppsRequest {
  method: 'GET';
  path: string;
  headers?: Record<string, string>;
}

const APP_REVIEWS_PAGE_SIZE = 20;

/** The contract's sorts → the review rows' sortId (1 helpful, 2 favorable, 3 critical, 4 recent). */
const APP_REVIEW_SORT_IDS = { most_helpful: 1, most_favorable: 2, most_critical: 3, most_recent: 4 } as const;
export type AppReviewSort = keyof typeof APP_REVIEW_SORT_IDS;

/**
 * Storefront ids for the store-front header. Only ids confirmed in public sources are listed;
 * other countries go by the `cc` parameter alone.
 */
const STOREFRONT_IDS: Record<string, string> = { us: '143441', cn: '143465', dk: '143458', hk: '143463', jp: '143462', tr: '143480' };
/** The review endpoints answer JSON to store clients. */
const STORE_CLIENT = 'iTunes/12.12.4 (Macintosh; OS X 10.15.7) AppleWebKit/610.1.4';

function storeHeaders(country: string): Record<string, string> {
  const id = STOREFRONT_IDS[country.toLowerCase()];
  return { 'user-agent': STORE_CLIENT, accept: 'application/json', ...(id ? { 'x-apple-store-front': `${id}-1,29` } : {}) };
}

/** The numeric id from `123`, `id123`. */
export function normalizeAppId(raw: string): string {
  return raw.trim().replace(/^id/i, '');
}

export function appLookupRequest(input: { app_id?: string; bundle_id?: string; country?: string }): AppsRequest {
  const q = new URLSearchParams();
  if (input.app_id) q.set('id', normalizeAppId(input.app_id));
  else if (input.bundle_id) q.set('bundleId', input.bundle_id);
  q.set('country', (input.country ?? 'us').toLowerCase());
  return { method: 'GET', path: `/lookup?${q.toString()}` };
}

export function appSearchRequest(input: { term: string; country?: string; limit?: number }): AppsRequest {
  const q = new URLSearchParams({
    term: input.term,
    country: (input.country ?? 'us').toLowerCase(),
    media: 'software',
    entity: 'software',
    limit: String(input.limit ?? 50),
  });
  return { method: 'GET', path: `/search?${q.toString()}` };
}

/** Ratings histogram and written-review total of one storefront. */
export function appRatingsRequest(appId: string, country = 'us'): AppsRequest {
  const cc = country.toLowerCase();
  return { method: 'GET', path: `/${cc}/customer-reviews/id${normalizeAppId(appId)}?displayable-kind=11`, headers: storeHeaders(cc) };
}

/** One page of 20 written reviews from `offset`. */
export function appReviewsRequest(input: { app_id: string; country?: string; sort?: AppReviewSort; offset?: number }): AppsRequest {
  const cc = (input.country ?? 'us').toLowerCase();
  const start = input.offset ?? 0;
  const q = new URLSearchParams({
    cc,
    id: normalizeAppId(input.app_id),
    'displayable-kind': '11',
    startIndex: String(start),
    endIndex: String(start + APP_REVIEWS_PAGE_SIZE),
    sort: String(APP_REVIEW_SORT_IDS[input.sort ?? 'most_helpful']),
    appVersion: 'all',
  });
  return { method: 'GET', path: `/WebObjects/MZStore.woa/wa/userReviewsRow?${q.toString()}`, headers: storeHeaders(cc) };
}

/** The next offset, absent on the last page (a short page, or the written-review total reached). */
export function appReviewsNextOffset(offset: number, rowsOnPage: number, total: number | null): number | undefined {
  const next = offset + APP_REVIEWS_PAGE_SIZE;
  if (rowsOnPage < APP_REVIEWS_PAGE_SIZE) return undefined;
  if (total !== null && next >= total) return undefined;
  return next;
}
