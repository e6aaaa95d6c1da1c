/**
 * The upstream I/O of the hotel operations: one result page, one property page. Each fetch is
 * one collection (its own `ratecol_…`), observed when the reply arrived.
 */
import type { SourceUses } from '../../context.js';
import type { Device } from '../../../upstream/devices.js';
import { withContractGuard, type DriftCheck } from '../../../upstream/diagnostics.js';
import { guards } from '../guards.js';
import type { EgressMode } from '../../../upstream/egress.js';
import type { SearchTimer } from '../../shared/search-metadata.js';
import { UPSTREAM_HOSTS } from '../../../config/hosts.js';
import { collectionId, newFetchNonce } from '../../../domain/provenance.js';
import { parsePropertyPage, type DetailRecord } from './parse-detail.js';
import { parseSearchPage, type SearchPageRecord } from './parse-search.js';
import { buildHotelPropertyUrl, buildHotelSearchUrl, type HotelSearchUrlInput } from './requests.js';

const SOURCE = 'metasearch';

export interface Fetched<T> {
  data: T;
  observedAt: Date;
  collectionId: string;
  egressMode: EgressMode;
  wireBytes: number;
  elapsedMs: number;
  /** The request as the real site's URL (for search_metadata.request_url). */
  requestUrl: string;
  /** Time spent parsing, in ms. */
  parseMs: number;
}

export interface FetchOptions {
  /** Two-letter market: Accept-Language and, with market_proxy, the proxy. */
  market?: string;
  device?: Device;
  /** Compatible routes time the upstream call and the parsing separately. */
  timer?: SearchTimer;
}

/** `notFound`: the page is the caller's property's own (its 404 is the property gone). */
async function fetchPage<T>(
  deps: SourceUses<'upstream'>,
  path: string,
  opts: FetchOptions,
  parse: (html: string) => T,
  drift?: DriftCheck,
  notFound?: string,
): Promise<Fetched<T>> {
  const upstream = deps.upstream;
  const call = () => upstream.fetch({ source: SOURCE, path, market: opts.market?.toUpperCase(), device: opts.device ?? 'desktop', expect: 'html', notFound });
  const response = await (opts.timer ? opts.timer.upstream(call) : call());
  const observedAt = new Date();
  const started = performance.now();
  const timer = opts.timer;
  const data = await withContractGuard(SOURCE, response, (r) => (timer ? timer.parse(() => parse(r.text())) : parse(r.text())), drift);
  return {
    data,
    observedAt,
    collectionId: collectionId(SOURCE, newFetchNonce()),
    egressMode: response.egressMode,
    wireBytes: response.wireBytes,
    elapsedMs: response.elapsedMs,
    requestUrl: UPSTREAM_HOSTS.metasearch + path,
    parseMs: performance.now() - started,
  };
}

/** One result page of a destination (or hotel-name) search. */
export function fetchSearchPage(deps: SourceUses<'upstream'>, input: HotelSearchUrlInput, opts: FetchOptions = {}): Promise<Fetched<SearchPageRecord>> {
  return fetchPage(deps, buildHotelSearchUrl(input).path, opts, parseSearchPage, { rule: guards.drift.hotel_search });
}

/** One property's own page for a stay; data is null when the engine does not know the token. */
export function fetchPropertyPage(
  deps: SourceUses<'upstream'>,
  token: string,
  input: Omit<HotelSearchUrlInput, 'q' | 'start'>,
  opts: FetchOptions = {},
): Promise<Fetched<DetailRecord | null>> {
  return fetchPage(deps, buildHotelPropertyUrl(token, input).path, opts, parsePropertyPage, undefined, 'property not found');
}
