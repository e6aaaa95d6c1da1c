import type { SourceUses } from '../context.js';
import { guards } from './guards.js';
import { checkStatus } from '../shared/observation.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { extractRetailNextData, parseRetailReviews, retailReviewsFromNextData, type RetailReviewsPage } from './parse-reviews.js';
import { parseRetailSearchItems, retailSearchItemsFromNextData, type RetailSearchItem } from './parse-search.js';
import { retailNextPage, retailReviewsRequest, retailSearchRequest, type RetailReviewSort } from './requests.js';

export interface RetailReviewsAnswer extends RetailReviewsPage {
  next_page: string | null;
  wire_bytes: number;
}

/** One page of ten reviews with the rating summary, from the product's reviews page. */
export async function fetchRetailReviews(
  deps: SourceUses<'upstream'>,
  input: { item_id: string; page: number; sort: RetailReviewSort },
): Promise<RetailReviewsAnswer> {
  const req = retailReviewsRequest(input.item_id, input.page, input.sort);
  const res = await deps.upstream.fetch({ source: 'retail', path: req.path, expect: 'html', notFound: 'item not found' });
  checkStatus(res);
  const page = await withContractGuard('retail', res, (r) => parseRetailReviews(retailReviewsFromNextData(extractRetailNextData(r.text()))));
  return { ...page, next_page: retailNextPage(input.page, page.reviews_with_text), wire_bytes: res.wireBytes };
}

/** One search results page; positions count within the page. */
export async function fetchRetailSearch(
  deps: SourceUses<'upstream'>,
  input: { q: string; page: number; sort?: string },
): Promise<{ items: RetailSearchItem[]; wire_bytes: number }> {
  const req = retailSearchRequest(input.q, input.page, input.sort);
  const res = await deps.upstream.fetch({ source: 'retail', path: req.path, expect: 'html' });
  checkStatus(res);
  const items = await withContractGuard('retail', res, (r) => parseRetailSearchItems(retailSearchItemsFromNextData(extractRetailNextData(r.text()))), {
    rule: guards.drift.search,
  });
  return { items, wire_bytes: res.wireBytes };
}
