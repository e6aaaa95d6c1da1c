/**
 * Every tool of the registry, run through its route on recorded payloads (the replay server, real
 * HTTP, the real service on its own PostgreSQL database), and its answer parsed with that tool's
 * output schema: the zod schema and the published JSON Schema, which refuses keys the schema does
 * not name. A tool without a case here must be listed in SKIPPED with the reason; a new tool with
 * neither fails the coverage check.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../tools/index.js';
import type { Tool } from '../../../src/core/define-tool.js';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { decodeTfs } from '../../../src/sources/metasearch/flights/tfs.js';
import { SECONDARY_DATA_PATH } from '../../../src/sources/otafour/fetch.js';
import { SUGGEST_PATH } from '../../../src/sources/otafour/suggest.js';
import { CALENDAR_HASH, PDP_SECTIONS_HASH, STAYS_SEARCH_HASH } from '../../../src/sources/rentaltwo/operations.js';
import { fixtureSuite, readFixture, readFixtureJson } from '../../helpers/fixtures.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import { waitFor } from '../../helpers/wait.js';
import type { RecordedRequest, ReplayRoute } from '../../replay/server.js';
import { CALENDAR_GRAPH_RETURN, LOCATION_LONDON } from '../../fixtures/flights-rpc-payloads.js';
import { cassette } from '../../helpers/recorded.js';
import { BOOKING_PAGE } from '../../fixtures/flights-payloads.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../../fixtures/hotels-payloads.js';
import { REPLAY_URL, startHarness, type Harness } from '../../helpers/ota-harness.js';
import {
  asRental,
  BEDS24_AVAILABILITY,
  futureCalendar,
  HOTEL_SITE_BEDS24,
  MCP_INIT,
  mcpToolEvent,
  OTAFOUR_SECONDARY_DATA,
  OTAONE_PROPERTY_PAGE,
  OTATHREE_REVIEWS,
  pdpQuote,
  RENTALONE_LISTING_PAGE,
  TYPEAHEAD,
} from '../../fixtures/ota-payloads.js';
import { OTAFOUR_SUGGEST } from '../../fixtures/otafour-payloads.js';
import { nextDataPage, newpipeRoute, watchPage } from '../../helpers/webdata-replay.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-04');

/** Tools this test cannot run here, and why (shown in the skipped test's title). */
const SKIPPED: Record<string, string> = {
  get_archived_search_page:
    'answers the archived raw upstream page with its own content type (HTML), not JSON; test/integration/compat/engines.test.ts checks it byte for byte',
  redeliver_watch_digest:
    'needs a digest of a day past with a callback_url and webhooks on; test/integration/watches/health.test.ts checks its answer against the output schema',
  redeliver_watch_event:
    'needs an event of a watch with a callback_url and webhooks on; test/integration/watches/redelivery.test.ts checks its answer against the output schema',
  ...Object.fromEntries(
    ['create_compset', 'list_compsets', 'get_compset', 'update_compset', 'delete_compset', 'create_rate_shop', 'list_rate_shops', 'get_rate_shop'].map((n) => [
      n,
      'runs a rate shop through the batch workers over the replayed calendar; test/integration/compsets/rate-shop.test.ts checks each answer against the output schema',
    ]),
  ),
  ...Object.fromEntries(
    ['run_parity_range', 'list_parity_ranges', 'get_parity_range'].map((n) => [
      n,
      'runs comparisons through the batch workers over the replayed engine and agencies; test/integration/compsets/parity-range.test.ts checks each answer against the output schema',
    ]),
  ),
  get_rate_history:
    'needs stored rates changed between calendar calls; test/integration/hotels/rate-history.test.ts checks its answers against the output schema',
  get_calendar_job_artifact: 'answers the gzip archive (application/gzip), not JSON; test/integration/jobs/jobs.test.ts checks it against artifact_sha256',
  ...(existsSync('/usr/bin/chromium') ? {} : { search_job_cards: 'needs Debian chromium at /usr/bin/chromium' }),
};

const F = {
  london: PAGES.london,
  offers: 'expedia/propertyOffers-9209612-2023.json',
  nonstop: 'google-flights/results-nonstop-sfo_jfk_economy.html.zst',
  layover: 'google-flights/results-layover-mad_nrt.html.zst',
  cards: 'booking/search-results-cards-belgrade-2026-11-14.html',
  hostel: 'hostelworld/availability-property-93919-2026-06.json',
  hostelCity: 'hostelworld/city-properties-amsterdam-2026-06.json',
  hostelPlaces: 'hostelworld/autocomplete-amsterdam-2026-06.json',
  trivago: 'trivago/search-kotor-2026-10-22.json',
  lyon: 'airbnb/StaysSearch-excerpt-lyon-2026-09.json',
  job: 'linkedin/job-view-guest-page-4411867124.html',
  jobs: 'linkedin/jobs-guest-search-seeMoreJobPostings-quality-manager.html',
  greenhouse: 'ats/greenhouse-board-jobs-content-amplitude.json',
  channel: 'youtube/browse-channel-videos-tab-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json',
  watch: 'youtube/watch-page-GJLlxj_dtq8.html',
  player: 'youtube/player-GJLlxj_dtq8-9-caption-tracks.json',
  videoSearch: 'youtube/search-query-test-videos-filter.newpipe-mock.json',
  lookup: 'apps/itunes-lookup-macsoftware-slack-803453959.json',
  bear: 'apps/itunes-search-macsoftware-bear.json',
  products: 'walmart/product-pages-nextdata-product-and-reviews.scrapfly.json',
  retailSearch: 'walmart/search-nextdata-itemstacks-items.scrapfly.json',
  trends: 'google_trends/cassette-interest-over-time-pizza-bagel-daily.vcr.yaml',
};

const CROWN = LONDON_TOKENS[0];
const json = { 'content-type': 'application/json' };
const payload = (name: string) => readFileSync(new URL(`../../fixtures/webdata/${name}`, import.meta.url), 'utf8');
const JOB_CARDS = readFileSync(new URL('../../fixtures/webdata/job-cards-page.html', import.meta.url), 'utf8');
const under = (prefix: string, routes: ReplayRoute[]): ReplayRoute[] => routes.map((r) => ({ ...r, path: `/${prefix}${r.path}` }));
const pinsOutbound = (r: RecordedRequest) => !!r.query.tfs && !!decodeTfs(r.query.tfs).legs[0]?.selectedFlights?.length;
const rpc = (method: string) => (r: { body: string }) => r.body.includes(`"method":"${method}"`);
const quoteOn = (checkIn: string) => (r: RecordedRequest) => JSON.parse(r.query.variables ?? '{}').checkIn === checkIn;

function routes(): ReplayRoute[] {
  const london = page(F.london);
  const offers = S.json(readFixtureJson(F.offers));
  const products = readFixtureJson<any[]>(F.products);
  const [warmup, explore, timeline] = cassette(F.trends);
  const today = todayUtc();
  return [
    ...under('metasearch', [
      { path: '/travel/search', query: { qs: encodePropertyQs(CROWN) }, body: withData(london, crownDetail()) },
      { path: '/travel/search', body: london },
      calendarRoute((date, los) => (100 + Number(date.slice(8))) * los),
      { path: '/travel/flights/search', match: pinsOutbound, reply: () => S.text(readFixture(F.layover)) },
      { path: '/travel/flights/search', reply: () => S.text(readFixture(F.nonstop)) },
      { path: '/travel/flights/booking', body: BOOKING_PAGE },
      { method: 'POST', path: '/_/FlightsFrontendUi/data/batchexecute', query: { rpcids: 'H028ib' }, body: LOCATION_LONDON },
      { method: 'POST', path: '/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetCalendarGraph', body: CALENDAR_GRAPH_RETURN },
      { path: '/search', query: { ibp: 'htl;jobs' }, body: JOB_CARDS },
    ]),
    { path: '/otaone/hotel/rs/example-centre.en-gb.html', body: OTAONE_PROPERTY_PAGE },
    { path: '/otaone/searchresults.en-gb.html', fixture: F.cards },
    { method: 'POST', path: '/otatwo/graphql', body: offers },
    { path: '/otatwo/api/v4/typeahead/golden', body: TYPEAHEAD },
    { method: 'POST', path: '/otathree/graphql', match: (r) => r.body.includes('PropertyFilteredReviewsQuery'), body: OTATHREE_REVIEWS },
    { method: 'POST', path: '/otathree/graphql', body: [offers] },
    { path: '/otathree/api/v4/typeahead/golden', body: TYPEAHEAD },
    { path: `/otafour${SECONDARY_DATA_PATH}`, body: OTAFOUR_SECONDARY_DATA },
    { path: `/otafour${SUGGEST_PATH}`, body: OTAFOUR_SUGGEST },
    { path: '/rentalone/321456ha', body: RENTALONE_LISTING_PAGE },
    { method: 'POST', path: '/rentalone/graphql', body: [asRental(offers)] },
    { path: '/rentalone/api/v4/typeahead/golden', body: TYPEAHEAD },
    { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, fixture: F.lyon },
    { path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`, body: futureCalendar(today) },
    { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, match: quoteOn(addDays(today, 10)), body: pdpQuote(1, '$150', '$150') },
    { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, body: pdpQuote(1, '$120', '$120') },
    { method: 'POST', path: '/travelreview/mcp', match: rpc('initialize'), headers: { 'mcp-session-id': 'sess-1' }, body: MCP_INIT },
    { method: 'POST', path: '/travelreview/mcp', match: rpc('notifications/initialized'), status: 202, body: '' },
    {
      method: 'POST',
      path: '/travelreview/mcp',
      match: rpc('tools/call'),
      headers: { 'content-type': 'text/event-stream' },
      body: mcpToolEvent(S.json(readFixtureJson(F.trivago))),
    },
    { path: '/hostel/legacy-hwapi-service/2.2/properties/93919/availability/', body: S.json(readFixtureJson(F.hostel)) },
    { path: '/hostel/autocomplete-service/v1/autocomplete/web', fixture: F.hostelPlaces },
    { path: '/hostel/legacy-hwapi-service/2.2/cities/15/properties/', fixture: F.hostelCity },
    { path: '/site/inn', body: HOTEL_SITE_BEDS24 },
    {
      method: 'POST',
      path: '/engines/beds24/json/getAvailabilities',
      reply: (req) => {
        const { checkIn, checkOut } = JSON.parse(req.body);
        return { ...BEDS24_AVAILABILITY, checkIn, checkOut, lastNight: undefined };
      },
    },
    { path: '/network/jobs/view/4411867124', fixture: F.job },
    { path: '/network/jobs-guest/jobs/api/seeMoreJobPostings/search', fixture: F.jobs },
    { path: '/gh/v1/boards/amplitude/jobs', fixture: F.greenhouse },
    { path: '/gh/v1/boards/amplitude', body: { name: 'Amplitude', content: '<p>Build the best product analytics.</p>' } },
    { path: '/site/careers', body: '<html><body><a href="https://boards.greenhouse.io/amplitude">Open roles</a></body></html>' },
    ...under('video', [
      newpipeRoute(F.channel, '/youtubei/v1/browse', (b) => b.browseId === 'UCTwECeGqMZee77BjdoYtI2Q'),
      newpipeRoute(F.videoSearch, '/youtubei/v1/search', (b) => b.query === 'test'),
      { path: '/watch', query: { v: 'GJLlxj_dtq8' }, fixture: F.watch },
      { path: '/watch', query: { v: 'dsMFmonKDD4' }, body: watchPage('youtube/player-dsMFmonKDD4-captions-disabled.json') },
      { method: 'POST', path: '/youtubei/v1/player', fixture: F.player },
      { path: '/api/timedtext', body: payload('timedtext-asr.json3.json'), headers: json },
    ]),
    ...under('apps', [
      { path: '/lookup', fixture: F.lookup },
      { path: '/us/customer-reviews/id803453959', body: payload('apps-customer-reviews.json'), headers: json },
      { path: '/WebObjects/MZStore.woa/wa/userReviewsRow', body: payload('apps-user-reviews-row.json'), headers: json },
      { path: '/search', fixture: F.bear },
    ]),
    ...under('retail', [
      { path: '/reviews/product/1736740710', body: nextDataPage({ data: { reviews: products[0].reviews } }) },
      { path: '/search', body: nextDataPage({ searchResult: { itemStacks: [{ items: readFixtureJson(F.retailSearch) }] } }) },
    ]),
    ...under('trends', [
      { path: '/trends/explore', status: warmup.status, body: warmup.body },
      { method: 'POST', path: '/trends/api/explore', body: explore.body, headers: json },
      { path: '/trends/api/widgetdata/multiline', body: timeline.body, headers: json },
    ]),
  ];
}

type Answer = { status: number; body: any };
interface Case {
  /** The call's expected status (the job submission answers 202). */
  status?: number;
  run(h: Harness, state: Record<string, any>): Promise<Answer>;
}

const post = (path: string, body: unknown) => (h: Harness) => h.post(path, body);
const get = (path: string) => (h: Harness) => h.get(path);
const hotelStay = { token: CROWN, check_in: S('2026-04-15'), nights: 7, market: 'GB' };
const groupStay = { property_id: '9209612', check_in: S('2023-06-04'), nights: 10 };
const roundTrip = { departure_id: 'SFO', arrival_id: 'JFK', outbound_date: S('2026-07-15'), return_date: S('2026-08-15'), currency: 'USD', hl: 'en', gl: 'us' };
const calendarItem = { token: 'ChkIq9DtnN2Sx7kBGg0vZy8xMWJ3cGh0c2JtEAE', start: '2027-03-01', days: 3, market: 'FR' };

/** A PATCH or DELETE answer as the harness's post and get give theirs. */
const wrapJson = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

/** Cases run in this order (not the registry's): later ones read what earlier ones left in `state`. */
const CASES: Record<string, Case> = {
  get_billing_plans: { run: get('/v1/billing/plans') },
  list_markets: { run: get('/v1/markets') },
  resolve_hotel: { run: post('/v1/search', { name: 'The Crown Battersea', city: 'London', market: 'GB', limit: 1 }) },
  search_hotels: { run: post('/v1/hotels/search', { q: 'London', check_in: S('2026-04-15'), nights: 7, currency: 'GBP', gl: 'gb' }) },
  serp_metasearch_hotels: {
    run: post('/v1/serp/metasearch_hotels', { q: 'London', check_in_date: S('2026-04-15'), check_out_date: S('2026-04-22'), currency: 'GBP', gl: 'gb' }),
  },
  get_hotel_details: { run: post('/v1/hotels/property', { property_token: CROWN, currency: 'GBP', gl: 'gb' }) },
  serp_metasearch_hotels_property: {
    run: post('/v1/serp/metasearch_hotels_property', {
      property_token: CROWN,
      check_in_date: S('2026-04-15'),
      check_out_date: S('2026-04-22'),
      currency: 'GBP',
      gl: 'gb',
    }),
  },
  get_hotel_offers: { run: post('/v1/offers', { ...hotelStay, require_sources: [] }) },
  get_hotel_rooms: { run: post('/v1/rooms', hotelStay) },
  get_stay_price: { run: post('/v1/stay', { token: CROWN, check_in: S('2026-04-15'), check_out: S('2026-04-22'), currency: 'GBP' }) },
  get_hotel_calendar: { run: post('/v1/calendar', calendarItem) },
  serp_metasearch_hotels_calendar: {
    run: post('/v1/serp/metasearch_hotels_calendar', { property_token: calendarItem.token, start: calendarItem.start, days: 2, probe_min_stay: false }),
  },
  get_stored_rates: { run: get(`/v1/rates?token=${calendarItem.token}&market=FR`) },
  get_storage_status: { run: get('/v1/storage') },
  create_calendar_job: {
    status: 202,
    async run(h, state) {
      const res = await h.svc.call('/v1/jobs', { key: h.key, body: { items: [calendarItem] }, headers: { 'idempotency-key': `registry-${Date.now()}` } });
      const body = (await res.json()) as any;
      state.job = body.job_id;
      return { status: res.status, body };
    },
  },
  get_calendar_job: {
    async run(h, state) {
      return waitFor(
        async () => {
          const r = await h.get(`/v1/jobs/${state.job}?include_results=true`);
          return r.body.finished_at ? r : null;
        },
        { what: 'the calendar job to finish' },
      );
    },
  },
  search_flights: {
    async run(h, state) {
      const r = await h.post('/v1/serp/metasearch_flights', roundTrip);
      state.departure = r.body.best_flights?.[0]?.departure_token;
      return r;
    },
  },
  get_return_flights: {
    async run(h, state) {
      const r = await h.post('/v1/serp/metasearch_flights_return', { departure_token: state.departure });
      state.booking = r.body.best_flights?.[0]?.booking_token;
      return r;
    },
  },
  get_booking_options: { run: (h, state) => h.post('/v1/serp/metasearch_flights_booking', { booking_token: state.booking }) },
  search_flight_locations: { run: post('/v1/serp/metasearch_flights_location_search', { q: 'london', hl: 'en' }) },
  get_flight_calendar: {
    run: post('/v1/serp/metasearch_flights_calendar', { ...roundTrip, return_date: S('2026-07-22'), outbound_date_end: S('2026-08-31') }),
  },
  get_otaone_rooms: { run: post('/v1/ota/otaone/rooms', { pagename: 'example-centre', country: 'rs', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' }) },
  search_otaone: { run: post('/v1/ota/otaone/search', { query: 'Belgrade', check_in: S('2026-11-14'), nights: 2, currency: 'EUR' }) },
  get_otatwo_rate: { run: post('/v1/ota/otatwo', groupStay) },
  get_otatwo_rooms: { run: post('/v1/ota/otatwo/rooms', groupStay) },
  search_otatwo: { run: post('/v1/ota/otatwo/search', { query: 'golden' }) },
  get_otathree_stay: { run: post('/v1/ota/otathree', { ...groupStay, adults: 2 }) },
  get_otathree_reviews: { run: post('/v1/ota/otathree/reviews', { property_id: '9209612', size: 2 }) },
  search_otathree: { run: post('/v1/ota/otathree/search', { query: 'golden' }) },
  get_otafour_rates: { run: post('/v1/ota/otafour', { property_id: '2454174', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' }) },
  search_otafour: { run: post('/v1/ota/otafour/search', { query: 'riverside', limit: 5 }) },
  get_rental_quote: { run: post('/v1/ota/rentalone', { listing_id: '321456ha', check_in: S('2023-06-04'), nights: 10 }) },
  search_rentalone: { run: post('/v1/ota/rentalone/search', { query: 'golden' }) },
  search_travelreview: { run: post('/v1/ota/travelreview/search', { query: 'Kotor', check_in: S('2026-10-22'), nights: 1, currency: 'EUR' }) },
  get_hostel_rates: { run: post('/v1/ota/hostel', { property_id: '93919', check_in: S('2026-06-20'), nights: 3, guests: 1 }) },
  search_hostels: { run: post('/v1/ota/hostel/search', { query: 'amsterdam', check_in: S('2026-06-20'), nights: 3 }) },
  list_ota_sources: { run: get('/v1/ota/sources') },
  search_rentals: {
    run: post('/v1/serp/rentaltwo', {
      q: 'Lyon',
      check_in_date: S('2026-11-06'),
      check_out_date: S('2026-11-11'),
      adults: 2,
      currency: 'USD',
      include_taxes: true,
    }),
  },
  rentaltwo_property_availability_calendar: { run: post('/v1/serp/rentaltwo_property_availability_calendar', { property_id: '38817969', months: 1 }) },
  get_rental_calendar: {
    run: post('/v1/rentaltwo/calendar', { property_id: '38817969', months: 1, price_nights: 'all', max_price_quotes: 3, currency: 'USD' }),
  },
  get_official_rate: { run: (h) => h.post('/v1/official', { website: `${h.replay.url}/site/inn`, check_in: '2027-03-10', nights: 2, adults: 2 }) },
  list_official_engines: { run: get('/v1/official/engines') },
  create_watch: {
    status: 201,
    async run(h, state) {
      const r = await h.post('/v1/watches', {
        target: { operation: 'calendar', ...calendarItem },
        rule: { type: 'below', price: 1_000_000 },
        name: 'registry',
      });
      state.watch = r.body.id;
      return r;
    },
  },
  get_watch: {
    async run(h, state) {
      return waitFor(
        async () => {
          const r = await h.get(`/v1/watches/${state.watch}`);
          return r.body.checks_total ? r : null;
        },
        { what: 'the first check of the watch' },
      );
    },
  },
  list_watches: { run: get('/v1/watches') },
  update_watch: {
    run: async (h, state) =>
      wrapJson(await h.svc.call(`/v1/watches/${state.watch}`, { key: h.key, method: 'PATCH', body: { every_hours: 12, name: 'registry, twice a day' } })),
  },
  check_watch: { run: async (h, state) => h.post(`/v1/watches/${state.watch}/check`, {}) },
  list_watch_events: { run: async (h, state) => h.get(`/v1/watches/${state.watch}/events`) },
  list_watch_checks: { run: async (h, state) => h.get(`/v1/watches/${state.watch}/checks`) },
  list_watch_digests: { run: get('/v1/digests') },
  delete_watch: { run: async (h, state) => wrapJson(await h.svc.call(`/v1/watches/${state.watch}`, { key: h.key, method: 'DELETE' })) },
  compare_hotel_prices: {
    run: (h) =>
      h.post('/v1/ota/compare', {
        check_in: groupStay.check_in,
        nights: groupStay.nights,
        adults: 2,
        currency: 'USD',
        sources: {
          official: { website: `${h.replay.url}/site/inn` },
          otatwo: { property_id: '9209612' },
          otathree: { property_id: '9209612' },
          otafour: { property_id: '2454174' },
          rentalone: { property_id: '9209612' },
        },
      }),
  },
  get_network_job: { run: post('/v1/network/job', { job_id: '4411867124' }) },
  search_network_jobs: { run: post('/v1/network/jobs', { keywords: 'quality manager' }) },
  get_careers_jobs: { run: post('/v1/careers/jobs', { url: 'https://boards.greenhouse.io/amplitude' }) },
  detect_careers_board: { run: (h) => h.post('/v1/careers/detect', { url: `${h.replay.url}/site/careers` }) },
  get_video_channel: { run: post('/v1/video/channel', { channel: 'https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q' }) },
  get_video: { run: post('/v1/video/video', { video_id: 'dsMFmonKDD4' }) },
  get_video_transcript: { run: post('/v1/video/transcript', { video_id: 'GJLlxj_dtq8' }) },
  search_videos: { run: post('/v1/video/search', { q: 'test' }) },
  get_app: { run: post('/v1/apps/app', { app_id: 'id803453959' }) },
  get_app_reviews: { run: post('/v1/apps/reviews', { app_id: '803453959' }) },
  search_apps: { run: post('/v1/apps/search', { term: 'bear', limit: 50 }) },
  get_retail_reviews: { run: post('/v1/retail/reviews', { item_id: '1736740710' }) },
  search_retail: { run: post('/v1/retail/search', { q: 'laptop' }) },
  get_trends_interest: { run: post('/v1/trends/interest', { keyword: 'pizza', time_range: '2021-01-01 2021-01-05' }) },
  search_job_cards: { run: post('/v1/jobs/search', { q: 'barista' }) },
  compatible_search: {
    run: get(S.text('/api/v1/search?engine=metasearch_hotels&q=London&check_in_date=2026-04-15&check_out_date=2026-04-22&currency=GBP&gl=gb')),
  },
  compatible_serp_get: {
    run: get(S.text('/v1/serp/google_hotels?q=London&check_in_date=2026-04-15&check_out_date=2026-04-22&currency=GBP&gl=gb&adults=2&no_cache=true')),
  },
  compatible_serp_post: {
    async run(h, state) {
      const res = await h.post('/v1/serp/google_flights', { ...roundTrip, adults: 1 });
      state.searchId = res.body?.search_metadata?.id;
      return res;
    },
  },
  get_archived_search: { run: (h, state) => h.get(`/api/v1/searches/${state.searchId}`) },
  // account and status reads last: they then show the metered calls above
  get_sources_status: { run: get('/v1/sources/status') },
  get_credit_balance: { run: get('/v1/billing') },
  get_compatible_account: { run: get('/api/v1/me') },
  get_credit_ledger: { run: get('/v1/billing/ledger?limit=5') },
  get_usage: { run: get('/v1/usage?period=24h') },
  get_request: {
    async run(h) {
      const res = await h.svc.call('/v1/markets', { key: h.key });
      return h.get(`/v1/requests/${res.headers.get('x-request-id')}`);
    },
  },
};

const byName = new Map(TOOLS.map((t) => [t.name, t]));

describe('the registry covers every tool', () => {
  it('each tool has a recorded-payload case below or a listed reason to skip', () => {
    const missing = TOOLS.filter((t) => !(t.name in CASES) && !(t.name in SKIPPED)).map((t) => t.name);
    expect(missing, 'tools with neither a case nor a skip reason').toEqual([]);
    expect(
      Object.keys(CASES).filter((n) => !byName.has(n)),
      'cases naming no tool',
    ).toEqual([]);
  });
});

const suite = fixtureSuite('every tool answers inside its output schema (recorded payloads, replay server, real database)', ...Object.values(F));
describe(suite.title, () => {
  let h: Harness;
  const state: Record<string, any> = {};
  beforeAll(async () => {
    const ats = { 'boards-api.greenhouse.io': `${REPLAY_URL}/gh` };
    h = await startHarness(routes(), {
      UPSTREAM_METASEARCH_URL: `${REPLAY_URL}/metasearch`,
      UPSTREAM_NETWORK_URL: `${REPLAY_URL}/network`,
      UPSTREAM_VIDEO_URL: `${REPLAY_URL}/video`,
      UPSTREAM_APPS_URL: `${REPLAY_URL}/apps`,
      UPSTREAM_RETAIL_URL: `${REPLAY_URL}/retail`,
      UPSTREAM_TRENDS_URL: `${REPLAY_URL}/trends`,
      ATS_HOST_OVERRIDES: JSON.stringify(ats),
    });
  });
  afterAll(() => h?.close());

  const answers = new Map<string, unknown>();
  for (const [name, c] of Object.entries(CASES)) {
    const tool = byName.get(name) as Tool;
    const skip = SKIPPED[name];
    it.skipIf(!tool || skip !== undefined)(`${name} (${tool?.method} ${tool?.path})${skip ? ` [SKIPPED: ${skip}]` : ''}`, async () => {
      const { status, body } = await c.run(h, state);
      expect(status, JSON.stringify(body).slice(0, 300)).toBe(c.status ?? 200);
      assertOutputConforms(tool, body);
      answers.set(name, body);
    });
  }

  it('the check catches drift: a key the schema does not name, a wrong type, a missing field, a malformed provenance', () => {
    const tool = byName.get('get_otafour_rates') as Tool;
    const body = answers.get(tool.name) as any;
    expect(() => assertOutputConforms(tool, body)).not.toThrow();
    const drift = (change: (b: any) => void) => () => {
      const copy = structuredClone(body);
      change(copy);
      assertOutputConforms(tool, copy);
    };
    expect(drift((b) => (b.property.rooms[0].offers[0].price_was = 1))).toThrow(/price_was: not in the output schema/);
    expect(drift((b) => (b.meta.nights = '2'))).toThrow(/meta\.nights/);
    expect(drift((b) => delete b.property.currency_display)).toThrow(/currency_display/);
    expect(drift((b) => (b.property.provenance.observation_id = 'obs-1'))).toThrow(/observation_id/);
  });
});
