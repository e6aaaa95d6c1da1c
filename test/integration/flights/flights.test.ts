import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLIGHT_TOOLS, searchFlights } from '../../../tools/flights.js';
import { UpstreamContractChanged } from '../../../src/domain/errors.js';
import { findBookingOptions, parseFlightBookingPage, toCompatBookingOptions } from '../../../src/sources/metasearch/flights/parse-booking.js';
import { decodeTfs } from '../../../src/sources/metasearch/flights/tfs.js';
import { shiftFrom } from '../../helpers/dates.js';
import { fixtureSuite, readFixture } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../replay/server.js';
import { CALENDAR_GRAPH_RETURN, LOCATION_LONDON, RPC_REFUSED } from '../../fixtures/flights-rpc-payloads.js';
import {
  BOOKING_PAGE,
  BOOKING_PAGE_WITHOUT_OPTIONS,
  BOOKING_ROWS,
  LOCATION_NONE,
  RESULTS_PAGE_EMPTY,
  RESULTS_PAGE_WITHOUT_DS1,
  SORRY_PAGE,
} from '../../fixtures/flights-payloads.js';

const NONSTOP = 'google-flights/results-nonstop-sfo_jfk_economy.html.zst';
const LAYOVER = 'google-flights/results-layover-mad_nrt.html.zst';
const SEARCH = '/travel/flights/search';
const BOOKING = '/travel/flights/booking';
const BATCH = '/_/FlightsFrontendUi/data/batchexecute';
const CALENDAR = '/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetCalendarGraph';
const CLICK = 'https://www.google.com/travel/clk/f';
/** The recorded flights' dates moved ahead by whole weeks (past dates are refused); the replay serves the pages moved the same way. */
const D = shiftFrom('2026-07-01');

const tfsOf = (r: RecordedRequest) => decodeTfs(r.query.tfs);
const pinsOutbound = (r: RecordedRequest) => !!r.query.tfs && !!tfsOf(r).legs[0]?.selectedFlights?.length;
const fReq = (r: RecordedRequest) => new URLSearchParams(r.body).get('f.req') ?? '';

describe('flight booking options parser (hand-written payload)', () => {
  it('reads option rows and separate-ticket groups, skipping rows without the click tracker', () => {
    const options = findBookingOptions([null, [BOOKING_ROWS]]);
    expect(options.map((o) => o.kind)).toEqual(['together', 'together', 'separate']);
    expect(options[0]).toMatchObject({
      ticket: {
        seller_code: 'EXAMPLETRAVEL',
        seller: 'Example Travel',
        is_airline: false,
        price: 1987,
        currency: 'USD',
        marketed_as: ['B6 16', 'MS 754', 'MS 964'],
      },
    });
    expect(options[1]).toMatchObject({ ticket: { seller: 'Other Agency', is_airline: null, fare_name: null } });
    expect(options[2]).toMatchObject({ kind: 'separate', price: 1871, currency: 'USD' });
    expect(toCompatBookingOptions(options)[2]).toEqual({
      separate_tickets: true,
      departing: {
        book_with: 'JetBlue',
        airline: true,
        marketed_as: ['B6 16'],
        price: 110,
        option_title: 'Blue Basic',
        booking_request: { url: CLICK, post_data: 'u=ADowPO_B6&hl=en-US' },
      },
      returning: {
        book_with: 'EgyptAir',
        airline: true,
        marketed_as: ['MS 754', 'MS 964'],
        price: 1761,
        option_title: 'Economy Saver',
        booking_request: { url: CLICK, post_data: 'u=ADowPO_MS&hl=en-US' },
      },
    });
  });

  it('treats a booking page without option rows as a contract change, not as an empty answer', () => {
    expect(() => parseFlightBookingPage(BOOKING_PAGE_WITHOUT_OPTIONS)).toThrow(UpstreamContractChanged);
    expect(() => parseFlightBookingPage('<html></html>')).toThrow(/callbacks: none/);
    expect(parseFlightBookingPage(BOOKING_PAGE)).toHaveLength(3);
  });
});

describe('flight input schemas', () => {
  it('accept the query-string forms the compatible GET route passes', () => {
    const parsed = searchFlights.input.parse({
      departure_id: 'SFO',
      arrival_id: 'JFK',
      outbound_date: D('2026-07-15'),
      flight_type: 'one_way',
      adults: '2',
      infants_on_lap: '1',
      currency: 'eur',
      gl: 'DE',
    });
    expect(parsed).toMatchObject({ adults: 2, children: 0, infants_on_lap: 1, currency: 'EUR', gl: 'de', stops: 'any', travel_class: 'economy' });
    expect(FLIGHT_TOOLS.map((t) => [t.path, t.credits.base, t.mcp.expose])).toEqual([
      ['/v1/serp/metasearch_flights', 3, true],
      ['/v1/serp/metasearch_flights_return', 3, true],
      ['/v1/serp/metasearch_flights_booking', 3, true],
      ['/v1/serp/metasearch_flights_location_search', 1, true],
      ['/v1/serp/metasearch_flights_calendar', 5, true],
    ]);
  });
});

const suite = fixtureSuite('flight routes end to end (replayed pages)', NONSTOP, LAYOVER);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  let dataDir: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: SEARCH, query: { curr: 'GBP' }, status: 500, body: 'server error' },
      { path: SEARCH, query: { curr: 'CHF' }, body: SORRY_PAGE },
      { path: SEARCH, query: { curr: 'JPY' }, body: RESULTS_PAGE_WITHOUT_DS1 },
      { path: SEARCH, query: { curr: 'AUD' }, body: RESULTS_PAGE_EMPTY },
      // no return page is recorded: the return leg is answered with the MAD-NRT page, dated for it
      { path: SEARCH, match: pinsOutbound, reply: () => D.text(readFixture(LAYOVER)) },
      { path: SEARCH, reply: () => D.text(readFixture(NONSTOP)) },
      { path: BOOKING, query: { curr: 'CAD' }, body: BOOKING_PAGE_WITHOUT_OPTIONS },
      { path: BOOKING, body: BOOKING_PAGE },
      { method: 'POST', path: BATCH, match: (r) => fReq(r).includes('zzqx'), body: LOCATION_NONE },
      { method: 'POST', path: BATCH, query: { rpcids: 'H028ib' }, body: LOCATION_LONDON },
      { method: 'POST', path: CALENDAR, query: { curr: 'EUR' }, body: RPC_REFUSED },
      { method: 'POST', path: CALENDAR, body: CALENDAR_GRAPH_RETURN },
    ]);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flights-test-'));
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', UPSTREAM_BACKOFF_MS: '0', DATA_DIR: dataDir });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (p: string, body: unknown) => svc.call(`/v1/serp/${p}`, { key, body });
  const roundTrip = {
    departure_id: 'SFO',
    arrival_id: 'JFK',
    outbound_date: D('2026-07-15'),
    return_date: D('2026-08-15'),
    currency: 'USD',
    hl: 'en',
    gl: 'us',
  };
  const lastRequest = (p: string) => replay.requests.filter((r) => r.path === p).at(-1)!;

  it('REST: search → return with the departure_token → booking with the booking_token', async () => {
    const res = await post('metasearch_flights', roundTrip);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const out = (await res.json()) as any;
    expect(out.best_flights).toHaveLength(3);
    expect(out.other_flights).toHaveLength(41);
    const first = out.best_flights[0];
    expect(first).toMatchObject({ price: 110, type: 'Round trip', total_duration: 331 });
    expect(first.flights[0]).toMatchObject({ flight_number: 'B6 16', airline: 'JetBlue', departure_airport: { id: 'SFO', time: '20:30' } });
    expect(first.departure_token).toEqual(expect.any(String));
    expect(first.booking_token).toBeUndefined();
    expect(out.price_insights).toMatchObject({ lowest_price: 110, price_level: 'low', typical_price_range: { low_price: 130, high_price: 170 } });
    expect(out.pricing).toEqual({ requested_currency: 'USD', currency: 'USD', hl: 'en', gl: 'us', egress_mode: 'direct' });
    expect(out.search_parameters).toMatchObject({
      engine: 'metasearch_flights',
      departure_id: 'SFO',
      return_date: D('2026-08-15'),
      adults: '1',
      currency: 'USD',
      gl: 'us',
    });
    expect(out.search_metadata).toMatchObject({ status: 'Success', id: res.headers.get('x-request-id') });
    expect(out.search_metadata.collection_id).toMatch(/^ratecol_/);

    const upstream = lastRequest(SEARCH);
    expect(upstream.query).toMatchObject({ hl: 'en', gl: 'us', curr: 'USD' });
    expect(out.search_metadata.request_url).toBe(`${replay.url}${upstream.url}`);
    const tfs = tfsOf(upstream);
    expect(tfs.trip).toBe(1);
    expect(tfs.legs.map((l) => [l.date, l.from[0].code, l.to[0].code, l.selectedFlights])).toEqual([
      [D('2026-07-15'), 'SFO', 'JFK', undefined],
      [D('2026-08-15'), 'JFK', 'SFO', undefined],
    ]);

    const ret = await post('metasearch_flights_return', { departure_token: first.departure_token });
    expect(ret.status).toBe(200);
    expect(ret.headers.get('x-credits-charged')).toBe('3');
    const back = (await ret.json()) as any;
    expect(back.best_flights).toHaveLength(5);
    expect(back.best_flights[0].flights.map((f: any) => f.flight_number)).toEqual(['MS 754', 'MS 964']);
    expect(back.best_flights[0].booking_token).toEqual(expect.any(String));
    expect(back.best_flights[0].departure_token).toBeUndefined();
    expect(back.search_parameters).toMatchObject({
      engine: 'metasearch_flights_return',
      departure_token: first.departure_token,
      outbound_date: D('2026-07-15'),
    });
    const retTfs = tfsOf(lastRequest(SEARCH));
    expect(retTfs.legs[0].selectedFlights).toEqual([{ from: 'SFO', date: D('2026-07-15'), to: 'JFK', airline: 'B6', flightNumber: '16' }]);
    expect(retTfs.legs[1].selectedFlights).toBeUndefined();
    expect(lastRequest(SEARCH).query).toMatchObject({ hl: 'en', gl: 'us', curr: 'USD' });

    const book = await post('metasearch_flights_booking', { booking_token: back.best_flights[0].booking_token });
    expect(book.status).toBe(200);
    expect(book.headers.get('x-credits-charged')).toBe('3');
    const opts = (await book.json()) as any;
    expect(opts.booking_options).toHaveLength(3);
    expect(opts.booking_options[0]).toEqual({
      together: {
        book_with: 'Example Travel',
        airline: false,
        marketed_as: ['B6 16', 'MS 754', 'MS 964'],
        price: 1987,
        booking_request: { url: CLICK, post_data: 'u=ADowPO_ROW1&hl=en-US' },
        // the POST click-out as a GET link a person can open on this service (test/integration/booking)
        booking_link: {
          url: expect.stringMatching(new RegExp(`^${svc.url}/v1/book/[\\w-]{22}\\?e=\\d+&s=[\\w-]+$`)),
          method: 'GET',
          expires_at: expect.any(String),
        },
      },
    });
    expect(opts.booking_options[2]).toMatchObject({
      separate_tickets: true,
      departing: { book_with: 'JetBlue', price: 110 },
      returning: { book_with: 'EgyptAir' },
    });
    expect(opts.pricing.currency).toBe('USD');
    const bookReq = lastRequest(BOOKING);
    expect(bookReq.query).toMatchObject({ hl: 'en', gl: 'us', curr: 'USD' });
    expect(tfsOf(bookReq).legs.map((l) => l.selectedFlights?.map((f) => `${f.airline} ${f.flightNumber}`))).toEqual([['B6 16'], ['MS 754', 'MS 964']]);
  });

  it('MCP: the same chain through the SDK client, metered like REST', async () => {
    const client = new Client({ name: 'flights-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(FLIGHT_TOOLS.map((t) => t.name)));

    const search = await client.callTool({ name: 'search_flights', arguments: { ...roundTrip, adults: 2 } });
    expect(search.isError).toBeFalsy();
    expect((search._meta as any).credits_charged).toBe(3);
    // over MCP an agent gets the compact view: itineraries cheapest first, the engine's best flagged
    const found = search.structuredContent as any;
    const best = found.flights.filter((f: any) => f.best);
    expect(best[0].price).toBe(110);
    expect(decodeTfs(lastRequest(SEARCH).query.tfs).passengers).toEqual([1, 1]);
    // the compatible API's archive (json_url / html_url) is for its REST clients: an MCP call keeps nothing there
    expect(found).not.toHaveProperty('search_metadata');
    expect(await svc.deps.sql`SELECT 1 FROM search_archive WHERE id = ${(search._meta as any).request_id}`).toHaveLength(0);

    const ret = await client.callTool({ name: 'get_return_flights', arguments: { departure_token: best[0].departure_token, currency: 'EUR' } });
    expect(ret.isError).toBeFalsy();
    const back = ret.structuredContent as any;
    // asked for EUR, the page priced in USD: both are reported
    expect(back).toMatchObject({ search: { currency: 'EUR' }, currency: 'USD' });
    expect(lastRequest(SEARCH).query.curr).toBe('EUR');

    const book = await client.callTool({ name: 'get_booking_options', arguments: { booking_token: back.flights.filter((f: any) => f.best)[1].booking_token } });
    expect(book.isError).toBeFalsy();
    expect((book._meta as any).credits_charged).toBe(3);
    // over MCP the view: each option's whole-itinerary total and its tickets, each with the link to open
    const second = (book.structuredContent as any).options[1];
    expect(second.tickets[0]).toMatchObject({ book_with: 'Other Agency', booking_link: { method: 'GET' } });
    expect(second.total).toBe(second.tickets[0].price);
    expect(lastRequest(BOOKING).query.curr).toBe('EUR');

    const bad = await client.callTool({ name: 'get_booking_options', arguments: { booking_token: best[0].departure_token } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toBe('invalid booking_token');

    // the other two tools' output schemas hold for what they return
    const loc = await client.callTool({ name: 'search_flight_locations', arguments: { q: 'london' } });
    expect((loc.structuredContent as any).locations).toHaveLength(2);
    const cal = await client.callTool({ name: 'get_flight_calendar', arguments: { ...roundTrip, flight_type: 'one_way', return_date: undefined } });
    expect((cal._meta as any).credits_charged).toBe(5);
    expect((cal.structuredContent as any).calendar).toHaveLength(3);
    await client.close();
  });

  it('are described in /openapi.json', async () => {
    const doc = (await (await svc.call('/openapi.json')).json()) as any;
    for (const t of FLIGHT_TOOLS) expect(doc.paths[t.path]?.post, t.path).toBeDefined();
  });

  it('location search and price calendar', async () => {
    const loc = await post('metasearch_flights_location_search', { q: 'london', hl: 'en' });
    expect(loc.status).toBe(200);
    expect(loc.headers.get('x-credits-charged')).toBe('1');
    const places = (await loc.json()) as any;
    expect(places.locations[0]).toMatchObject({ kind: 3, title: 'London', kgmid: '/m/04jpl' });
    expect(places.locations[0].airports.map((a: any) => a.code)).toEqual(['LHR', 'LGW', 'QQS']);
    expect(lastRequest(BATCH).query).toMatchObject({ rpcids: 'H028ib', hl: 'en' });

    const none = await post('metasearch_flights_location_search', { q: 'zzqx' });
    expect(none.status).toBe(200);
    expect(none.headers.get('x-credits-charged')).toBe('0');
    expect(((await none.json()) as any).locations).toEqual([]);

    const cal = await post('metasearch_flights_calendar', { ...roundTrip, return_date: D('2026-07-22'), outbound_date_end: D('2026-08-31') });
    expect(cal.status).toBe(200);
    expect(cal.headers.get('x-credits-charged')).toBe('5');
    const grid = (await cal.json()) as any;
    expect(grid.calendar[0]).toEqual({ departure: '2026-01-05', return: '2026-01-12', price: 676, currency: 'GBP' });
    expect(grid.pricing).toMatchObject({ requested_currency: 'USD', currency: 'GBP' });
    expect(grid.search_parameters).toMatchObject({ outbound_date_start: D('2026-07-15'), outbound_date_end: D('2026-08-31') });
    const calReq = lastRequest(CALENDAR);
    expect(calReq.query).toEqual({ hl: 'en', gl: 'us', curr: 'USD' });
    expect(JSON.parse(JSON.parse(fReq(calReq))[1])[2]).toEqual([D('2026-07-15'), D('2026-08-31')]);
  });

  it('errors: 400 bad token or bad input (the compatible family answers 400 with error beside detail), 502 upstream failure or block, 503 missing structure; all free', async () => {
    const cases: [string, unknown, number, unknown][] = [
      ['metasearch_flights_return', { departure_token: 'not-a-token' }, 400, 'invalid departure_token'],
      ['metasearch_flights_booking', { booking_token: 'e30' }, 400, 'invalid booking_token'],
      ['metasearch_flights', { ...roundTrip, return_date: D('2026-07-01') }, 400, 'return_date is before outbound_date'],
      ['metasearch_flights', { ...roundTrip, currency: 'GBP' }, 502, 'UpstreamHttp500'],
      ['metasearch_flights', { ...roundTrip, currency: 'CHF' }, 502, 'UnusualTraffic'],
      ['metasearch_flights_calendar', { ...roundTrip, currency: 'EUR' }, 502, 'RpcStatus13'],
    ];
    for (const [route, body, status, detail] of cases) {
      const res = await post(route, body);
      expect([route, res.status]).toEqual([route, status]);
      expect(((await res.json()) as any).detail).toEqual(detail);
      expect(res.headers.get('x-credits-charged')).toBe('0');
    }

    const missing = await post('metasearch_flights', { departure_id: 'SFO', arrival_id: 'JFK', outbound_date: D('2026-07-15'), adults: 12, extra: 1 });
    expect(missing.status).toBe(400);
    const missingBody = (await missing.json()) as any;
    expect(missingBody.error).toContain('adults:');
    const issues = missingBody.detail;
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'less_than_equal', loc: ['body', 'adults'] }),
        expect.objectContaining({ type: 'extra_forbidden', loc: ['body', 'extra'] }),
      ]),
    );
    const noReturn = await post('metasearch_flights', { departure_id: 'SFO', arrival_id: 'JFK', outbound_date: D('2026-07-15') });
    expect(noReturn.status).toBe(400);
    expect(((await noReturn.json()) as any).detail).toEqual([
      {
        type: 'missing',
        loc: ['body', 'return_date'],
        msg: 'Field required for a round trip, the default flight_type; set flight_type one_way for none',
        input: null,
      },
    ]);

    const noDs1 = await post('metasearch_flights', { ...roundTrip, currency: 'JPY' });
    expect(noDs1.status).toBe(503);
    expect(((await noDs1.json()) as any).detail).toMatch(/^metasearch upstream contract changed: flight results blob ds:1 missing/);
    expect(noDs1.headers.get('x-credits-charged')).toBe('0');
    expect(fs.readdirSync(path.join(dataDir, 'diagnostics', 'metasearch')).some((f) => f.endsWith('.html.gz'))).toBe(true);

    const search = (await (await post('metasearch_flights', { ...roundTrip, flight_type: 'one_way', return_date: undefined })).json()) as any;
    const bookingToken = search.best_flights[0].booking_token;
    expect(bookingToken).toEqual(expect.any(String));
    const noOptions = await post('metasearch_flights_booking', { booking_token: bookingToken, currency: 'CAD' });
    expect(noOptions.status).toBe(503);
    expect(((await noOptions.json()) as any).detail).toBe(
      'metasearch upstream contract changed: booking page data carries no booking options (callbacks: ds:0,ds:1)',
    );
    expect(noOptions.headers.get('x-credits-charged')).toBe('0');
  });

  it('an empty results page is answered and not charged', async () => {
    const res = await post('metasearch_flights', { ...roundTrip, currency: 'AUD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    const out = (await res.json()) as any;
    expect([out.best_flights, out.other_flights]).toEqual([[], []]);
    expect(out.pricing).toMatchObject({ requested_currency: 'AUD', currency: null });
  });
});
