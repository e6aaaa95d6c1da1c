/** A request relative to the retail base URL. */
export interface RetailRequest {
  method: 'GET';
  path: string;
}

const RETAIL_REVIEWS_PAGE_SIZE = 10;

/** The contract's sorts → the reviews page's `sort` parameter. */
export const RETAIL_REVIEW_SORTS = {
  relevancy: 'relevancy',
  'most-helpful': 'helpful',
  'most-recent': 'submission-desc',
  'highest-rating': 'rating-desc',
  'lowest-rating': 'rating-asc',
} as const;
export type RetailReviewSort = keyof typeof RETAIL_REVIEW_SORTS;

/** The product's reviews page; its `__NEXT_DATA__` carries the summary and ten reviews. */
export function retailReviewsRequest(itemId: string, page = 1, sort: RetailReviewSort = 'relevancy'): RetailRequest {
  const q = new URLSearchParams({ page: String(page), sort: RETAIL_REVIEW_SORTS[sort] });
  return { method: 'GET', path: `/reviews/product/${encodeURIComponent(itemId)}?${q.toString()}` };
}

export function retailSearchRequest(query: string, page = 1, sort?: string): RetailRequest {
  const q = new URLSearchParams({ q: query });
  if (page > 1) q.set('page', String(page));
  if (sort) q.set('sort', sort);
  return { method: 'GET', path: `/search?${q.toString()}` };
}

/** The next page number as the contract's string, or null past the last page of reviews with text. */
export function retailNextPage(page: number, reviewsWithText: number | null): string | null {
  if (reviewsWithText === null) return null;
  return page * RETAIL_REVIEWS_PAGE_SIZE < reviewsWithText ? String(page + 1) : null;
}
