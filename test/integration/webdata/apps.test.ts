import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp, getAppReviews, searchApps } from '../../../tools/apps.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const LOOKUP = 'apps/itunes-lookup-macsoftware-slack-803453959.json';
const BEAR = 'apps/itunes-search-macsoftware-bear.json';
const payload = (name: string) => readFileSync(new URL(`../../fixtures/webdata/${name}`, import.meta.url), 'utf8');
const json = { 'content-type': 'application/json' };
const ROWS = '/WebObjects/MZStore.woa/wa/userReviewsRow';

const suite = fixtureSuite('apps routes', LOOKUP, BEAR);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/lookup', query: { id: '803453959' }, fixture: LOOKUP },
      { path: '/lookup', query: { bundleId: 'com.tinyspeck.slackmacgap' }, fixture: LOOKUP },
      { path: '/lookup', body: { resultCount: 0, results: [] } },
      { path: '/us/customer-reviews/id803453959', body: payload('apps-customer-reviews.json'), headers: json },
      { path: '/gb/customer-reviews/id803453959', status: 500, body: 'error' },
      { path: ROWS, query: { id: '803453959', startIndex: '0' }, body: payload('apps-user-reviews-row.json'), headers: json },
      { path: ROWS, query: { id: '803453959', startIndex: '40' }, body: { userReviewList: [] } },
      { path: '/search', query: { term: 'bear' }, fixture: BEAR },
    ]);
    svc = await startTestService({ UPSTREAM_APPS_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('answers the app record with its storefront histogram, charged 2 credits', async () => {
    const res = await svc.call('/v1/apps/app', { key, body: { app_id: 'id803453959' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => getApp.output.parse(body)).not.toThrow();
    expect(body.search_parameters).toEqual({ engine: 'apps_app', app_id: '803453959', bundle_id: null, country: 'us' });
    expect(body.app).toMatchObject({ app_id: '803453959', title: 'Slack', rating: 4, ratings_count: 1467, price: { value: 0, free: true } });
    expect(body.app.histogram).toEqual({ '1': 112, '2': 43, '3': 98, '4': 301, '5': 913 });
    expect(body.meta).not.toHaveProperty('histogram_error');
    const ratings = replay.requests.find((r) => r.path === '/us/customer-reviews/id803453959')!;
    expect(ratings.headers['x-apple-store-front']).toBe('143441-1,29');
  });

  it('keeps the record when the histogram call fails and says why', async () => {
    const res = await svc.call('/v1/apps/app', { key, body: { bundle_id: 'com.tinyspeck.slackmacgap', country: 'gb' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.app.title).toBe('Slack');
    expect(body.app.histogram).toBeNull();
    expect(body.meta.histogram_error).toBe('UpstreamHttp500');
    expect(replay.requests.some((r) => r.path === '/lookup' && r.query.bundleId === 'com.tinyspeck.slackmacgap' && r.query.country === 'gb')).toBe(true);
  });

  it('404 for an app missing from the storefront; 422 for both or neither id', async () => {
    const missing = await svc.call('/v1/apps/app', { key, body: { app_id: '1' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-credits-charged')).toBe('0');
    expect((await svc.call('/v1/apps/app', { key, body: {} })).status).toBe(422);
    expect((await svc.call('/v1/apps/app', { key, body: { app_id: '1', bundle_id: 'a.b' } })).status).toBe(422);
    const badCountry = await svc.call('/v1/apps/app', { key, body: { app_id: '1', country: 'US' } });
    expect(badCountry.status).toBe(422);
  });

  it('answers a page of written reviews with the written-review total, charged 1 credit', async () => {
    const res = await svc.call('/v1/apps/reviews', { key, body: { app_id: '803453959', sort: 'most_recent' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('1');
    const body = (await res.json()) as any;
    expect(() => getAppReviews.output.parse(body)).not.toThrow();
    expect(body.total).toBe(41);
    expect(body.reviews.map((r: any) => r.review_id)).toEqual(['3391452205', '3388810001']);
    expect(body.reviews[1].developer_response).toEqual({ id: '7201934', text: 'Sorry about that! A fix ships in 3.3.4.', date: '2018-10-04T17:30:00Z' });
    expect(body).not.toHaveProperty('next_offset');
    const rows = replay.requests.find((r) => r.path === ROWS)!;
    expect(rows.query).toMatchObject({ cc: 'us', sort: '4', startIndex: '0', endIndex: '20' });
  });

  it('an empty page is free; an unknown app is a 404', async () => {
    const empty = await svc.call('/v1/apps/reviews', { key, body: { app_id: '803453959', offset: 40 } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-credits-charged')).toBe('0');
    expect(((await empty.json()) as any).reviews).toEqual([]);
    const unknown = await svc.call('/v1/apps/reviews', { key, body: { app_id: '1' } });
    expect(unknown.status).toBe(404);
  });

  it('searches the store', async () => {
    const res = await svc.call('/v1/apps/search', { key, body: { term: 'bear', limit: 50 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => searchApps.output.parse(body)).not.toThrow();
    expect(body.total).toBe(50);
    expect(body.apps[0]).toMatchObject({ app_id: '1091189122', title: 'Bear', bundle_id: 'net.shinyfrog.bear' });
    expect(body.apps[3]).toMatchObject({ app_id: '738040933', rating: 4.60518, ratings_count: 309 });
  });
});
