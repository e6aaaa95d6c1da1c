import { z } from 'zod';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchRetailReviews, fetchRetailSearch } from '../src/sources/retail/fetch.js';
import { RETAIL_REVIEW_SORTS, type RetailReviewSort } from '../src/sources/retail/requests.js';
import { elapsedSince, WebMeta } from './webdata-schemas.js';

const ns = z.string().nullable();
const nn = z.number().nullable();
const Stars = z.object({ '1': nn, '2': nn, '3': nn, '4': nn, '5': nn });
const SORTS = Object.keys(RETAIL_REVIEW_SORTS) as [RetailReviewSort, ...RetailReviewSort[]];

export const getRetailReviews = defineTool({
  name: 'get_retail_reviews',
  title: 'Retail product reviews',
  description:
    'Customer reviews of one product of the big-box retailer, 10 per page, with the rating summary (average, total, counts and percentages per star, recommended_pct); dates as YYYY-MM-DD; next_page is null past the last page of reviews with text. item_id is the numeric item id of the product URL (/ip/<slug>/<item_id>) or of search_retail. Costs 2 credits; an empty page, an unknown item (404) and failures are free.',
  method: 'POST',
  path: '/v1/retail/reviews',
  tags: ['retail'],
  input: z.strictObject({
    item_id: z
      .string()
      .regex(/^\d{1,20}$/, 'Input should be digits only')
      .describe('Numeric item id of the product (from its product URL).'),
    page: z.int().min(1).max(100).default(1).describe('Page of results, from 1.'),
    sort: z.enum(SORTS).default('relevancy').describe('Order of the reviews.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('retail_reviews'), item_id: z.string(), page: z.int(), sort: z.string() }),
    total: nn,
    summary: z.object({ average: nn, total: nn, counts: Stars, percentages: Stars, recommended_pct: nn }),
    reviews: z.array(
      z.object({ source: z.string(), review_id: z.string(), rating: nn, title: ns, text: ns, date: ns, author: ns, labels: z.array(z.string()) }),
    ),
    next_page: ns,
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'reviews',
  isEmpty: (o) => o.reviews.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const answer = await fetchRetailReviews(deps, input);
    return {
      search_parameters: { engine: 'retail_reviews' as const, item_id: input.item_id, page: input.page, sort: input.sort },
      total: answer.total,
      summary: answer.summary,
      reviews: answer.reviews,
      next_page: answer.next_page,
      meta: { source: 'retail', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const searchRetail = defineTool({
  name: 'search_retail',
  title: 'Search retail products',
  description:
    "One page of the big-box retailer's search results: item id, title, link, price and price texts, rating, review count, seller, availability, thumbnail, sponsored flag. sort is the retailer's own (best_match, price_low, price_high, best_seller, rating_high, new). Costs 2 credits per non-empty page (our choice: the spec shows none); an empty page and failures are free. Item ids feed get_retail_reviews.",
  method: 'POST',
  path: '/v1/retail/search',
  tags: ['retail'],
  input: z.strictObject({
    q: z.string().min(1).max(200).describe('Search words, as typed on the site.'),
    page: z.int().min(1).max(100).default(1).describe('Page of results, from 1.'),
    sort: z
      .enum(['best_match', 'price_low', 'price_high', 'best_seller', 'rating_high', 'new'])
      .optional()
      .describe('Order of the results; the site’s default when absent.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('retail_search'), q: z.string(), page: z.int(), sort: ns }),
    items: z.array(
      z.object({
        position: z.int(),
        item_id: z.string(),
        title: ns,
        link: ns,
        price: nn,
        price_text: ns,
        was_price_text: ns,
        unit_price_text: ns.describe('the price per unit as the page states it, unit included (e.g. $539.00/pa); null when it states none'),
        rating: nn,
        reviews: nn,
        seller: ns,
        availability: ns,
        thumbnail: ns,
        sponsored: z.boolean(),
      }),
    ),
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'prices',
  isEmpty: (o) => o.items.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const answer = await fetchRetailSearch(deps, input);
    return {
      search_parameters: { engine: 'retail_search' as const, q: input.q, page: input.page, sort: input.sort ?? null },
      items: answer.items,
      meta: { source: 'retail', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const RETAIL_TOOLS = [getRetailReviews, searchRetail];
