import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { transportStay } from '../../../src/sources/metasearch/hotels/stay.js';
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
/** Decodes as a property token, but the replayed engine answers without that property. */
const UNKNOWN = LONDON_TOKENS[1];
const CHANGED = LONDON_TOKENS[2];

const suite = fixtureSuite('hotel property details (replayed property page)', PAGES.london, PAGES.tokyo);
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
      { path: SEARCH, query: { qs: encodePropertyQs(CHANGED) }, body: withData(london, [[], []]) },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('POST /v1/hotels/property returns the address-bearing details for 3 credits', async () => {
    const res = await svc.call('/v1/hotels/property', { key, body: { property_token: CROWN, currency: 'GBP', gl: 'gb' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      type: 'hotel',
      property_token: CROWN,
      name: 'The Crown, Battersea (PUBLOVE)',
      address: '10 Example Street, London SW11 1AA, United Kingdom',
      phone: '+44 20 0000 0000',
      hotel_class: '2-star hotel',
      extracted_hotel_class: 2,
      rating: 4.1,
      reviews: 1075,
      rate: { currency: 'GBP', check_in: '2026-04-15', check_out: '2026-04-22', nights: 7, from_display_text: false },
    });
    expect(body.amenity_codes).toContainEqual([1, 54]);
    expect(body.amenities).toContain('Breakfast');
    expect(body.gps_coordinates.latitude).toBeTypeOf('number');
    expect(body.prices.total).toMatchObject({
      amount: 202.58,
      provenance: { source_kind: 'offer', source_property_id: CROWN, requested_market: 'GB', requested_currency: 'GBP' },
    });

    const [req] = forToken(CROWN);
    expect(req.path).toBe(SEARCH);
    expect(req.query).toMatchObject({ hl: 'en', gl: 'gb' });
    const stay = transportStay();
    expect(decodeTs(req.query.ts).search).toMatchObject({ checkIn: stay.checkIn, checkOut: stay.checkOut, adults: 2, currency: 'GBP' });
  });

  it('POST /v1/serp/metasearch_hotels_property answers in the compatible shape', async () => {
    const res = await svc.call('/v1/serp/metasearch_hotels_property', {
      key,
      body: { property_token: CROWN, check_in_date: S('2026-04-15'), check_out_date: S('2026-04-22'), currency: 'GBP', gl: 'gb' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body.search_parameters).toMatchObject({
      engine: 'metasearch_hotels_property',
      property_token: CROWN,
      check_in_date: S('2026-04-15'),
      check_out_date: S('2026-04-22'),
    });
    expect(body.search_metadata.request_url).toMatch(/^https:\/\/www\.google\.com\/travel\/search\?qs=/);
    const p = body.property;
    expect(p).toMatchObject({
      name: 'The Crown, Battersea (PUBLOVE)',
      address: '10 Example Street, London SW11 1AA, United Kingdom',
      phone_link: 'tel:+442000000000',
    });
    expect(p.price_insights).toEqual({ lowest_price: '£29', typical_price_range: { low_price: '£25', high_price: '£45' } });
    expect(p.featured_offers.map((o: any) => o.source)).toEqual(['Booking.com', 'Agoda']);
    expect(p.all_offers).toHaveLength(5);
    expect(p.featured_offers[0]).toMatchObject({
      tracking_link: 'https://www.google.com/aclk?sa=l&ai=booking-featured',
      total_price: { price: '£203', extracted_price: 203 },
      has_free_cancellation: true,
      free_cancellation_until: { date: 'Apr 10', time: '11:59 PM' },
      rooms: [{ name: 'Double Room' }, { name: 'Junior Suite' }],
    });
    expect(p.all_offers.find((o: any) => o.is_official).source).toBe('The Crown, Battersea (PUBLOVE)');
    expect(decodeTs(forToken(CROWN).at(-1)!.query.ts).search).toMatchObject({ checkIn: S('2026-04-15'), checkOut: S('2026-04-22') });
  });

  it('get_hotel_details over MCP', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const res = await client.callTool({ name: 'get_hotel_details', arguments: { property_token: CROWN, currency: 'GBP', gl: 'gb' } });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as any).address).toBe('10 Example Street, London SW11 1AA, United Kingdom');
    const missing = await client.callTool({ name: 'get_hotel_details', arguments: { property_token: UNKNOWN } });
    expect(missing.isError).toBe(true);
    expect((missing._meta as any).status).toBe(404);
    await client.close();
  });

  it('an unknown token is 404, a malformed one too (without an upstream call), both free', async () => {
    const res = await svc.call('/v1/hotels/property', { key, body: { property_token: UNKNOWN } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    const before = replay.requests.length;
    const bad = await svc.call('/v1/hotels/property', { key, body: { property_token: 'not-a-token-at-all' } });
    expect(bad.status).toBe(404);
    expect(replay.requests.length).toBe(before);
  });

  it('bad input is 422; a property answer without its request echo is 503', async () => {
    const short = await svc.call('/v1/hotels/property', { key, body: { property_token: 'abc', gl: 'GB' } });
    expect(short.status).toBe(422);
    expect((((await short.json()) as any).detail as any[]).map((d) => d.loc.join('.'))).toEqual(['body.property_token', 'body.gl']);
    const changed = await svc.call('/v1/serp/metasearch_hotels_property', { key, body: { property_token: CHANGED } });
    expect(changed.status).toBe(503);
    expect(((await changed.json()) as any).detail).toBe('metasearch upstream contract changed: property data has no request echo');
  });
});
