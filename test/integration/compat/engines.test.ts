import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredSearches } from '../../../src/platform/search-archive.js';
import { ARCHIVE_PURGE_QUEUE } from '../../../src/workers/archive-purge.js';
import { STAYS_SEARCH_HASH } from '../../../src/sources/rentaltwo/operations.js';
import { SEARCHAPI_ENGINES } from '../../../tools/compat-engines.js';
import { fixtureSuite, readFixture, readFixtureJson } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { crownDetail, page, PAGES, withData } from '../../fixtures/hotels-payloads.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2026-03-10');

/**
 * The compatible search API's engine names, parameter forms, errors, envelope and archive, as its
 * clients use them: GET /api/v1/search (api_key in the query), GET and POST /v1/serp/<engine>.
 */
const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
const NONSTOP = 'google-flights/results-nonstop-sfo_jfk_economy.html.zst';
const suite = fixtureSuite('compatible search API: engines, parameters, errors and archive', LYON, NONSTOP, PAGES.tokyo, PAGES.london);

type Json = Record<string, any>;

/** A parameter each engine requires, in that API's name (what a 400 must name). */
const REQUIRED: Record<string, string> = {
  google_hotels: 'q',
  google_hotels_property: 'property_token',
  google_flights: 'departure_id',
  google_flights_calendar: 'departure_id',
  google_flights_location_search: 'q',
  airbnb: 'q',
  airbnb_property_availability_calendar: 'property_id',
  youtube: 'q',
  youtube_video: 'video_id',
  youtube_transcripts: 'video_id',
  youtube_channel: 'channel',
  youtube_channel_videos: 'channel',
  apple_app_store: 'term',
  walmart_search: 'q',
  google_trends: 'q',
  google_jobs: 'q',
  booking: 'q',
  booking_property: 'url',
  google_hotels_price_calendar: 'property_token',
};

const HOTELS = S.text('engine=google_hotels&q=Tokyo&check_in_date=2026-08-11&check_out_date=2026-08-13&adults=2&currency=USD&hl=en&gl=us');

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  let other: string;
  const get = async (path: string, k = key) => {
    const res = await fetch(`${svc.url}${path}${path.includes('?') ? '&' : '?'}api_key=${k}`);
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      charged: res.headers.get('x-credits-charged'),
      headers: Object.fromEntries(res.headers),
      text,
      body: (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null) as Json,
    };
  };

  beforeAll(async () => {
    replay = await startReplayServer([
      { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, body: readFixtureJson(LYON) },
      { path: '/travel/search', match: (r) => 'qs' in r.query, body: withData(page(PAGES.london), crownDetail()) },
      { path: '/travel/search', fixture: PAGES.tokyo, headers: { 'content-type': 'text/html; charset=utf-8' } },
      { path: '/travel/flights/search', reply: () => S.text(readFixture(NONSTOP)) },
    ]);
    svc = await startTestService({
      UPSTREAM_METASEARCH_URL: replay.url,
      UPSTREAM_RENTALTWO_URL: `${replay.url}/rentaltwo`,
      UPSTREAM_RETRIES: '0',
      PUBLIC_BASE_URL: 'https://api.example.test',
    });
    key = (await svc.key()).key;
    other = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('every engine of that API is taken by GET /api/v1/search and GET and POST /v1/serp/<engine>: a missing parameter is a 400 naming it in that API’s terms', async () => {
    expect(SEARCHAPI_ENGINES.map((e) => e.name).sort()).toEqual(Object.keys(REQUIRED).sort());
    for (const [engine, param] of Object.entries(REQUIRED)) {
      for (const res of [
        await get(`/api/v1/search?engine=${engine}`),
        await get(`/v1/serp/${engine}`),
        await svc
          .call(`/v1/serp/${engine}`, { key, body: {} })
          .then(async (r) => ({ status: r.status, charged: r.headers.get('x-credits-charged'), body: (await r.json()) as Json })),
      ]) {
        expect([engine, res.status]).toEqual([engine, 400]);
        expect(res.body.error).toContain(param);
        expect(res.body.detail).toBeDefined();
        expect(res.charged ?? '0').toBe('0');
      }
    }
    const bing = await get(`/api/v1/search?engine=bing`);
    expect(bing.status).toBe(400);
    expect(bing.body).toMatchObject({ detail: [expect.objectContaining({ loc: ['query', 'engine'] })] });
    expect(bing.body.error).toMatch(
      /^Unsupported value bing in engine: bing is an engine of the compatible API that this service has no source for; engines answered here: google_hotels, google_hotels_property, .*booking, booking_property, google_hotels_price_calendar; and ours: rentaltwo, /,
    );
    expect((await get(`/api/v1/search?engine=nope`)).body.error).toContain('unknown engine nope; engines answered here:');
  });

  it('google_hotels: that API’s parameter names and value forms, its envelope and value types, our provenance inside', async () => {
    const res = await get(
      `/api/v1/search?${HOTELS}&sort_by=lowest_price&price_min=50&price_max=900&rating=8&hotel_class=3,4,5&children_ages=5,9&amenities=4,12&property_type=hotel`,
    );
    expect(res.status).toBe(200);
    expect(res.charged).toBe('3');
    const meta = res.body.search_metadata;
    expect(Object.keys(meta).slice(0, 9)).toEqual([
      'id',
      'status',
      'created_at',
      'request_time_taken',
      'parsing_time_taken',
      'total_time_taken',
      'request_url',
      'html_url',
      'json_url',
    ]);
    expect(meta.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(meta.json_url).toBe(`https://api.example.test/api/v1/searches/${meta.id}`);
    expect(meta.html_url).toBe(`https://api.example.test/api/v1/searches/${meta.id}.html`);
    expect(res.body.search_parameters).toEqual({
      engine: 'google_hotels',
      q: 'Tokyo',
      check_in_date: S('2026-08-11'),
      check_out_date: S('2026-08-13'),
      adults: 2,
      currency: 'USD',
      hl: 'en',
      gl: 'us',
      sort_by: 'lowest_price',
      price_min: 50,
      price_max: 900,
      rating: 8,
      hotel_class: '3,4,5',
      children_ages: '5,9',
      amenities: '4,12',
      property_type: 'hotel',
    });
    const sent = replay.requests.filter((r) => r.path === '/travel/search').at(-1)!;
    expect(sent.query).toMatchObject({ q: 'Tokyo', hl: 'en', gl: 'us' });
    expect(res.body.properties.length).toBeGreaterThan(0);
    expect(res.body).not.toHaveProperty('warnings');
  });

  it('a documented parameter that cannot change the answer, or a filter whose effect the caller can do without, is accepted and named in warnings; one that would change what the answer means is a 400, with every other problem of the request in the same 400', async () => {
    // no_cache is honoured (a live fetch), so it is no warning
    const ok = await get(`/api/v1/search?${HOTELS}&no_cache=true&async=false&free_cancellation=false&eco_certified=0`);
    expect(ok.status).toBe(200);
    expect(ok.body.warnings).toEqual([expect.stringMatching(/^async: /)]);
    const filtered = await get(`/api/v1/search?${HOTELS}&free_cancellation=true&brands=33`);
    expect(filtered.status).toBe(200);
    expect([...filtered.body.warnings].sort()).toEqual([
      'brands: not applied: the answer also lists properties the filter would leave out',
      'free_cancellation: not applied: the answer also lists properties the filter would leave out',
    ]);
    const unknownAmenity = await get(`/api/v1/search?${HOTELS}&amenities=35`);
    expect([unknownAmenity.status, unknownAmenity.body.error]).toEqual([400, expect.stringContaining('amenities: code(s) 35')]);
    // every problem in one 400, in that API's parameter names
    const many = await get('/api/v1/search?engine=google_hotels&bounding_box=[1,2,3,4]&check_in_date=2026-13-40&price_min=-5');
    expect(many.status).toBe(400);
    expect(many.body.detail.map((d: Json) => d.loc.join('.')).sort()).toEqual([
      'query.bounding_box',
      'query.check_in_date',
      'query.check_out_date',
      'query.price_min',
      'query.q',
    ]);
    expect(many.body.error.split('; ')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bounding_box: a map area is not searched/),
        'Missing required parameter q: Field required',
        expect.stringMatching(/^Unsupported value -5 in price_min: /),
      ]),
    );
    expect(many.body.error).not.toMatch(/min_price/);
    const bags = await get(
      S.text(
        '/api/v1/search?engine=google_flights&departure_id=SFO&arrival_id=JFK&outbound_date=2026-03-10&flight_type=one_way&checked_bags=1&max_price=300&sort_by=price',
      ),
    );
    expect([bags.status, bags.body.error]).toEqual([400, 'checked_bags: fares are priced without bags; send the search without it']);
    const airbnb = await get(
      S.text(
        '/api/v1/search?engine=airbnb&q=Lyon&airbnb_domain=airbnb.fr&hl=fr&gl=fr&check_in_date=2026-11-06&check_out_date=2026-11-11&adults=2&include_taxes=true&zero_retention=false',
      ),
    );
    expect(airbnb.status).toBe(200);
    expect([...airbnb.body.warnings].sort()).toEqual([expect.stringMatching(/^gl: .*airbnb_domain/), expect.stringMatching(/^hl: .*airbnb_domain/)]);
    expect(airbnb.body.search_parameters).toMatchObject({ engine: 'airbnb', airbnb_domain: 'airbnb.fr', adults: '2', include_taxes: 'true' });
    const badDomain = await get('/api/v1/search?engine=airbnb&q=Lyon&airbnb_domain=example.com');
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.detail[0].loc).toEqual(['query', 'airbnb_domain']);
  });

  it('an answer for another query says so: the page’s request echo names Tokyo where Tokio was asked', async () => {
    const compat = await get(S.text('/api/v1/search?engine=google_hotels&q=Tokio&check_in_date=2026-08-11&check_out_date=2026-08-13'));
    expect(compat.body.search_information).toMatchObject({ corrected_query: 'Tokyo', original_query: 'Tokio' });
    const same = await get(`/api/v1/search?${HOTELS}`);
    expect(same.body.search_information).not.toHaveProperty('corrected_query');
    const ours = await svc.call('/v1/hotels/search', { key, body: { q: 'Tokio', check_in: S('2026-08-11'), nights: 2 } });
    const body = (await ours.json()) as Json;
    expect([body.query, body.query_used]).toEqual(['Tokio', 'Tokyo']);
    const asked = (await (await svc.call('/v1/hotels/search', { key, body: { q: 'Tokyo', check_in: S('2026-08-11'), nights: 2 } })).json()) as Json;
    expect(asked).not.toHaveProperty('query_used');
  });

  it('query strings carry every type: booleans, integers and comma lists reach the operation typed', async () => {
    const cal = await get('/api/v1/search?engine=metasearch_hotels_calendar&property_token=ChkJunk-hotel&rates_include_tax=true&days=2&probe_min_stay=false');
    // the calendar collector is not replayed here: what matters is that the booleans passed validation
    expect(cal.status).not.toBe(400);
    const badBool = await get('/api/v1/search?engine=metasearch_hotels_calendar&property_token=ChkJunk-hotel&rates_include_tax=maybe');
    expect([badBool.status, badBool.body.detail[0].loc]).toEqual([400, ['query', 'rates_include_tax']]);
    const flights = await get(
      S.text(
        '/v1/serp/google_flights?departure_id=SFO&arrival_id=JFK&outbound_date=2026-03-10&flight_type=one_way&adults=2&children=1&stops=any&no_cache=true',
      ),
    );
    expect(flights.status).toBe(200);
    expect(flights.body.search_parameters).toMatchObject({
      engine: 'google_flights',
      adults: '2',
      children: '1',
      infants_in_seat: '0',
      flight_type: 'one_way',
    });
    expect(flights.body).not.toHaveProperty('warnings');
    const post = await svc.call('/v1/serp/google_hotels', {
      key,
      body: { q: 'Tokyo', check_in_date: S('2026-08-11'), check_out_date: S('2026-08-13'), adults: 2, rating: 9, zero_retention: true },
    });
    expect(post.status).toBe(200);
    expect(((await post.json()) as Json).search_parameters).toMatchObject({ adults: 2, rating: 9 });
  });

  it('google_flights with a departure_token answers the next leg; the token carries the search, so repeated search parameters are named in warnings', async () => {
    const first = await get(S.text('/api/v1/search?engine=google_flights&departure_id=SFO&arrival_id=JFK&outbound_date=2026-07-15&return_date=2026-08-15'));
    const token = first.body.best_flights[0].departure_token;
    expect(token).toEqual(expect.any(String));
    const next = await get(`/api/v1/search?engine=google_flights&departure_token=${encodeURIComponent(token)}&departure_id=SFO&currency=USD`);
    expect([next.status, next.body.error]).toEqual([200, undefined]);
    expect(next.body.warnings).toEqual([expect.stringMatching(/^departure_id: the token carries/)]);
    expect(next.body.search_parameters).toMatchObject({ engine: 'google_flights', departure_token: token, currency: 'USD' });
  });

  it('our alias engines answer over GET too, in our shape, archived alike', async () => {
    const res = await get(S.text('/v1/serp/metasearch_hotels?q=Tokyo&check_in_date=2026-08-11&check_out_date=2026-08-13&adults=2'));
    expect(res.status).toBe(200);
    expect(res.body.search_parameters).toMatchObject({ engine: 'metasearch_hotels', adults: '2' });
    expect(res.body.search_metadata.json_url).toMatch(/\/api\/v1\/searches\/req_/);
    const post = await svc.call('/v1/serp/metasearch_hotels', {
      key,
      body: { q: 'Tokyo', check_in_date: S('2026-08-11'), check_out_date: S('2026-08-13'), no_cache: true },
    });
    const body = (await post.json()) as Json;
    expect(body).not.toHaveProperty('warnings');
    expect((await get(new URL(body.search_metadata.json_url).pathname)).body).toEqual(body);
  });

  it('errors of the family: 401 for a bad key with {"error"}, 404 for another key’s search', async () => {
    const bad = await fetch(`${svc.url}/api/v1/search?${HOTELS}&api_key=sk_${'x'.repeat(32)}`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'missing or invalid API key', detail: 'missing or invalid API key' });
    const none = await fetch(`${svc.url}/v1/serp/google_hotels?${HOTELS}`);
    expect(none.status).toBe(401);
  });

  it('the archive: json_url returns the stored answer to its own key only, free; html_url the raw upstream page; zero_retention stores nothing; expired searches are gone', async () => {
    const search = await get(`/api/v1/search?${HOTELS}`);
    const id = search.body.search_metadata.id;
    const stored = await get(`/api/v1/searches/${id}`);
    expect([stored.status, stored.charged]).toEqual([200, null]);
    expect(stored.text).toBe(search.text);
    const html = await get(`/api/v1/searches/${id}.html`);
    expect(html.status).toBe(200);
    expect(html.type).toMatch(/^text\/html/);
    expect(html.text).toBe(page(PAGES.tokyo));
    // the upstream's page (its scripts included) is served inert: a sandboxed download, never a page of this origin
    expect(html.headers).toMatchObject({
      'content-security-policy': expect.stringMatching(/^sandbox; default-src 'none'(;|$)/),
      'x-content-type-options': 'nosniff',
      'content-disposition': `attachment; filename="${id}.html"`,
    });

    for (const path of [`/api/v1/searches/${id}`, `/api/v1/searches/${id}.html`]) {
      const foreign = await get(path, other);
      expect([foreign.status, foreign.body]).toEqual([404, { error: 'search not found', detail: 'search not found' }]);
    }
    expect((await get('/api/v1/searches/req_nope')).status).toBe(404);

    const secret = await get(`/api/v1/search?${HOTELS}&zero_retention=true`);
    expect(secret.status).toBe(200);
    expect(secret.body.search_metadata).not.toHaveProperty('json_url');
    expect(secret.body.search_metadata).not.toHaveProperty('html_url');
    expect(secret.body.search_parameters.zero_retention).toBe('true');
    expect((await get(`/api/v1/searches/${secret.body.search_metadata.id}`)).status).toBe(404);
    const [row] = await svc.deps.sql`SELECT count(*)::int AS n FROM search_archive WHERE id = ${secret.body.search_metadata.id}`;
    expect(row.n).toBe(0);

    const [owned] = await svc.deps.sql`SELECT account_id, key_id FROM search_archive WHERE id = ${id}`;
    expect(owned.account_id).toEqual(expect.stringMatching(/^acct_/));
    await svc.deps.sql`UPDATE search_archive SET expires_at = now() - interval '1 second' WHERE id = ${id}`;
    expect((await get(`/api/v1/searches/${id}`)).status).toBe(404);
    expect(await purgeExpiredSearches(svc.deps.sql)).toBe(1);
    const schedules = await svc.deps.queue.boss().getSchedules();
    expect(schedules.map((s) => s.name)).toContain(ARCHIVE_PURGE_QUEUE);
  });
});
