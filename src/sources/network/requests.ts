/** A request relative to the network base URL (the upstream client adds host and headers). */
export interface NetworkRequest {
  method: 'GET';
  path: string;
}

/** Guest search results come ten cards per call. */
export const NETWORK_SEARCH_PAGE_SIZE = 10;

/** Logged-out posting page: same top card, description and criteria as the guest fragment. */
export function networkJobPageRequest(jobId: string): NetworkRequest {
  return { method: 'GET', path: `/jobs/view/${encodeURIComponent(jobId)}` };
}

export interface NetworkSearchParams {
  keywords?: string;
  location?: string;
  /** Numeric company ids (the `company_id` of a job). */
  company_ids?: string[];
  /** Zero-based card offset. */
  start?: number;
  /** Posted within: r86400 (24h), r604800 (week), r2592000 (month). */
  posted_within?: string;
}

/** The guest search fragment (`seeMoreJobPostings`), one page of cards. */
export function networkSearchRequest(p: NetworkSearchParams): NetworkRequest {
  const q = new URLSearchParams();
  if (p.keywords) q.set('keywords', p.keywords);
  if (p.location) q.set('location', p.location);
  if (p.company_ids && p.company_ids.length > 0) q.set('f_C', p.company_ids.join(','));
  if (p.posted_within) q.set('f_TPR', p.posted_within);
  q.set('start', String(p.start ?? 0));
  return { method: 'GET', path: `/jobs-guest/jobs/api/seeMoreJobPostings/search?${q.toString()}` };
}
