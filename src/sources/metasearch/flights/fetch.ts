/**
 * Upstream I/O of the flight routes: one fetch per call, timed on the caller's SearchTimer,
 * parsed under the contract guard so a changed page keeps its raw reply.
 */
import { UpstreamFailed } from '../../../domain/errors.js';
import type { SearchTimer } from '../../shared/search-metadata.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../../../upstream/client.js';
import { withContractGuard } from '../../../upstream/diagnostics.js';
import type { EgressMode } from '../../../upstream/egress.js';
import { collectionId, newFetchNonce } from '../../../domain/provenance.js';
import { buildCalendarRequest, parseCalendarGraph, type CalendarRange, type FlightCalendarDay } from './calendar.js';
import { buildLocationSearchRequest, parseLocationSearch, type FlightLocation } from './location-search.js';
import type { FlightSearch } from './params.js';
import { parseFlightBookingPage, type FlightBookingOption } from './parse-booking.js';
import { parseFlightResults, type FlightResultsPage } from './parse-results.js';
import { buildFlightBookingRequest, buildFlightSearchRequest, type TfsSelectedFlight } from './tfs.js';

const SOURCE = 'metasearch';
/** The front end's own RPC calls carry this; the RPC endpoints expect it. */
const RPC_HEADERS = { 'x-same-domain': '1' };

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

async function fetchParsed<T>(
  upstream: UpstreamClient,
  timer: SearchTimer,
  call: Call,
  gl: string | undefined,
  parse: (text: string) => T,
): Promise<Fetched<T>> {
  const res: UpstreamResponse = await timer.upstream(() => upstream.fetch({ ...call, source: SOURCE, market: gl?.toUpperCase() }));
  const observedAt = new Date().toISOString();
  // 5xx and 429 were already retried and raised by the client; what is left is unusable too
  if (res.status < 200 || res.status >= 300) throw new UpstreamFailed(`UpstreamHttp${res.status}`);
  const data = await withContractGuard(SOURCE, res, (r) => timer.parse(() => parse(r.text())));
  return {
    data,
    meta: { requestUrl: res.url, collectionId: collectionId(SOURCE, newFetchNonce()), observedAt, wireBytes: res.wireBytes, egressMode: res.egressMode },
  };
}

/** The results page of the first leg not yet chosen (`selected` holds the earlier legs' flights). */
export function fetchFlightResults(
  upstream: UpstreamClient,
  timer: SearchTimer,
  search: FlightSearch,
  selected: TfsSelectedFlight[][] = [],
): Promise<Fetched<FlightResultsPage>> {
  const req = buildFlightSearchRequest(search, selected);
  return fetchParsed(upstream, timer, { path: req.path, query: req.query, expect: 'html' }, search.gl, parseFlightResults);
}

/** The booking page of a fully chosen itinerary. */
export function fetchFlightBooking(
  upstream: UpstreamClient,
  timer: SearchTimer,
  search: FlightSearch,
  selected: TfsSelectedFlight[][],
): Promise<Fetched<FlightBookingOption[]>> {
  const req = buildFlightBookingRequest(search, selected);
  return fetchParsed(upstream, timer, { path: req.path, query: req.query, expect: 'html' }, search.gl, parseFlightBookingPage);
}

export function fetchFlightLocations(
  upstream: UpstreamClient,
  timer: SearchTimer,
  params: { q: string; hl?: string; gl?: string },
): Promise<Fetched<FlightLocation[]>> {
  const req = buildLocationSearchRequest(params);
  const call: Call = { method: 'POST', path: req.path, query: req.query, body: req.body, headers: { ...req.headers, ...RPC_HEADERS }, expect: 'json' };
  return fetchParsed(upstream, timer, call, params.gl, parseLocationSearch);
}

export function fetchFlightCalendar(
  upstream: UpstreamClient,
  timer: SearchTimer,
  search: FlightSearch,
  range: CalendarRange,
): Promise<Fetched<FlightCalendarDay[]>> {
  const req = buildCalendarRequest(search, range);
  const call: Call = { method: 'POST', path: req.path, query: req.query, body: req.body, headers: { ...req.headers, ...RPC_HEADERS }, expect: 'json' };
  return fetchParsed(upstream, timer, call, search.gl, parseCalendarGraph);
}
