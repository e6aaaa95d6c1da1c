import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRetailReviews, searchRetail } from '../../../tools/retail.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { nextDataPage } from '../../helpers/webdata-replay.js';

const PRODUCTS = 'walmart/product-pages-nextdata-product-and-reviews.scrapfly.json';
const SEARCH = 'walmart/search-nextdata-itemstacks-items.scrapfly.json';

/** The recorded items with their prices in the store's other documented form (its product data: `currentPrice`). */
const appFormat = (items: any[]) =>
  items.map((it) =>
    it.priceInfo
      ? { ...it, priceInfo: { currentPrice: { price: it.priceInfo.minPrice || null, priceString: it.priceInfo.linePrice || it.priceInfo.itemPrice } } }
      : it,
  );
/** The recorded items with their price block renamed: a format the parser does not read. */
const pricesMoved = (items: any[]) => items.map(({ priceInfo, ...it }) => ({ ...it, priceOffer: priceInfo }));

const suite = fixtureSuite('retail routes', PRODUCTS, SEARCH);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  let dataDir: string;

  beforeAll(async () => {
    const pages = readFixtureJson<any[]>(PRODUCTS);
    const emptyPage = { ...pages[0].reviews, customerReviews: [] };
    replay = await startReplayServer([
      { path: '/reviews/product/1736740710', query: { page: '100' }, body: nextDataPage({ data: { reviews: emptyPage } }) },
      { path: '/reviews/product/1736740710', body: nextDataPage({ data: { reviews: pages[0].reviews } }) },
      { path: '/reviews/product/715596133', body: nextDataPage({ data: { reviews: pages[1].reviews } }) },
      { path: '/reviews/product/999', body: '<html><head><title>Robot or human?</title></head><body><div id="px-captcha"></div></body></html>' },
      { path: '/reviews/product/888', body: '<html><body>new layout</body></html>' },
      { path: '/search', query: { q: 'laptop' }, body: nextDataPage({ searchResult: { itemStacks: [{ items: readFixtureJson(SEARCH) }] } }) },
      // the store's other format: prices as currentPrice {price, priceString}
      { path: '/search', query: { q: 'app format' }, body: nextDataPage({ searchResult: { itemStacks: [{ items: appFormat(readFixtureJson(SEARCH)) }] } }) },
      // a format read by nobody: every item's price under a name the parser does not know
      { path: '/search', query: { q: 'moved' }, body: nextDataPage({ searchResult: { itemStacks: [{ items: pricesMoved(readFixtureJson(SEARCH)) }] } }) },
    ]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retail-drift-'));
    svc = await startTestService({ UPSTREAM_RETAIL_URL: replay.url, UPSTREAM_RETRIES: '0', DATA_DIR: dataDir });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the summary and ten reviews, charged 2 credits', async () => {
    const res = await svc.call('/v1/retail/reviews', { key, body: { item_id: '1736740710', sort: 'most-recent' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => getRetailReviews.output.parse(body)).not.toThrow();
    expect(body.search_parameters).toEqual({ engine: 'retail_reviews', item_id: '1736740710', page: 1, sort: 'most-recent' });
    expect(body.total).toBe(4495);
    expect(body.summary).toEqual({
      average: 4.8,
      total: 4495,
      counts: { '1': 206, '2': 22, '3': 47, '4': 126, '5': 4094 },
      percentages: { '1': 5, '2': 0, '3': 1, '4': 3, '5': 91 },
      recommended_pct: 1,
    });
    expect(body.reviews).toHaveLength(10);
    expect(body.reviews[0]).toMatchObject({ review_id: '300523008', rating: 5, title: 'Ps5 Disc Edition', date: '2023-02-15', author: 'Kyle' });
    expect(body.next_page).toBe('2');
    expect(replay.requests.find((r) => r.path === '/reviews/product/1736740710')!.query).toEqual({ page: '1', sort: 'submission-desc' });
  });

  it('reads the second recorded product: missing titles stay null', async () => {
    const body = (await (await svc.call('/v1/retail/reviews', { key, body: { item_id: '715596133' } })).json()) as any;
    expect(body.summary).toMatchObject({ average: 4.7, total: 6696, recommended_pct: 86 });
    expect(body.reviews[0]).toMatchObject({ review_id: '340351720', title: null, labels: ['Verified Purchase', 'Incentivized Review'] });
  });

  it('an empty page is free; an unknown item is a 404; a bot wall 502; a page without the data 503', async () => {
    const empty = await svc.call('/v1/retail/reviews', { key, body: { item_id: '1736740710', page: 100 } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-credits-charged')).toBe('0');
    const unknown = await svc.call('/v1/retail/reviews', { key, body: { item_id: '42' } });
    expect(unknown.status).toBe(404);
    const blocked = await svc.call('/v1/retail/reviews', { key, body: { item_id: '999' } });
    expect(blocked.status).toBe(502);
    expect(blocked.headers.get('x-credits-charged')).toBe('0');
    const changed = await svc.call('/v1/retail/reviews', { key, body: { item_id: '888' } });
    expect(changed.status).toBe(503);
    expect(((await changed.json()) as any).detail).toBe('retail upstream contract changed: __NEXT_DATA__ script');
    expect((await svc.call('/v1/retail/reviews', { key, body: { item_id: 'abc' } })).status).toBe(422);
  });

  it('searches products', async () => {
    const res = await svc.call('/v1/retail/search', { key, body: { q: 'laptop' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => searchRetail.output.parse(body)).not.toThrow();
    expect(body.items).toHaveLength(150);
    expect(body.items[0]).toMatchObject({
      position: 1,
      item_id: '13737005799',
      title: 'ASUS CX15 15.6 inch FHD IPS Chromebook Laptop Intel Celeron N4500 4GB RAM 128GB eMMC Fabric Blue',
    });
  });

  it("the store's other price format is read; a reply whose items all lack a price is a free 503 with the raw reply kept, never 200 of empty shells", async () => {
    const app = await svc.call('/v1/retail/search', { key, body: { q: 'app format' } });
    expect(app.status).toBe(200);
    const items = ((await app.json()) as any).items;
    expect(items[0]).toMatchObject({ item_id: '13737005799', price: expect.any(Number), price_text: expect.stringMatching(/^\$/) });

    const moved = await svc.call('/v1/retail/search', { key, body: { q: 'moved' } });
    expect(moved.status).toBe(503);
    expect(moved.headers.get('x-credits-charged')).toBe('0');
    expect(((await moved.json()) as any).detail).toBe('retail upstream contract changed: drift: all 150 items lack price');
    const kept = fs.readdirSync(path.join(dataDir, 'diagnostics', 'retail'));
    const metas = kept.filter((f) => f.endsWith('.meta.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dataDir, 'diagnostics', 'retail', f), 'utf8')));
    expect(metas.find((m) => String(m.detail).includes('drift'))).toMatchObject({
      reason: 'contract_changed',
      detail: 'retail upstream contract changed: drift: all 150 items lack price',
    });
    expect(kept.some((f) => f.endsWith('.html.gz'))).toBe(true);
    const admin = (await svc.key({ role: 'admin' })).key;
    const metrics = await (await svc.call('/metrics', { key: admin })).text();
    expect(metrics).toContain('hotelrates_upstream_path_events_total{source="retail",event="drift"} 1');
  });
});
