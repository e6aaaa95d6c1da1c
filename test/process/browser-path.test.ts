/**
 * The upstream browser path through the service's own doors, in headless Chromium against local
 * replay sites that behave like the real ones: the flight front end whose booking page (and
 * results page) get their data from an RPC the page's script signs, and a site behind a script
 * challenge. Four services on one database, one per setting under test: auto (the default), http,
 * browser, and auto without Chromium.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTfs } from '../../src/sources/metasearch/flights/tfs.js';
import { hasChromium } from '../helpers/chromium.js';
import { fixtureSuite, readFixture } from '../helpers/fixtures.js';
import { runEntry } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { OTAONE_PROPERTY_PAGE } from '../fixtures/ota-payloads.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../replay/server.js';
import {
  BOOKING_PATH,
  BOOKING_RPC_PATH,
  CALENDAR_RPC_PATH,
  Challenge,
  MEDIA_PATHS,
  PAGE_SCRIPT_PATH,
  Signer,
  signedFlightRoutes,
} from '../replay/signed-sites.js';
import { shiftFrom } from '../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2026-07-15');

const NONSTOP = 'google-flights/results-nonstop-sfo_jfk_economy.html.zst';
const LAYOVER = 'google-flights/results-layover-mad_nrt.html.zst';
const CARDS = 'booking/search-results-cards-belgrade-2026-11-14.html';
const PROPERTY = '/otaone/hotel/rs/example-centre.en-gb.html';
const CLICK = 'https://www.google.com/travel/clk/f';
const ROUND_TRIP = {
  departure_id: 'SFO',
  arrival_id: 'JFK',
  outbound_date: S('2026-07-15'),
  return_date: S('2026-08-15'),
  currency: 'USD',
  hl: 'en',
  gl: 'us',
};
const ROOMS = { pagename: 'example-centre', country: 'rs', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' };

const pinsOutbound = (r: RecordedRequest) => !!r.query.tfs && !!decodeTfs(r.query.tfs).legs[0]?.selectedFlights?.length;
/** Requests made by the browser: Chromium's own user agent, never the plain client's profile. */
const fromBrowser = (r: RecordedRequest) => /X11; Linux x86_64/.test(String(r.headers['user-agent']));

const suite = fixtureSuite(
  'upstream browser path through the service (headless Chromium, replayed signed pages and a script challenge)',
  NONSTOP,
  LAYOVER,
  CARDS,
);
const title = hasChromium ? suite.title : `${suite.title} [SKIPPED: chromium not installed]`;

describe.skipIf(!hasChromium)(title, () => {
  let replay: ReplayServer;
  let db: TestDatabase;
  let dataDir: string;
  const svc: Record<'auto' | 'http' | 'browser' | 'missing', TestService> = {} as never;
  const keys: Record<string, string> = {};
  const signer = new Signer();
  const challenge = new Challenge();
  let env: Record<string, string>;

  beforeAll(async () => {
    const pages = { nonstop: S.text(readFixture(NONSTOP)), layover: S.text(readFixture(LAYOVER)) };
    replay = await startReplayServer([
      ...signedFlightRoutes(signer, { resultsPage: (req) => (pinsOutbound(req) ? pages.layover : pages.nonstop) }),
      ...challenge.protect({ path: PROPERTY, body: OTAONE_PROPERTY_PAGE }),
      ...challenge.protect({ path: '/otaone/searchresults.en-gb.html', body: readFixture(CARDS) }),
    ]);
    db = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-path-'));
    env = {
      UPSTREAM_METASEARCH_URL: replay.url,
      UPSTREAM_OTAONE_URL: `${replay.url}/otaone`,
      UPSTREAM_RETRIES: '0',
      UPSTREAM_BROWSER_ALLOW_PRIVATE: 'true',
      // the browser call's bound (30 s by default) sized for a loaded machine, as wall-clearance does
      UPSTREAM_BROWSER_TIMEOUT_MS: '90000',
      DATA_DIR: dataDir,
      RUN_WORKER: 'false',
    };
    const settings = {
      auto: {},
      http: { UPSTREAM_METASEARCH_MODE: 'http', UPSTREAM_OTAONE_MODE: 'http' },
      browser: { UPSTREAM_METASEARCH_MODE: 'browser' },
      missing: { CHROMIUM_PATH: '/nonexistent/chromium' },
    };
    for (const [name, extra] of Object.entries(settings) as [keyof typeof svc, Record<string, string>][]) {
      svc[name] = await startTestService({ ...env, ...extra }, { databaseUrl: db.url });
      keys[name] = (await svc[name].key()).key;
    }
    keys.admin = (await svc.auto.key({ role: 'admin' })).key;
  }, 120_000);

  afterAll(async () => {
    for (const s of Object.values(svc)) await s?.close();
    await replay?.close();
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (name: keyof typeof svc, route: string, body: unknown) => {
    const res = await svc[name].call(route, { key: keys[name], body });
    return { status: res.status, body: (await res.json()) as any, charged: res.headers.get('x-credits-charged') };
  };
  /** A booking token for the nonstop page's first one-way itinerary. */
  const bookingToken = async () =>
    (await post('http', '/v1/serp/metasearch_flights', { ...ROUND_TRIP, flight_type: 'one_way', return_date: undefined })).body.best_flights[0]
      .booking_token as string;
  const metric = async (name: string, labels: string) => {
    const text = await (await svc.auto.call('/metrics', { key: keys.admin })).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it("booking options: the plain path gets a page without them (503); auto takes them from the page's own signed RPC, at the same price in credits", async () => {
    const token = await bookingToken();
    const plain = await post('http', '/v1/serp/metasearch_flights_booking', { booking_token: token });
    expect(plain.status).toBe(503);
    expect(plain.body.detail).toBe('metasearch upstream contract changed: booking page data carries no booking options (callbacks: ds:0,ds:1)');
    expect(plain.charged).toBe('0');

    const before = replay.requests.length;
    const res = await post('auto', '/v1/serp/metasearch_flights_booking', { booking_token: token });
    expect(res.status).toBe(200);
    expect(res.charged).toBe('3');
    expect(res.body.pricing).toMatchObject({ currency: 'USD', egress_mode: 'browser' });
    expect(res.body.booking_options).toHaveLength(3);
    expect(res.body.booking_options[0]).toEqual({
      together: {
        book_with: 'Example Travel',
        airline: false,
        marketed_as: ['B6 16', 'MS 754', 'MS 964'],
        price: 1987,
        booking_request: { url: CLICK, post_data: 'u=ADowPO_ROW1&hl=en-US' },
        booking_link: expect.objectContaining({ method: 'GET' }),
      },
    });
    expect(res.body.booking_options[2]).toMatchObject({
      separate_tickets: true,
      departing: { book_with: 'JetBlue', price: 110 },
      returning: { book_with: 'EgyptAir', price: 1761 },
    });
    expect(res.body.search_metadata.request_url).toContain(BOOKING_RPC_PATH);

    // plain page first, then the page in the browser, its script, its signed RPC; no image or font
    const seen = replay.requests.slice(before);
    expect(seen.map((r) => [r.method, r.path, fromBrowser(r)])).toEqual([
      ['GET', BOOKING_PATH, false],
      ['GET', BOOKING_PATH, true],
      ['GET', PAGE_SCRIPT_PATH, true],
      ['POST', BOOKING_RPC_PATH, true],
    ]);
    expect(signer.valid(seen[3])).toBe(true);
    expect(seen.some((r) => MEDIA_PATHS.includes(r.path))).toBe(false);
    // nothing the page stored reaches another call (the script sends what it stored last time)
    await post('auto', '/v1/serp/metasearch_flights_booking', { booking_token: token });
    expect(replay.requests.filter((r) => r.path === BOOKING_RPC_PATH).map((r) => r.headers['x-previous-booking'])).toEqual(['', '']);

    expect(await metric('hotelrates_browser_calls_total', 'source="metasearch",outcome="ok"')).toBe(2);
    expect(await metric('hotelrates_browser_call_duration_seconds_count', 'source="metasearch",outcome="ok"')).toBe(2);
  });

  it('price calendar: refused plainly (RpcStatus13 over http); auto takes the graph the results page requests itself', async () => {
    const body = { ...ROUND_TRIP, flight_type: 'one_way', return_date: undefined };
    const plain = await post('http', '/v1/serp/metasearch_flights_calendar', body);
    expect([plain.status, plain.body.detail, plain.charged]).toEqual([502, 'RpcStatus13', '0']);

    const before = replay.requests.length;
    const res = await post('auto', '/v1/serp/metasearch_flights_calendar', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.charged).toBe('5');
    expect(res.body.calendar[0]).toEqual({ departure: '2026-01-05', return: '2026-01-12', price: 676, currency: 'GBP' });
    expect(res.body.pricing.egress_mode).toBe('browser');
    const rpc = replay.requests.slice(before).filter((r) => r.path === CALENDAR_RPC_PATH);
    expect(rpc.map((r) => [fromBrowser(r), signer.valid(r)])).toEqual([
      [false, false],
      [true, true],
    ]);
  }, 120_000);

  it('a script challenge: http mode reports it (502); auto passes it once in the browser and keeps only its clearance cookie for the next plain call', async () => {
    const plain = await post('http', '/v1/ota/otaone/rooms', ROOMS);
    expect([plain.status, plain.body.detail, plain.charged]).toEqual([502, 'CloudflareChallenge', '0']);

    const modes: string[] = [];
    for (let call = 0; call < 2; call++) {
      const served = challenge.served;
      const res = await post('auto', '/v1/ota/otaone/rooms', ROOMS);
      expect(res.status).toBe(200);
      expect(res.charged).toBe('8');
      expect(res.body.rooms[0].rate_plans[0].provenance).toMatchObject({ source: 'otaone', source_property_id: '4242001' });
      modes.push(res.body.rooms[0].rate_plans[0].provenance.egress_mode);
      // the first call: the plain request and the browser's first document were challenged; the second sends the kept clearance
      expect(challenge.served - served).toBe(call === 0 ? 2 : 0);
    }
    expect(modes).toEqual(['browser', 'direct']);
    const passed = replay.requests.filter((r) => r.path === PROPERTY && challenge.cleared(r));
    expect(passed).toHaveLength(2);
    // the plain call sent the wall's cookie with the browser's user agent it is bound to, and nothing the page stored besides it
    const plainPass = passed[1];
    expect(fromBrowser(plainPass)).toBe(true);
    expect(
      String(plainPass.headers.cookie)
        .split('; ')
        .map((c) => c.split('=')[0]),
    ).toEqual(['cf_clearance']);
  });

  it('without Chromium the browser path answers 503 naming the dependency and its install line, never an empty answer', async () => {
    const expected =
      'headless browser not installed: no chromium executable at /nonexistent/chromium (CHROMIUM_PATH); install it with `apt-get install chromium` (README, "Browser path")';
    const book = await post('missing', '/v1/serp/metasearch_flights_booking', { booking_token: await bookingToken() });
    expect([book.status, book.body.detail, book.charged]).toEqual([503, expected, '0']);
    // the clearance the auto service kept would answer plainly: the wall refuses it now, so the browser is needed
    challenge.revokeAll();
    const rooms = await post('missing', '/v1/ota/otaone/rooms', ROOMS);
    expect([rooms.status, rooms.body.detail]).toEqual([503, expected]);
  });

  it('MCP: search_flights → get_return_flights → get_booking_options end to end in browser mode, as an agent calls them', async () => {
    const client = new Client({ name: 'browser-path-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.browser.url}/mcp`), { requestInit: { headers: { 'x-api-key': keys.browser } } }));
    const before = replay.requests.length;
    const search = await client.callTool({ name: 'search_flights', arguments: ROUND_TRIP });
    expect(search.isError, JSON.stringify(search.content)).toBeFalsy();
    const outbound = (search.structuredContent as any).flights.find((f: any) => f.best);
    expect(outbound.price).toBe(110);

    const ret = await client.callTool({ name: 'get_return_flights', arguments: { departure_token: outbound.departure_token } });
    expect(ret.isError, JSON.stringify(ret.content)).toBeFalsy();
    const back = (ret.structuredContent as any).flights.find((f: any) => f.best);
    expect(back.booking_token).toEqual(expect.any(String));

    const book = await client.callTool({ name: 'get_booking_options', arguments: { booking_token: back.booking_token } });
    expect(book.isError, JSON.stringify(book.content)).toBeFalsy();
    expect((book._meta as any).credits_charged).toBe(3);
    const options = (book.structuredContent as any).options;
    expect(options.map((o: any) => o.tickets.map((t: any) => t.book_with).join(' + '))).toEqual(['Example Travel', 'Other Agency', 'JetBlue + EgyptAir']);
    // the summary states whole-itinerary totals (the separate tickets added), never one ticket's price
    expect((book.content as { text: string }[])[0].text).toMatch(/^3 booking options for SFO → JFK, whole-itinerary totals 1871–2010 USD; /);
    await client.close();

    // every upstream page of the chain was opened in the browser; the plain client sent nothing
    const seen = replay.requests.slice(before);
    expect(seen.filter((r) => !fromBrowser(r))).toEqual([]);
    expect(seen.filter((r) => r.path === BOOKING_RPC_PATH)).toHaveLength(1);
    // two recorded 4 MB results pages run their scripts in the browser: give a loaded machine time
  }, 120_000);

  it('npm run check:sources reports the path each source needed', async () => {
    const run = await runEntry('src/cli/check-sources.ts', ['--json', '--only', 'otaone'], { ...env, LOG_LEVEL: 'silent' });
    expect(run.code, run.stderr).toBe(0);
    const [otaone] = JSON.parse(run.stdout).sources;
    expect(otaone).toMatchObject({ source: 'otaone', state: 'ok', path: 'browser' });
  }, 120_000);
});
