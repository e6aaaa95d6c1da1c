/**
 * `POST /v1/official`: the hotel website (through the SSRF-safe fetcher, every redirect re-checked)
 * → its booking engine (`detect.ts`) → the engine's public availability endpoints for one stay
 * (`engine-quotes.ts`), every engine request through the same fetcher, their bytes summed.
 */
import { InvalidInput, UpstreamBlocked, upstreamStatusFailure } from '../../domain/errors.js';
import { detectBlock } from '../../upstream/blocked.js';
import { buildProvenance, collectionId, newFetchNonce } from '../../domain/provenance.js';
import { seconds } from '../shared/observation.js';
import { stayWindow } from '../shared/stay.js';
import { detectOfficialEngines, type OfficialEngineMatch } from './detect.js';
import { PRICED_ENGINES } from './engine-quotes.js';
import type { EngineCall, EngineStay } from './engine-types.js';
import type { SourceUses } from '../context.js';

export interface OfficialInput {
  website: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  /** ISO currency passed to engines that take one (recorded as requested, never as returned). */
  currency?: string | null;
}

/** The website's engines, strongest evidence first; 404 for a missing site, 502 for a blocked one. */
export async function detectWebsiteEngines(
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

export async function fetchOfficialRate(deps: SourceUses<'safeFetch'>, input: OfficialInput) {
  const stay = stayWindow(input, 30);
  const started = performance.now();
  const site = await detectWebsiteEngines(deps, input.website);
  if (site.matches.length === 0) throw new InvalidInput(`no booking engine detected on ${new URL(site.finalUrl).hostname}`);
  const match = site.matches.find((m) => PRICED_ENGINES[m.engine]);
  if (!match) {
    const top = site.matches[0]!;
    throw new InvalidInput(`booking engine ${top.name} (${top.engine}) is not supported for pricing; supported: ${Object.keys(PRICED_ENGINES).join(', ')}`);
  }
  if (!match.hotel_id) throw new InvalidInput(`booking engine ${match.name} detected, but its booking link carries no property id`);
  const engine = PRICED_ENGINES[match.engine]!;
  const hotelId = match.hotel_id;
  const engineStay: EngineStay = {
    propertyCode: hotelId,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    nights: stay.nights,
    adults: input.adults,
    currency: input.currency ?? null,
  };
  let engineBytes = 0;
  const call: EngineCall = async (url, init) => {
    const reply = await deps.safeFetch.fetch(url, init);
    engineBytes += reply.wireBytes;
    const verdict = detectBlock({ status: reply.status, url: reply.url, headers: reply.headers, body: reply.body, expect: 'json' });
    if (verdict) throw new UpstreamBlocked(verdict.detail, verdict.marker);
    // the failure table, but for the request-shaped refusals (400, 422) an engine reads itself
    if (reply.status !== 400 && reply.status !== 422) {
      const failure = upstreamStatusFailure(reply.status, {
        notFound: `${match.engine} property ${hotelId} not found`,
        retryAfter: reply.headers['retry-after'],
      });
      if (failure) throw failure;
    }
    return { status: reply.status, text: reply.text() };
  };
  const rooms = await engine.quote(engineStay, call);
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
    engine: { id: match.engine, name: match.name, booking_url: match.booking_url, hotel_id: match.hotel_id, confidence: match.confidence },
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
    wire_bytes: site.wireBytes + engineBytes,
    elapsed_s: seconds(performance.now() - started),
  };
}
