/**
 * `POST /v1/official`: the hotel website (through the SSRF-safe fetcher, every redirect re-checked)
 * → its booking engine (`detect.ts`) → the engine's public availability endpoints for one stay
 * (`engine-quotes.ts`), every engine request through the same fetcher, their bytes summed.
 */
import { InvalidInput, UpstreamBlocked, upstreamStatusFailure } from '../../domain/errors.js';
import { detectBlock } from '../../upstream/blocked.js';
import { officialEngineBase, type OfficialEngineId } from '../../config/hosts.js';
import { buildProvenance, collectionId, newFetchNonce } from '../../domain/provenance.js';
import { seconds } from '../shared/observation.js';
import { stayWindow } from '../shared/stay.js';
import { detectOfficialEngines, type OfficialEngineMatch } from './detect.js';
import { PRICED_ENGINES, pricedEngine } from './engine-quotes.js';
import type { EngineContext, EngineStay } from './engine-types.js';
import { engineCall } from './engine-call.js';
import type { SourceUses } from '../context.js';

export interface OfficialInput {
  website: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  children?: number;
  rooms?: number;
  /** ISO currency passed to engines that take one (recorded as requested, never as returned). */
  currency?: string | null;
  /** ISO 639-1 language of room names and terms, for engines that take one. */
  language?: string | null;
}

/** What the official source reads from the settings: the engines' hosts and the credentials some need. */
export type OfficialDeps = SourceUses<'safeFetch', 'officialEngineHosts' | 'officialCredentials'>;

/** At most this many pieces of evidence are returned per engine (the strongest first). */
const EVIDENCE_SHOWN = 5;

/** The website's engines, strongest evidence first; 404 for a missing site, 502 for a blocked one. */
async function detectWebsiteEngines(
  deps: SourceUses<'safeFetch'>,
  website: string,
): Promise<{ matches: OfficialEngineMatch[]; finalUrl: string; wireBytes: number }> {
  const page = await deps.safeFetch.fetch(website);
  const verdict = detectBlock({ status: page.status, url: page.url, headers: page.headers, body: page.body, expect: 'html' });
  if (verdict) throw new UpstreamBlocked(verdict.detail, verdict.marker);
  const failure = upstreamStatusFailure(page.status, { notFound: `website ${website} not found`, retryAfter: page.headers['retry-after'] });
  if (failure) throw failure;
  return { matches: detectOfficialEngines({ html: page.text(), pageUrl: page.url }), finalUrl: page.url, wireBytes: page.wireBytes };
}

export async function fetchOfficialRate(deps: OfficialDeps, input: OfficialInput) {
  const stay = stayWindow(input, 30);
  const started = performance.now();
  const site = await detectWebsiteEngines(deps, input.website);
  if (site.matches.length === 0) throw new InvalidInput(`no booking engine detected on ${new URL(site.finalUrl).hostname}`);
  const settings = deps.config.officialCredentials;
  const match = site.matches.find((m) => pricedEngine(m.engine) && !pricedEngine(m.engine)!.unavailable?.(settings));
  if (!match) {
    const top = site.matches[0]!;
    const why = pricedEngine(top.engine)?.unavailable?.(settings);
    if (why) throw new InvalidInput(`booking engine ${top.name} (${top.engine}) is not priced here: ${why}`);
    throw new InvalidInput(`booking engine ${top.name} (${top.engine}) is not supported for pricing; supported: ${Object.keys(PRICED_ENGINES).join(', ')}`);
  }
  if (!match.hotel_id) throw new InvalidInput(`booking engine ${match.name} detected, but its booking link carries no property id`);
  const engine = pricedEngine(match.engine)!;
  const hotelId = match.hotel_id;
  if ((input.children ?? 0) > 0 && !engine.party.children)
    throw new InvalidInput(`booking engine ${match.name} is quoted for adults only here (its request takes no children); give children: 0`);
  if ((input.rooms ?? 1) > 1 && !engine.party.rooms)
    throw new InvalidInput(`booking engine ${match.name} is quoted for one room here (its request takes no room count); give rooms: 1`);
  const engineStay: EngineStay = {
    propertyCode: hotelId,
    chainCode: match.chain_id,
    bookingUrl: match.booking_url,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    nights: stay.nights,
    adults: input.adults,
    children: input.children ?? 0,
    rooms: input.rooms ?? 1,
    currency: input.currency ?? null,
    language: input.language ?? 'en',
  };
  const ctx: EngineContext = {
    base: officialEngineBase(deps.config.officialEngineHosts[engine.id as OfficialEngineId], match.booking_url, hotelId),
    ...settings,
  };
  const metered = engineCall(deps, match.engine, hotelId);
  const rooms = await engine.quote(engineStay, metered.call, ctx);
  const observedAt = new Date();
  const collection = collectionId('official', newFetchNonce());
  const requestedCurrency = engine.sendsCurrency ? engineStay.currency : null;
  // Offered: rooms the engine says it sells, and priced rooms whose availability it does not state.
  const offers = rooms
    .filter((r) => r.bookable === true || (r.bookable === null && r.total != null))
    .map(({ bookable: _bookable, price_basis, derivation, upstream_rate_id, ...r }) => ({
      ...r,
      provenance: buildProvenance({
        source: 'official',
        sourceKind: 'official',
        collector: `official.${match.engine}`,
        sourcePropertyId: hotelId,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        adults: input.adults,
        collectionId: collection,
        observedAt,
        requestedMarket: null,
        requestedCurrency,
        returnedCurrency: r.currency,
        egressMode: 'direct',
        priceBasis: price_basis,
        derivation,
        upstreamRateId: upstream_rate_id,
      }),
    }));
  const priced = offers.filter((o) => o.total != null);
  const cheapest = priced.reduce<(typeof priced)[number] | null>((b, o) => (b == null || (o.total as number) < (b.total as number) ? o : b), null);
  return {
    website: input.website,
    final_url: site.finalUrl,
    engine: {
      id: match.engine,
      name: match.name,
      booking_url: match.booking_url,
      booking_host: match.booking_url ? new URL(match.booking_url).hostname : null,
      hotel_id: match.hotel_id,
      chain_id: match.chain_id,
      confidence: match.confidence,
      evidence: match.evidence.slice(0, EVIDENCE_SHOWN),
    },
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    adults: input.adults,
    available: offers.length > 0,
    listed: rooms.length,
    sold_out: rooms.length > 0 && rooms.every((r) => r.bookable === false),
    cheapest_total: cheapest?.total ?? null,
    currency: cheapest?.currency ?? null,
    offers,
    collection_id: collection,
    observed_at: observedAt.toISOString(),
    wire_bytes: site.wireBytes + metered.bytes(),
    elapsed_s: seconds(performance.now() - started),
  };
}
