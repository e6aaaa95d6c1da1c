/**
 * Upstream I/O of the flight routes: one fetch per call, timed on the caller's SearchTimer,
 * parsed under the contract guard so a changed page keeps its raw reply. The booking options and
 * the price calendar come from requests the front end signs in the page: when the plain reply is
 * refused (or empty, or a page without the options), an `auto` source asks the browser path, which
 * opens the page and captures that request's reply.
 */
import { UpstreamContractChanged, UpstreamFailed } from '../../../domain/errors.js';
import type { SearchTimer } from '../../shared/search-metadata.js';
import type { UpstreamRequest, UpstreamResponse } from '../../../upstream/client.js';
import type { Upstream } from '../../../upstream/scope.js';
import { asContractChange, withContractGuard, type DriftCheck } from '../../../upstream/diagnostics.js';
import { guards } from '../guards.js';
import type { EgressMode } from '../../../upstream/egress.js';
import { collectionId, newFetchNonce } from '../../../domain/provenance.js';
import { buildCalendarRequest, parseCalendarGraph, type CalendarRange, type FlightCalendarDay } from './calendar.js';
import { buildLocationSearchRequest, parseLocationSearch, type FlightLocation } from './location-search.js';
import type { FlightSearch } from './params.js';
import { BOOKING_RPC, parseBookingResults } from './booking-rpc.js';
import { parseFlightBookingPage, type FlightBookingOption } from './parse-booking.js';
import { parseFlightResults, type FlightResultsPage } from './parse-results.js';
import { buildFlightBookingRequest, buildFlightSearchRequest, type TfsSelectedFlight } from './tfs.js';

const SOURCE = 'metasearch';
/** The front end's own RPC calls carry this; the RPC endpoints expect it. */
const RPC_HEADERS = { 'x-same-domain': '1' };
/** The results page's request for the date-price graph. */
const CALENDAR_RPC = /\.FlightsFrontendService\/GetCalendarGraph(\?|$)/;

export interface FetchMeta {
  /** The upstream URL that answered (after redirects). */
  requestUrl: string;
  collectionId: string;
  observedAt: string;
  wireBytes: number;
  egressMode: EgressMode;
}

export interface Fetched<T> {
  data: T;
  meta: FetchMeta;
}

type Call = Omit<UpstreamRequest, 'source' | 'market'>;
/** A reply's reader; it sees whether the reply is the plain one or the browser path's capture. */
type Read<T> = (res: UpstreamResponse) => T;

function fetched<T>(data: T, res: UpstreamResponse, observedAt: string): Fetched<T> {
  return {
    data,
    meta: { requestUrl: res.url, collectionId: collectionId(SOURCE, newFetchNonce()), observedAt, wireBytes: res.wireBytes, egressMode: res.egressMode },
  };
}

async function fetchParsed<T>(upstream: Upstream, timer: SearchTimer, req: UpstreamRequest, read: Read<T>, drift?: DriftCheck): Promise<Fetched<T>> {
  return guarded(await timer.upstream(() => upstream.fetch(req)), timer, read, drift);
}

/** A reply read under the contract guard. */
async function guarded<T>(res: UpstreamResponse, timer: SearchTimer, read: Read<T>, drift?: DriftCheck): Promise<Fetched<T>> {
  const observedAt = new Date().toISOString();
  // 5xx and 429 were already retried and raised by the client; what is left is unusable too
  if (res.status < 200 || res.status >= 300) throw new UpstreamFailed(`UpstreamHttp${res.status}`);
  return fetched(await withContractGuard(SOURCE, res, (r) => timer.parse(() => read(r)), drift), res, observedAt);
}

function request(call: Call, gl: string | undefined): UpstreamRequest {
  return { ...call, source: SOURCE, market: gl?.toUpperCase() };
}

interface Refusal<T> {
  /** A plain failure that means the page left the data to its signed script. */
  refused(err: unknown): boolean;
  /** A plain answer that may only be empty because the signed request was not made. */
  empty?(data: T): boolean;
}

/**
 * Plain first; when the source is `auto` and the plain reply is refused (or empty), once through
 * the browser, whose answer or failure is the one reported. The plain reply is read without the
 * contract guard: its lack of data is expected, not a change to record.
 */
async function fetchWithBrowser<T>(upstream: Upstream, timer: SearchTimer, req: UpstreamRequest, read: Read<T>, refusal: Refusal<T>): Promise<Fetched<T>> {
  if (!(await upstream.browserFallback(req))) return fetchParsed(upstream, timer, req, read);
  let res: UpstreamResponse;
  try {
    res = await timer.upstream(() => upstream.fetch(req));
  } catch (err) {
    if (!refusal.refused(err)) throw err;
    return fetchParsed(upstream, timer, { ...req, via: 'browser' }, read);
  }
  // a script challenge already sent it through the browser
  if (res.egressMode === 'browser') return guarded(res, timer, read);
  if (res.status < 200 || res.status >= 300) throw new UpstreamFailed(`UpstreamHttp${res.status}`);
  const observedAt = new Date().toISOString();
  try {
    const data = timer.parse(() => read(res));
    if (!refusal.empty?.(data)) return fetched(data, res, observedAt);
  } catch (thrown) {
    const err = asContractChange(SOURCE, thrown);
    if (!refusal.refused(err)) throw err;
  }
  return fetchParsed(upstream, timer, { ...req, via: 'browser' }, read);
}

const text =
  <T>(parse: (text: string) => T): Read<T> =>
  (res) =>
    parse(res.text());

/** The results page of the first leg not yet chosen (`selected` holds the earlier legs' flights). */
export function fetchFlightResults(
  upstream: Upstream,
  timer: SearchTimer,
  search: FlightSearch,
  selected: TfsSelectedFlight[][] = [],
): Promise<Fetched<FlightResultsPage>> {
  const req = buildFlightSearchRequest(search, selected);
  return fetchParsed(upstream, timer, request({ path: req.path, query: req.query, expect: 'html' }, search.gl), text(parseFlightResults), {
    rule: guards.drift.flight_results,
  });
}

/**
 * The booking options of a fully chosen itinerary: the booking page's data, or (browser path) the
 * page's own `GetBookingResults` reply. A page without them is what the live site sends today.
 */
export function fetchFlightBooking(
  upstream: Upstream,
  timer: SearchTimer,
  search: FlightSearch,
  selected: TfsSelectedFlight[][],
): Promise<Fetched<FlightBookingOption[]>> {
  const page = buildFlightBookingRequest(search, selected);
  const req = request({ path: page.path, query: page.query, expect: 'html', browser: { capture: BOOKING_RPC, expect: 'any' } }, search.gl);
  const read: Read<FlightBookingOption[]> = (res) => (res.egressMode === 'browser' ? parseBookingResults(res.text()) : parseFlightBookingPage(res.text()));
  return fetchWithBrowser(upstream, timer, req, read, { refused: (err) => err instanceof UpstreamContractChanged });
}

export function fetchFlightLocations(
  upstream: Upstream,
  timer: SearchTimer,
  params: { q: string; hl?: string; gl?: string },
): Promise<Fetched<FlightLocation[]>> {
  const req = buildLocationSearchRequest(params);
  const call: Call = { method: 'POST', path: req.path, query: req.query, body: req.body, headers: { ...req.headers, ...RPC_HEADERS }, expect: 'json' };
  return fetchParsed(upstream, timer, request(call, params.gl), text(parseLocationSearch));
}

/**
 * The date-price graph. Refused (the RPC wants the page's signed header) or empty, the browser path
 * opens the trip's results page and takes the graph its own script requests.
 */
export function fetchFlightCalendar(upstream: Upstream, timer: SearchTimer, search: FlightSearch, range: CalendarRange): Promise<Fetched<FlightCalendarDay[]>> {
  const req = buildCalendarRequest(search, range);
  const results = buildFlightSearchRequest(search, []);
  const call: Call = {
    method: 'POST',
    path: req.path,
    query: req.query,
    body: req.body,
    headers: { ...req.headers, ...RPC_HEADERS },
    expect: 'json',
    browser: { page: { path: results.path, query: results.query }, capture: CALENDAR_RPC, expect: 'any' },
  };
  return fetchWithBrowser(upstream, timer, request(call, search.gl), text(parseCalendarGraph), {
    refused: (err) => err instanceof UpstreamFailed && /^RpcStatus/.test(err.detail),
    empty: (days) => days.length === 0,
  });
}
