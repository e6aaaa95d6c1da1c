import type { CareersBoard } from './types.js';

/** An absolute request to a board API (careers go through the safe fetcher, not an alias base). */
export interface CareersRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** JSON body for POST. */
  body?: string;
}

const SMARTRECRUITERS_PAGE_SIZE = 100;
export const SMARTRECRUITERS_MAX_PAGES = 20;
export const WORKDAY_PAGE_SIZE = 20;
export const WORKDAY_MAX_PAGES = 50;
/** Detail requests for descriptions on the paged systems, per call. */
export const DETAIL_REQUESTS_MAX = 100;

const JSON_HEADERS = { accept: 'application/json' };

/** The one request that answers a whole board, for the six systems that have one; null for the paged two. */
export function boardRequest(b: CareersBoard, opts: { include_description?: boolean } = {}): CareersRequest | null {
  const t = encodeURIComponent(b.board);
  switch (b.ats) {
    case 'greenhouse':
      return {
        method: 'GET',
        url: `https://boards-api.greenhouse.io/v1/boards/${t}/jobs?content=${opts.include_description ? 'true' : 'false'}`,
        headers: JSON_HEADERS,
      };
    case 'lever':
      return { method: 'GET', url: `https://api.${b.region === 'eu' ? 'eu.' : ''}lever.co/v0/postings/${t}?mode=json`, headers: JSON_HEADERS };
    case 'ashby':
      return { method: 'GET', url: `https://api.ashbyhq.com/posting-api/job-board/${t}?includeCompensation=true`, headers: JSON_HEADERS };
    case 'workable':
      return {
        method: 'GET',
        url: `https://apply.workable.com/api/v1/widget/accounts/${t}?details=${opts.include_description ? 'true' : 'false'}`,
        headers: JSON_HEADERS,
      };
    case 'recruitee':
      return { method: 'GET', url: `https://${b.host ?? `${b.board}.recruitee.com`}/api/offers/`, headers: JSON_HEADERS };
    case 'teamtailor':
      return { method: 'GET', url: `https://${b.host ?? b.board}/jobs.json`, headers: JSON_HEADERS };
    case 'smartrecruiters':
    case 'workday':
      return null;
  }
}

/** Greenhouse board metadata (company name), used to confirm a domain-named board. */
export function greenhouseBoardInfoRequest(b: CareersBoard): CareersRequest {
  return { method: 'GET', url: `https://boards-api.greenhouse.io/v1/boards/${encodeURIComponent(b.board)}`, headers: JSON_HEADERS };
}

/** SmartRecruiters list page `page` (0-based), 100 postings per page. */
export function smartRecruitersPageRequest(b: CareersBoard, page: number): CareersRequest {
  const offset = page * SMARTRECRUITERS_PAGE_SIZE;
  return {
    method: 'GET',
    url: `https://api.smartrecruiters.com/v1/companies/${encodeURIComponent(b.board)}/postings?limit=${SMARTRECRUITERS_PAGE_SIZE}&offset=${offset}`,
    headers: JSON_HEADERS,
  };
}

export function smartRecruitersPostingRequest(b: CareersBoard, postingId: string): CareersRequest {
  return {
    method: 'GET',
    url: `https://api.smartrecruiters.com/v1/companies/${encodeURIComponent(b.board)}/postings/${encodeURIComponent(postingId)}`,
    headers: JSON_HEADERS,
  };
}

function workdayBase(b: CareersBoard): string {
  if (!b.host || !b.tenant || !b.site) throw new Error('workday board without host, tenant and site');
  return `https://${b.host}/wday/cxs/${encodeURIComponent(b.tenant)}/${encodeURIComponent(b.site)}`;
}

/**
 * Workday list page `page` (0-based), 20 per page. The search text stays empty: `q` is applied
 * by our filter so that `total` remains the board's own count.
 */
export function workdayPageRequest(b: CareersBoard, page: number): CareersRequest {
  return {
    method: 'POST',
    url: `${workdayBase(b)}/jobs`,
    headers: { ...JSON_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ appliedFacets: {}, limit: WORKDAY_PAGE_SIZE, offset: page * WORKDAY_PAGE_SIZE, searchText: '' }),
  };
}

/** Workday posting detail from a list item's externalPath (`/job/<place>/<title>_<req>`). */
export function workdayJobRequest(b: CareersBoard, externalPath: string): CareersRequest {
  return { method: 'GET', url: `${workdayBase(b)}${externalPath.startsWith('/') ? '' : '/'}${externalPath}`, headers: JSON_HEADERS };
}

/** The externalPath of a Workday job URL built by the list parser. */
export function workdayExternalPath(b: CareersBoard, jobUrl: string): string | null {
  const prefix = `https://${b.host}/${b.site}`;
  return jobUrl.startsWith(prefix) ? jobUrl.slice(prefix.length) : null;
}
