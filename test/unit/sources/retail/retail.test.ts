import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../../helpers/fixtures.js';
import { UpstreamContractChanged, UpstreamFailed } from '../../../../src/domain/errors.js';
import { extractRetailNextData, parseRetailReviews, retailDate, retailReviewsFromNextData } from '../../../../src/sources/retail/parse-reviews.js';
import { parseRetailSearchItems } from '../../../../src/sources/retail/parse-search.js';
import { retailNextPage, retailReviewsRequest } from '../../../../src/sources/retail/requests.js';

const PRODUCTS = 'walmart/product-pages-nextdata-product-and-reviews.scrapfly.json';
const SEARCH = 'walmart/search-nextdata-itemstacks-items.scrapfly.json';

const reviews = fixtureSuite('retail reviews parser', PRODUCTS);
describe(reviews.title, () => {
  const pages = readFixtureJson<any[]>(PRODUCTS);

  it('reads the summary of the console page', () => {
    const r = parseRetailReviews(pages[0].reviews);
    expect(r.total).toBe(4495);
    expect(r.reviews_with_text).toBe(1091);
    expect(r.summary).toEqual({
      average: 4.8,
      total: 4495,
      counts: { '1': 206, '2': 22, '3': 47, '4': 126, '5': 4094 },
      percentages: { '1': 5, '2': 0, '3': 1, '4': 3, '5': 91 },
      recommended_pct: 1,
    });
  });

  it('reads the ten reviews with dates normalized', () => {
    const r = parseRetailReviews(pages[0].reviews);
    expect(r.reviews).toHaveLength(10);
    expect(r.reviews[0]).toEqual({
      source: 'retail',
      review_id: '300523008',
      rating: 5,
      title: 'Ps5 Disc Edition',
      text: expect.stringMatching(/^Im so happy with my ps5\./),
      date: '2023-02-15',
      author: 'Kyle',
      labels: ['Verified Purchase'],
    });
    expect(r.reviews[2]).toMatchObject({ review_id: '300369795', date: '2023-02-12', author: 'Aerogoth', labels: ['Verified Purchase', 'Walmart Associate'] });
    expect(r.reviews[8]).toMatchObject({ review_id: '355537338', rating: 1, title: 'Never got package', date: '2024-08-28' });
  });

  it('reads the laptop page: missing titles stay null, repeated labels appear once', () => {
    const r = parseRetailReviews(pages[1].reviews);
    expect(r.summary).toMatchObject({
      average: 4.7,
      total: 6696,
      recommended_pct: 86,
      counts: { '1': 340, '2': 55, '3': 103, '4': 317, '5': 5881 },
      percentages: { '1': 5, '2': 1, '3': 2, '4': 5, '5': 88 },
    });
    expect(r.reviews[0]).toMatchObject({
      review_id: '340351720',
      title: null,
      author: 'WalmartCustomer',
      date: '2024-04-02',
      labels: ['Verified Purchase', 'Incentivized Review'],
    });
    expect(r.reviews[5].labels).toEqual(['Incentivized Review', 'Verified Purchase']);
    expect(r.reviews[2]).toMatchObject({ review_id: '392175756', date: '2025-07-17', author: 'anonymous' });
  });

  it('pages by ten over the reviews with text', () => {
    expect(retailNextPage(1, 1091)).toBe('2');
    expect(retailNextPage(110, 1091)).toBeNull();
    expect(retailReviewsRequest('1736740710', 2, 'most-recent').path).toBe('/reviews/product/1736740710?page=2&sort=submission-desc');
  });
});

describe('retail page extraction', () => {
  it('reads the reviews subtree out of __NEXT_DATA__ and spots a bot challenge', () => {
    const html =
      '<html><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"initialData":{"data":{"reviews":{"customerReviews":[],"totalReviewCount":0}}}}}}</script></html>';
    expect(parseRetailReviews(retailReviewsFromNextData(extractRetailNextData(html))).total).toBe(0);
    expect(() => extractRetailNextData('<html><title>Robot or human?</title><div id="px-captcha"></div></html>')).toThrow(UpstreamFailed);
    expect(() => extractRetailNextData('<html></html>')).toThrow(UpstreamContractChanged);
    expect(retailDate('11/8/2022')).toBe('2022-11-08');
    expect(retailDate('2024-08-28T10:00:00Z')).toBe('2024-08-28');
  });
});

const search = fixtureSuite('retail search items parser', SEARCH);
describe(search.title, () => {
  it('keeps products and skips placeholders', () => {
    const items = parseRetailSearchItems(readFixtureJson(SEARCH));
    expect(items).toHaveLength(150);
    expect(items[0]).toMatchObject({
      position: 1,
      item_id: '13737005799',
      title: 'ASUS CX15 15.6 inch FHD IPS Chromebook Laptop Intel Celeron N4500 4GB RAM 128GB eMMC Fabric Blue',
      price: 159,
      price_text: '$159.00',
      was_price_text: '$219.99',
      rating: 4.3,
      reviews: 686,
      seller: 'Walmart.com',
      availability: 'In stock',
      sponsored: true,
    });
    expect(items[0].link!.startsWith('https://www.walmart.com/ip/ASUS-CX15-Chromebook-Laptop')).toBe(true);
    expect(items[3]).toMatchObject({ item_id: '609040889', price_text: '$599.00', rating: 4.7, reviews: 6696 });
    // minPrice is 0 on items without a price range: the shown price is the price, never 0
    expect(items[2]).toMatchObject({ price: 449, price_text: '$449.00' });
    expect(items.filter((i) => i.price === 0)).toEqual([]);
    expect(items[7]).toMatchObject({ item_id: '13567365941', price_text: '$1,399.00', reviews: 53 });
  });
});
