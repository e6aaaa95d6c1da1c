/**
 * One call of each of the 18 MCP tools against one replay server that answers them all from the
 * recorded payloads the family tests use, so that a test can drive every tool through one door
 * and compare with another. Later calls take tokens from earlier results, as an agent would.
 */
import { addDays, todayUtc } from '../../src/domain/dates.js';
import { encodePropertyQs } from '../../src/sources/metasearch/hotels/requests.js';
import { CALENDAR_HASH, PDP_SECTIONS_HASH, STAYS_SEARCH_HASH } from '../../src/sources/rentaltwo/operations.js';
import { ALIASES, hostEnvName } from '../../src/config/hosts.js';
import { decodeTfs } from '../../src/sources/metasearch/flights/tfs.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../fixtures/hotels-payloads.js';
import { BOOKING_PAGE } from '../fixtures/flights-payloads.js';
import { asRental, futureCalendar, HOTEL_SITE_OTHER_ENGINE, pdpQuote } from '../fixtures/ota-payloads.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../replay/server.js';
import { CALENDAR_GRAPH_RETURN, LOCATION_LONDON } from '../fixtures/flights-rpc-payloads.js';
import { calendarRoute } from './calendar-replay.js';
import { readFixture, readFixtureJson } from './fixtures.js';
import { shiftFrom } from './dates.js';

export const TOOL_CALL_FIXTURES = [
  PAGES.london,
  PAGES.paris,
  'google-flights/results-nonstop-sfo_jfk_economy.html.zst',
  'google-flights/results-layover-mad_nrt.html.zst',
  'expedia/propertyOffers-9209612-2023.json',
  'airbnb/StaysSearch-excerpt-lyon-2026-09.json',
  'airbnb/PdpAvailabilityCalendar-excerpt-2026-09.json',
];
const [NONSTOP, LAYOVER, OFFERS, LYON, RENTAL_CALENDAR] = TOOL_CALL_FIXTURES.slice(2);

/** A tool's arguments, possibly read from the structured results of the calls before it. */
export interface ToolCall {
  name: string;
  args: (earlier: Record<string, any>) => Record<string, unknown>;
  /** Arguments added for the tool's largest answer (its maximum settings), where it has any. */
  max?: Record<string, unknown>;
}

const CROWN = LONDON_TOKENS[0];
/**
 * The recorded stays and flights moved ahead by whole weeks (past dates are refused): the hotel
 * stay of the London pages, the flights, and the travel group's recorded stay (its reply states
 * the stay, so the replay serves it moved the same way).
 */
const HOTEL_DATES = shiftFrom('2026-04-15');
const FLIGHT_DATES = shiftFrom('2026-07-15');
const GROUP_DATES = shiftFrom('2023-06-04');
const STAY = { property_token: CROWN, check_in: HOTEL_DATES('2026-04-15'), nights: 7, market: 'GB' };
const ROUND_TRIP = {
  departure_id: 'SFO',
  arrival_id: 'JFK',
  outbound_date: FLIGHT_DATES('2026-07-15'),
  return_date: FLIGHT_DATES('2026-08-15'),
  currency: 'USD',
  hl: 'en',
  gl: 'us',
};

export const TOOL_CALLS: ToolCall[] = [
  { name: 'get_credit_balance', args: () => ({}) },
  { name: 'resolve_hotel', args: () => ({ name: 'The Crown Battersea', city: 'London', limit: 3, verify: false }), max: { limit: 10 } },
  {
    name: 'search_hotels',
    args: () => ({ q: 'London', check_in: HOTEL_DATES('2026-04-15'), nights: 7, currency: 'GBP', gl: 'gb' }),
    max: { images_per_property: 3, pages: 2 },
  },
  { name: 'get_hotel_details', args: () => ({ property_token: CROWN, currency: 'GBP', gl: 'gb' }) },
  { name: 'get_hotel_offers', args: () => ({ ...STAY, require_sources: [] }), max: { include_metasearch: true } },
  { name: 'get_hotel_rooms', args: () => STAY },
  { name: 'get_stay_price', args: () => STAY },
  {
    name: 'get_hotel_calendar',
    args: () => ({ property_token: 'ChkIq9DtnN2Sx7kBGg0vZy8xMWJ3cGh0c2JtEAE', start: '2027-03-01', market: 'GB' }),
    max: { days: 330, nights: 'list' },
  },
  // the site links a booking engine this service detects but does not quote: its 422 is the tool's real answer
  { name: 'get_official_rate', args: () => ({ website: '{{replay}}/site/other', check_in: '2027-03-10', nights: 2 }) },
  {
    name: 'compare_hotel_prices',
    args: () => ({ check_in: GROUP_DATES('2023-06-04'), nights: 10, sources: { otathree: { property_id: '9209612' }, rentalone: { property_id: '9209612' } } }),
  },
  { name: 'search_flights', args: () => ({ ...ROUND_TRIP, adults: 2 }), max: { max_flights: 20 } },
  {
    name: 'get_return_flights',
    args: (e) => ({ departure_token: e.search_flights.flights.find((f: { best?: true }) => f.best).departure_token }),
    max: { max_flights: 20 },
  },
  { name: 'get_booking_options', args: (e) => ({ booking_token: e.get_return_flights.flights.filter((f: { best?: true }) => f.best)[1].booking_token }) },
  { name: 'search_flight_locations', args: () => ({ q: 'london' }) },
  { name: 'get_flight_calendar', args: () => ({ ...ROUND_TRIP, flight_type: 'one_way', return_date: undefined }) },
  { name: 'search_rentals', args: () => ({ q: 'Lyon' }) },
  {
    name: 'get_rental_calendar',
    args: () => ({ property_id: '38817969', price_nights: 'sample', max_price_quotes: 4, stay_nights: 1 }),
    max: { price_nights: 'all', max_price_quotes: 92 },
  },
  { name: 'get_rental_quote', args: () => ({ property_id: '9209612', check_in: GROUP_DATES('2023-06-04'), nights: 10 }) },
];

/** What the replay answers a posted click-out: a page that names itself, as a seller's landing would. */
const SELLER_PAGE = '<!doctype html><html><head><title>Seller: your itinerary</title></head><body><h1>Your itinerary</h1></body></html>';

const pinsOutbound = (r: RecordedRequest) => !!r.query.tfs && !!decodeTfs(r.query.tfs).legs[0]?.selectedFlights?.length;
const quoteFor = (checkIn: string) => (r: RecordedRequest) => JSON.parse(r.query.variables ?? '{}').checkIn === checkIn;

/** Which recorded page answers: the hotel result page, and the flight result page (null: the nonstop one, then the layover one for the return leg). */
export interface PagesInPlay {
  hotels: string;
  flights: string | null;
  /** The flight booking page (default BOOKING_PAGE, whose click-outs post to the real tracker URL). */
  booking?: string;
}

/**
 * The replay server answering every call of TOOL_CALLS (metasearch at its root, other aliases under
 * `/<alias>`). `pages` is read at each request, so a caller may switch recorded pages between calls.
 */
export function startToolCallReplay(pages: PagesInPlay = { hotels: PAGES.london, flights: null }): Promise<ReplayServer> {
  const london = page(PAGES.london);
  const offers = GROUP_DATES.json(readFixtureJson(OFFERS));
  const today = todayUtc();
  return startReplayServer([
    // metasearch hotels: property pages by qs, result pages otherwise, the calendar RPC
    { path: '/travel/search', query: { qs: encodePropertyQs(CROWN) }, body: withData(london, crownDetail()) },
    { path: '/travel/search', reply: () => page(pages.hotels) },
    calendarRoute((date, los) => (100 + Math.round((Date.parse(date) - Date.parse('2027-03-01')) / 86_400_000)) * los),
    // metasearch flights
    { path: '/travel/flights/search', match: () => pages.flights !== null, reply: () => readFixture(pages.flights!) },
    // the recorded pages with their dates moved as the requests' are (a flight token carries the page's date of the chosen flight)
    { path: '/travel/flights/search', match: pinsOutbound, reply: () => FLIGHT_DATES.text(readFixture(LAYOVER)) },
    { path: '/travel/flights/search', reply: () => FLIGHT_DATES.text(readFixture(NONSTOP)) },
    { path: '/travel/flights/booking', reply: () => pages.booking ?? BOOKING_PAGE },
    // a seller's landing behind the click-out tracker, for a booking page whose click-outs post here
    { method: 'POST', path: '/travel/clk/f', body: SELLER_PAGE, headers: { 'content-type': 'text/html; charset=utf-8' } },
    { method: 'POST', path: '/_/FlightsFrontendUi/data/batchexecute', query: { rpcids: 'H028ib' }, body: LOCATION_LONDON },
    { method: 'POST', path: '/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetCalendarGraph', body: CALENDAR_GRAPH_RETURN },
    // the hotel's own website, and the travel group's GraphQL
    { path: '/site/other', body: HOTEL_SITE_OTHER_ENGINE },
    { method: 'POST', path: '/otathree/graphql', body: [offers] },
    { method: 'POST', path: '/rentalone/graphql', body: [asRental(offers)] },
    // rentaltwo
    { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, body: readFixtureJson(LYON) },
    {
      path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`,
      match: (r) => !!r.query.variables?.includes('"month":9'),
      body: readFixtureJson(RENTAL_CALENDAR),
    },
    { path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`, body: futureCalendar(today) },
    { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, match: quoteFor(addDays(today, 10)), body: pdpQuote(1, '$150', '$150') },
    { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, match: quoteFor(addDays(today, 14)), body: pdpQuote(2, '$120', '$240') },
    { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, body: { errors: [{ message: 'Those dates are not available' }], data: null } },
  ]);
}

/** Every UPSTREAM_<ALIAS>_URL pointed at the replay server, plus what the replayed website needs. */
export function replayEnv(replay: ReplayServer): Record<string, string> {
  const env: Record<string, string> = { UPSTREAM_RETRIES: '0', SAFE_FETCH_ALLOW_PRIVATE: 'true' };
  for (const alias of ALIASES) env[hostEnvName(alias)] = alias === 'metasearch' ? replay.url : `${replay.url}/${alias}`;
  return env;
}

/** The call's arguments with the replay server's address filled in (at its maximum settings with `max`). */
export function callArguments(call: ToolCall, earlier: Record<string, any>, replay: ReplayServer, max = false): Record<string, unknown> {
  const args = { ...call.args(earlier), ...(max ? call.max : {}) };
  return JSON.parse(JSON.stringify(args).replaceAll('{{replay}}', replay.url));
}

const VOLATILE_KEYS = new Set(['request_time_taken', 'parsing_time_taken', 'total_time_taken', 'elapsed_s', 'calendar_elapsed_s', 'created_at', 'observed_at']);
const VOLATILE_VALUE = /^(rateobs|ratecol|req|obs|col)_[A-Za-z0-9]+$|^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A structured result with what differs between two identical calls (ids, clocks, timings) blanked. */
export function stable(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => stable(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stable(v, k)]));
  if (VOLATILE_KEYS.has(key)) return '<volatile>';
  if (typeof value === 'string' && VOLATILE_VALUE.test(value)) return '<volatile>';
  // a booking link is minted per call (its own id, expiry and signature) on the caller's origin
  if (key === 'url' && typeof value === 'string' && /\/v1\/book\/[A-Za-z0-9_-]{22}\?e=\d+&s=/.test(value)) return '<booking link>';
  return value;
}
