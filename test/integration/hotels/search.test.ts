import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serpHotels, serpHotelsProperty } from '../../../tools/hotels.js';
import { decodeTs } from '../../../src/sources/metasearch/hotels/ts-param.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../replay/server.js';
import { emptySearchPage, LONDON_TOKENS, page, PAGES } from '../../fixtures/hotels-payloads.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-04-10');

const SEARCH = '/travel/search';
const SORRY = '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>';

describe('hotel search input schema', () => {
  it('accepts the query-string forms of GET /api/v1/search', () => {
    const parsed = serpHotels.input.parse({
      q: 'London',
      check_in_date: S('2026-04-15'),
      check_out_date: S('2026-04-22'),
      adults: '3',
      min_price: '50',
      rating: '8',
      hotel_class: '4,5',
      gl: 'GB',
      currency: 'gbp',
    });
    expect(parsed).toMatchObject({ adults: 3, min_price: 50, rating: 4, hotel_class: '4,5', currency: 'GBP', gl: 'gb', hl: 'en' });
    expect(serpHotelsProperty.input.parse({ property_token: LONDON_TOKENS[0], adults: '1', hl: 'en-US', gl: 'US' })).toMatchObject({
      adults: 1,
      gl: 'us',
      hl: 'en-US',
      currency: 'USD',
    });
  });
});

const suite = fixtureSuite('hotel destination search (replayed result pages)', PAGES.london, PAGES.paris);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  const searches = () => replay.requests.filter((r) => r.path === SEARCH);
  const last = (): RecordedRequest => searches()[searches().length - 1];

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: SEARCH, query: { q: 'Boom' }, status: 500, body: 'upstream down' },
      { path: SEARCH, query: { q: 'Blocked' }, status: 200, body: SORRY },
      {
        path: SEARCH,
        query: { q: 'Consent' },
        status: 302,
        headers: { location: 'https://consent.google.com/ml?continue=https://www.google.com/travel/search&gl=DE' },
      },
      { path: SEARCH, query: { q: 'Changed' }, body: '<html><body>new layout</body></html>' },
      { path: SEARCH, query: { q: 'Nowhere' }, body: emptySearchPage(page(PAGES.london)) },
      { path: SEARCH, query: { start: '18' }, body: page(PAGES.paris) },
      { path: SEARCH, body: page(PAGES.london) },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('POST /v1/hotels/search fetches two pages, prices with provenance, 3 credits per page', async () => {
    const res = await svc.call('/v1/hotels/search', { key, body: { q: 'London', check_in: S('2026-04-15'), nights: 7, currency: 'GBP', gl: 'gb', pages: 2 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('6');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      query: 'London',
      check_in: S('2026-04-15'),
      check_out: S('2026-04-22'),
      nights: 7,
      total_results: 1022,
      pagination: { next_page_token: 'CBI=' },
    });
    expect(body.pages.map((p: any) => [p.page, p.page_token, p.properties])).toEqual([
      [1, null, 18],
      [2, 'CBI=', 18],
    ]);
    expect(body.properties).toHaveLength(36);
    const first = body.properties[0];
    expect(first).toMatchObject({
      position: 0,
      page: 1,
      type: 'hotel',
      name: 'The Crown, Battersea (PUBLOVE)',
      property_token: LONDON_TOKENS[0],
      rating: 4.1,
      reviews: 1075,
      extracted_hotel_class: 2,
    });
    expect(first.prices).toMatchObject({
      currency: 'GBP',
      display_basis: 'all_in',
      nightly: { amount: 28.94, text: '£29' },
      total: { amount: 202.58, text: '£203' },
      taxes: { amount: 33.7634, text: null },
    });
    expect(first.prices.total.provenance).toMatchObject({
      source: 'metasearch',
      source_kind: 'offer',
      source_property_id: LONDON_TOKENS[0],
      price_basis: 'stay_total_including_taxes_and_fees',
      derivation: 'upstream',
      requested_currency: 'GBP',
      returned_currency: 'GBP',
      collection_id: body.pages[0].collection_id,
    });
    expect(first.prices.nightly.provenance.observation_id).not.toBe(first.prices.total.provenance.observation_id);
    expect(body.properties[18]).toMatchObject({ page: 2, name: 'Au Royal Mad' });
    expect(body.properties[18].prices.total.provenance.collection_id).toBe(body.pages[1].collection_id);
    expect(body.pages[0].collection_id).not.toBe(body.pages[1].collection_id);

    const [p1, p2] = searches().slice(-2);
    expect(p1.query).toMatchObject({ q: 'London', hl: 'en', gl: 'gb' });
    expect(p1.query.start).toBeUndefined();
    expect(decodeTs(p1.query.ts).search).toMatchObject({ checkIn: S('2026-04-15'), checkOut: S('2026-04-22'), adults: 2, currency: 'GBP' });
    expect(p2.query.start).toBe('18');
  });

  it('an empty result page is free', async () => {
    const res = await svc.call('/v1/hotels/search', { key, body: { q: 'Nowhere', check_in: S('2026-04-15'), pages: 3 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    const body = (await res.json()) as any;
    expect(body.properties).toEqual([]);
    expect(body.pages).toHaveLength(1);
    expect(body.pagination.next_page_token).toBeNull();
  });

  it('POST /v1/serp/metasearch_hotels answers in the compatible shape, one page per call', async () => {
    const res = await svc.call('/v1/serp/metasearch_hotels', {
      key,
      body: { q: 'London', check_in_date: S('2026-04-15'), check_out_date: S('2026-04-22'), currency: 'GBP', gl: 'gb' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body.search_metadata).toMatchObject({ status: 'Success', id: res.headers.get('x-request-id') });
    expect(body.search_metadata.request_url).toMatch(/^https:\/\/www\.google\.com\/travel\/search\?q=London&ts=/);
    expect(body.search_parameters).toMatchObject({ engine: 'metasearch_hotels', q: 'London', check_in_date: S('2026-04-15'), currency: 'GBP', adults: '2' });
    expect(body.search_information).toEqual({ total_results: 1022 });
    expect(body.pagination).toEqual({ records_from: 1, records_to: 18, next_page_token: 'CBI=' });
    expect(body.brands).toHaveLength(23);
    expect(body.properties[0]).toMatchObject({
      type: 'hotel',
      name: 'The Crown, Battersea (PUBLOVE)',
      property_token: LONDON_TOKENS[0],
      total_price: { price: '£203', extracted_price: 203 },
    });

    const next = await svc.call('/v1/serp/metasearch_hotels', {
      key,
      body: { q: 'London', check_in_date: S('2026-04-15'), check_out_date: S('2026-04-22'), next_page_token: 'CBI=' },
    });
    expect(((await next.json()) as any).properties[0].name).toBe('Au Royal Mad');
    expect(last().query.start).toBe('18');
  });

  it('search_hotels over MCP returns the compact view of the same result', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const res = await client.callTool({ name: 'search_hotels', arguments: { q: 'London', check_in: S('2026-04-15'), nights: 7, currency: 'GBP', gl: 'gb' } });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as any;
    expect(sc.properties).toHaveLength(18);
    expect(sc.properties[1]).toMatchObject({ name: 'Exmouth Arms', price: { currency: 'GBP' } });
    expect(sc.properties[1].price.nightly).toBeCloseTo(31, 0);
    expect(sc.properties[1]).not.toHaveProperty('amenity_codes');
    expect((res._meta as any).credits_charged).toBe(3);
    await client.close();
  });

  it('bad input is 422 with the array detail; a check-out before check-in is 400', async () => {
    const res = await svc.call('/v1/hotels/search', { key, body: { check_in: S('2026-04-15'), currency: 'XXX', extra: 1 } });
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as any).detail as any[];
    expect(detail.map((d) => d.loc.join('.'))).toEqual(expect.arrayContaining(['body.q', 'body.currency', 'body.extra']));
    const order = await svc.call('/v1/hotels/search', { key, body: { q: 'London', check_in: S('2026-04-15'), check_out: S('2026-04-10') } });
    expect(order.status).toBe(400);
  });

  it('upstream failure, block page and consent wall are 502; a changed page is 503; all free', async () => {
    const cases: [string, number, string | RegExp][] = [
      ['Boom', 502, 'UpstreamHttp500'],
      ['Blocked', 502, 'UnusualTraffic'],
      ['Consent', 502, 'ConsentWall'],
      ['Changed', 503, /^metasearch upstream contract changed/],
    ];
    for (const [q, status, detail] of cases) {
      const res = await svc.call('/v1/hotels/search', { key, body: { q, check_in: S('2026-04-15') } });
      expect(res.status, q).toBe(status);
      expect(res.headers.get('x-credits-charged')).toBe('0');
      expect(((await res.json()) as any).detail).toMatch(detail);
    }
  });
});
