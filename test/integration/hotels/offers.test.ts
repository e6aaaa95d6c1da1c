import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { decodeTs } from '../../../src/sources/metasearch/hotels/ts-param.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../../fixtures/hotels-payloads.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-04-10');

const SEARCH = '/travel/search';
const CROWN = LONDON_TOKENS[0];
const UNKNOWN = LONDON_TOKENS[1];
const FAILING = LONDON_TOKENS[2];
const STAY = { token: CROWN, check_in: S('2026-04-15'), nights: 7, market: 'GB' };

const suite = fixtureSuite('hotel offers, rooms and stay price (replayed property page)', PAGES.london, PAGES.tokyo);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  const forToken = (t: string) => replay.requests.filter((r) => r.query.qs === encodePropertyQs(t));

  beforeAll(async () => {
    const london = page(PAGES.london);
    replay = await startReplayServer([
      { path: SEARCH, query: { qs: encodePropertyQs(CROWN) }, body: withData(london, crownDetail()) },
      { path: SEARCH, query: { qs: encodePropertyQs(UNKNOWN) }, body: london },
      { path: SEARCH, query: { qs: encodePropertyQs(FAILING) }, status: 503, body: 'unavailable' },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('POST /v1/offers lists the sellers with provenance and retries once for a missing required source', async () => {
    const before = forToken(CROWN).length;
    const res = await svc.call('/v1/offers', { key, body: STAY });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      token: CROWN,
      check_in: S('2026-04-15'),
      check_out: S('2026-04-22'),
      nights: 7,
      device: 'iphone',
      currency: 'GBP',
      currency_matches_request: true,
      requested_market: 'GB',
      egress_market: null,
      rates_include_tax: true,
      display_basis: 'all_in',
      name: 'The Crown, Battersea (PUBLOVE)',
      hotel_class_stars: 2,
      rating: 4.1,
      has_deal: null,
      price_insights: { lowest_price: '£29', price_level: null, price_level_code: 2, typical_price_range: { low_price: '£25', high_price: '£45' } },
      missing_sources: ['hotels'],
      refundable_offers: 1,
      rooms_total: 2,
    });
    expect(body.lowest_price_per_night).toBeCloseTo(202.58 / 7, 2);
    expect(body.sources).toEqual(['booking', 'agoda', 'the_crown_battersea_publove', 'expedia']);
    const [booking, agoda, official, expedia] = body.offers;
    expect(booking).toMatchObject({
      raw_source: 'Booking.com',
      price_per_night: 28.94,
      total: 202.58,
      headline_price_total: 202.58,
      has_free_cancellation: true,
      free_cancellation_until: 'Apr 10',
      free_cancellation_time: '11:59 PM',
      sponsored: true,
      link: 'https://www.google.com/aclk?sa=l&ai=booking-featured',
      provenance: {
        source_kind: 'ota_offer',
        price_basis: 'stay_total_including_taxes_and_fees',
        derivation: 'upstream',
        upstream_rate_id: '184',
        returned_currency: 'GBP',
        requested_market: 'GB',
      },
    });
    expect(booking.rooms.map((r: any) => [r.name, r.price_total, r.is_suite, r.has_free_cancellation])).toEqual([
      ['Double Room', 202.58, false, true],
      ['Junior Suite', 283.5, true, false],
    ]);
    expect(agoda).toMatchObject({ total: 210.7, link: 'https://www.google.com/travel/lodging/clk?pc=agoda', has_free_cancellation: false });
    expect(official).toMatchObject({ is_official: true, total: 231, provenance: { derivation: 'normalized_upstream' } });
    expect(expedia).toMatchObject({ raw_source: 'Expedia.com', price_per_night: 31, total: 216 });
    // all offers of one fetch share its collection; a thin render was fetched once more
    expect(new Set(body.offers.map((o: any) => o.provenance.collection_id)).size).toBe(1);
    const requests = forToken(CROWN).slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0].headers['user-agent']).toMatch(/iPhone/);
    expect(requests[1].headers['user-agent']).toMatch(/Android/);
    expect(requests[0].query).toMatchObject({ hl: 'en', gl: 'gb' });
    expect(decodeTs(requests[0].query.ts).search).toMatchObject({ checkIn: S('2026-04-15'), checkOut: S('2026-04-22'), adults: 2, currency: 'GBP' });
  });

  it('filters: metasearch sellers on request, free cancellation only, no retry when nothing is required', async () => {
    const before = forToken(CROWN).length;
    const res = await svc.call('/v1/offers', { key, body: { ...STAY, include_metasearch: true, free_cancellation_only: true, require_sources: [] } });
    const body = (await res.json()) as any;
    expect(body.offers.map((o: any) => o.raw_source)).toEqual(['Booking.com', 'Bluepillow.com']);
    expect(body.missing_sources).toEqual([]);
    expect(forToken(CROWN).length - before).toBe(1);
  });

  it('POST /v1/rooms groups the named rooms by seller', async () => {
    const res = await svc.call('/v1/rooms', { key, body: { ...STAY, device: 'desktop' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ rooms_total: 2, currency: 'GBP', display_basis: 'all_in', device: 'desktop' });
    expect(body.sellers).toHaveLength(1);
    expect(body.sellers[0]).toMatchObject({ source: 'booking', raw_source: 'Booking.com', sponsored: true });
    expect(body.sellers[0].rooms[0]).toMatchObject({
      name: 'Double Room',
      link: 'https://www.google.com/aclk?sa=l&ai=booking-double',
      price_total: 202.58,
      price_before_taxes: null,
      price_text: '£203',
      free_cancellation_until: 'Apr 10',
      provenance: { source_kind: 'ota_offer', upstream_rate_id: '184:Double Room' },
    });
    expect(forToken(CROWN).at(-1)!.headers['user-agent']).toMatch(/Windows/);
  });

  it('POST /v1/stay gives the headline split and the cheapest seller', async () => {
    const res = await svc.call('/v1/stay', { key, body: { token: CROWN, check_in: S('2026-04-15'), check_out: S('2026-04-22'), currency: 'GBP' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ nights: 7, currency: 'GBP', requested_currency: 'GBP', currency_matches_request: true, available: true, sellers_count: 5 });
    expect(body.price).toMatchObject({
      display_basis: 'all_in',
      total: { amount: 202.58, text: '£203', provenance: { price_basis: 'stay_total_including_taxes_and_fees' } },
      total_before_taxes: { amount: 168.8166, provenance: { price_basis: 'room_base_before_taxes_and_fees' } },
      taxes: { amount: 33.7634 },
      fees: { amount: 0 },
      nightly: { amount: 28.94, text: '£29', provenance: { price_basis: 'nightly_including_taxes_and_fees' } },
    });
    expect(body.cheapest_seller).toMatchObject({ raw_source: 'Booking.com', total: 202.58, total_text: '£203', price_per_night: 28.94 });
  });

  it('offers, rooms and stay over MCP', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const offers = await client.callTool({ name: 'get_hotel_offers', arguments: { ...STAY, require_sources: [] } });
    expect(offers.isError).toBeFalsy();
    expect((offers.structuredContent as any).offers).toHaveLength(4);
    const rooms = await client.callTool({ name: 'get_hotel_rooms', arguments: STAY });
    expect((rooms.structuredContent as any).rooms_total).toBe(2);
    const stay = await client.callTool({ name: 'get_stay_price', arguments: STAY });
    expect((stay.structuredContent as any).price.total.amount).toBe(202.58);
    expect((stay._meta as any).credits_charged).toBe(3);
    await client.close();
  });

  it('errors: 404 unknown token, 422 bad input, 400 dates out of order, 502 upstream failure; all free', async () => {
    const unknown = await svc.call('/v1/stay', { key, body: { ...STAY, token: UNKNOWN } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-credits-charged')).toBe('0');
    const bad = await svc.call('/v1/offers', { key, body: { ...STAY, market: 'JP', coverage: 4 } });
    expect(bad.status).toBe(422);
    expect((((await bad.json()) as any).detail as any[]).map((d) => d.loc.join('.'))).toEqual(['body.market', 'body.coverage']);
    const order = await svc.call('/v1/rooms', { key, body: { ...STAY, check_out: S('2026-04-15') } });
    expect(order.status).toBe(400);
    const down = await svc.call('/v1/offers', { key, body: { ...STAY, token: FAILING } });
    expect(down.status).toBe(502);
    expect(down.headers.get('x-credits-charged')).toBe('0');
    expect(((await down.json()) as any).detail).toBe('UpstreamHttp503');
  });
});
