/**
 * `POST /v1/ota/compare`: one stay on the official site and on every OTA the caller identifies,
 * fetched in parallel (the call lasts as long as its slowest source, at most `timeout_s`). Each source is reduced to
 * its cheapest offer with that offer's own provenance; a failing source is reported with its
 * status and detail while the others are still returned. The cheapest total is marked among
 * offers in one comparison currency (the requested one when priced, else the most common).
 */
import { ApiError, EverySourceFailed, toApiError } from '../../domain/errors.js';
import type { Provenance } from '../../domain/provenance.js';
import { fetchOfficialRate } from '../official/fetch.js';
import { OTAFOUR_CURRENCIES, fetchOtafour, searchOtafour } from '../otafour/fetch.js';
import { fetchOtaoneRooms, fetchOtaoneSearch } from '../otaone/fetch.js';
import { fetchOtathreeStay } from '../otathree/fetch.js';
import { fetchOtatwoHeadline } from '../otatwo/fetch.js';
import { fetchRentaloneQuote } from '../rentalone/fetch.js';
import type { OtathreeMarket, OtatwoMarket } from './group-graphql.js';
import { searchGroupTypeahead } from './group-search.js';
import { seconds } from './observation.js';
import { stayParity } from '../../domain/parity.js';
import { stayWindow } from './stay.js';
import { scopeSources, type SourceUses } from '../context.js';

export interface CompareInput {
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  currency?: string | null;
  /** Seconds each source may take; a source still running then is reported as timed out (504). */
  timeout_s: number;
  /** The hotel's name (and city): an OTA named without its id is looked up by it on that OTA's own search. */
  hotel?: string | null;
  sources: {
    official?: { website: string; currency?: string | null; taxes_included?: boolean | null };
    otaone?: { pagename?: string | null; country: string };
    otatwo?: { property_id?: string | null; market: OtatwoMarket };
    otathree?: { property_id?: string | null; market: OtathreeMarket };
    otafour?: { property_id?: string | null };
    rentalone?: { property_id?: string | null; listing_id?: string | null };
  };
}

/** The property a source's search matched to the hotel name, when the caller did not give its id. */
export interface SourceMatch {
  name: string;
  id: string;
}

export interface SourceOffer {
  available: boolean;
  total: number | null;
  price_per_night: number | null;
  currency: string | null;
  taxes_and_fees_included: boolean | null;
  description: string;
  provenance: Provenance | null;
}

export interface SourceResult {
  source: string;
  status: 'ok' | 'error';
  elapsed_s: number;
  error: { status: number; detail: string } | null;
  offer: SourceOffer | null;
  matched: SourceMatch | null;
}

/** What a comparison uses: every compared source's needs, and the logger for the ones that failed. */
type CompareContext = SourceUses<'upstream' | 'safeFetch' | 'log', 'GROUP_POS_CONTEXTS' | 'GROUP_QUERY_HASHES'>;

/** One source's cheapest offer, fetched with `deps` (scoped to the source's deadline); `match` records a name lookup. */
type Runner = (deps: CompareContext, match: (m: SourceMatch) => void) => Promise<SourceOffer>;

/** The first property the source's own search finds for the hotel name (the lookup its REST search route does). */
async function lookUp(
  deps: CompareContext,
  source: 'otatwo' | 'otathree' | 'otafour' | 'rentalone',
  hotel: string | null | undefined,
  market: string,
  match: (m: SourceMatch) => void,
): Promise<string> {
  if (!hotel) throw new ApiError(422, `${source}: give its property id or the hotel name`);
  const { results } = source === 'otafour' ? await searchOtafour(deps, hotel, 1) : await searchGroupTypeahead(deps, source, market, hotel, 1);
  if (!results[0]) throw new ApiError(404, `${source}: no property matches ${JSON.stringify(hotel.slice(0, 100))}`);
  match({ name: results[0].full_name || results[0].name, id: results[0].property_id });
  return results[0].property_id;
}

function lowest<T>(items: T[], value: (t: T) => number | null): T | null {
  let best: T | null = null;
  for (const i of items) {
    const v = value(i);
    if (v != null && (best == null || v < (value(best) as number))) best = i;
  }
  return best;
}

const unpriced = (description: string): SourceOffer => ({
  available: false,
  total: null,
  price_per_night: null,
  currency: null,
  taxes_and_fees_included: null,
  description,
  provenance: null,
});

/** A property quote whose stay total the source stated, as the compared offer; unpriced without one. */
function statedTotal(
  p: Pick<SourceOffer, 'available' | 'total' | 'price_per_night' | 'currency' | 'taxes_and_fees_included' | 'provenance'> & {
    unavailable_reason?: string | null;
  },
  description: string,
): SourceOffer {
  if (p.total == null) return unpriced(p.unavailable_reason ?? 'nothing priced');
  const { available, total, price_per_night, currency, taxes_and_fees_included, provenance } = p;
  return { available, total, price_per_night, currency, taxes_and_fees_included, description, provenance };
}

function runners(input: CompareInput): [string, Runner][] {
  const s = input.sources;
  const stay = { check_in: input.check_in, check_out: input.check_out ?? null, nights: input.nights, adults: input.adults };
  const out: [string, Runner][] = [];
  if (s.official) {
    const site = s.official;
    out.push([
      'official',
      async (deps) => {
        const r = await fetchOfficialRate(deps, { website: site.website, ...stay, currency: input.currency });
        const o = lowest(r.offers, (x) => x.total);
        return o
          ? {
              available: true,
              total: o.total,
              price_per_night: null,
              currency: o.currency,
              taxes_and_fees_included: null,
              description: `${r.engine.name}: ${[o.room_name, o.rate_name].filter(Boolean).join(', ') || `room ${o.room_id}`}`,
              provenance: o.provenance,
            }
          : unpriced(`${r.engine.name}: nothing available`);
      },
    ]);
  }
  if (s.otaone) {
    const given = s.otaone;
    out.push([
      'otaone',
      async (deps, match) => {
        let ref = { pagename: given.pagename ?? '', country: given.country };
        if (!given.pagename) {
          if (!input.hotel) throw new ApiError(422, 'otaone: give its pagename or the hotel name');
          const found = await fetchOtaoneSearch(deps, {
            query: input.hotel,
            nights: 1,
            adults: stay.adults,
            rooms: 1,
            currency: input.currency ?? 'USD',
            limit: 1,
          });
          const hit = found.results[0];
          if (!hit) throw new ApiError(404, `otaone: no property matches ${JSON.stringify(input.hotel.slice(0, 100))}`);
          match({ name: hit.name, id: `${hit.country}/${hit.pagename}` });
          ref = { pagename: hit.pagename, country: hit.country };
        }
        const r = await fetchOtaoneRooms(deps, { ...ref, ...stay, rooms: 1, currency: input.currency ?? 'USD' });
        const plans = r.rooms.flatMap((room) => room.rate_plans.map((p) => ({ room: room.name, p })));
        const o = lowest(plans, (x) => x.p.price);
        return o
          ? {
              available: true,
              total: o.p.price,
              price_per_night: null,
              currency: o.p.currency || null,
              taxes_and_fees_included: null,
              description: o.room,
              provenance: o.p.provenance,
            }
          : unpriced(r.unavailable_reason ?? 'nothing priced');
      },
    ]);
  }
  if (s.otatwo) {
    const given = s.otatwo;
    out.push([
      'otatwo',
      async (deps, match) => {
        const ref = { market: given.market, property_id: given.property_id || (await lookUp(deps, 'otatwo', input.hotel, given.market, match)) };
        const r = await fetchOtatwoHeadline(deps, { ...ref, check_in: stay.check_in, nights: stayWindow(stay, 28).nights, adults: stay.adults });
        const c = r.cheapest;
        return c
          ? {
              available: true,
              total: c.total,
              price_per_night: c.nightly,
              currency: c.currency || null,
              taxes_and_fees_included: c.taxes_and_fees_included,
              description: c.room_name,
              provenance: c.provenance,
            }
          : unpriced(r.sold_out ? 'sold out' : 'nothing priced');
      },
    ]);
  }
  if (s.otathree) {
    const given = s.otathree;
    out.push([
      'otathree',
      async (deps, match) => {
        const ref = { market: given.market, property_id: given.property_id || (await lookUp(deps, 'otathree', input.hotel, given.market, match)) };
        const r = await fetchOtathreeStay(deps, { ...ref, ...stay, rooms: true });
        const o = lowest(
          r.rooms.flatMap((room) => room.offers.map((offer) => ({ room: room.name, offer }))),
          (x) => x.offer.total,
        );
        if (o) {
          const f = o.offer;
          return {
            available: true,
            total: f.total,
            price_per_night: f.nightly,
            currency: f.currency || null,
            taxes_and_fees_included: f.taxes_and_fees_included,
            description: o.room,
            provenance: f.provenance,
          };
        }
        return statedTotal(r.property, 'headline');
      },
    ]);
  }
  if (s.otafour) {
    const given = s.otafour;
    const currency = (OTAFOUR_CURRENCIES as readonly string[]).includes(input.currency ?? '') ? (input.currency as (typeof OTAFOUR_CURRENCIES)[number]) : 'USD';
    out.push([
      'otafour',
      async (deps, match) => {
        const ref = { property_id: given.property_id || (await lookUp(deps, 'otafour', input.hotel, 'US', match)) };
        const r = await fetchOtafour(deps, { ...ref, ...stay, rooms: 1, currency });
        const p = r.property;
        return p.price_per_night != null
          ? {
              available: true,
              total: null,
              price_per_night: p.price_per_night,
              currency: p.currency,
              taxes_and_fees_included: p.tax_inclusive,
              description: 'cheapest room, per night',
              provenance: p.provenance,
            }
          : unpriced(p.sold_out ? 'sold out' : 'nothing priced');
      },
    ]);
  }
  if (s.rentalone) {
    const given = s.rentalone;
    out.push([
      'rentalone',
      async (deps, match) => {
        const ref = given.property_id || given.listing_id ? given : { property_id: await lookUp(deps, 'rentalone', input.hotel, 'US', match) };
        const r = await fetchRentaloneQuote(deps, { ...ref, ...stay, market: 'US' });
        return statedTotal(r.property, 'stay quote');
      },
    ]);
  }
  return out;
}

/** The runner's offer, or a 504 once `seconds` have passed; then its upstream requests are aborted. */
function withDeadline(deps: CompareContext, source: string, run: Runner, seconds: number, match: (m: SourceMatch) => void): Promise<SourceOffer> {
  const abort = new AbortController();
  const work = run(scopeSources(deps, { signal: abort.signal }), match);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new ApiError(504, `no answer within ${seconds} s`));
    }, seconds * 1000);
  });
  work.catch((err) => deps.log.debug({ err, source }, 'compare: source failed or was aborted at the deadline'));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** One source's result, and whether its failure may pass on a retry. */
async function runOne(deps: CompareContext, source: string, run: Runner, timeoutS: number): Promise<[SourceResult, boolean]> {
  const started = performance.now();
  let matched: SourceMatch | null = null;
  try {
    const offer = await withDeadline(deps, source, run, timeoutS, (m) => (matched = m));
    return [{ source, status: 'ok', elapsed_s: seconds(performance.now() - started), error: null, offer, matched }, false];
  } catch (err) {
    const api = toApiError(err);
    if (api.status === 500) deps.log.error({ err, source }, 'compare: source failed with an unexpected error');
    const detail = typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail);
    const failed: SourceResult = {
      source,
      status: 'error',
      elapsed_s: seconds(performance.now() - started),
      error: { status: api.status, detail },
      offer: null,
      matched,
    };
    return [failed, api.retryable || api.status === 504];
  }
}

function comparisonCurrency(priced: { currency: string | null }[], requested: string | null | undefined): string | null {
  if (requested && priced.some((o) => o.currency === requested)) return requested;
  const counts = new Map<string, number>();
  for (const o of priced) if (o.currency) counts.set(o.currency, (counts.get(o.currency) ?? 0) + 1);
  let best: string | null = null;
  for (const [c, n] of counts) if (best == null || n > (counts.get(best) as number)) best = c;
  return best;
}

export async function compareStay(deps: CompareContext, input: CompareInput) {
  const stay = stayWindow(input, 28);
  const started = performance.now();
  const ran = await Promise.all(runners(input).map(([source, run]) => runOne(deps, source, run, input.timeout_s)));
  const results = ran.map(([r]) => r);
  // a comparison with no answer at all is a failure (502, free, each source's reason), not an empty success
  if (ran.length && ran.every(([r]) => r.error)) {
    throw new EverySourceFailed(ran.map(([r, retryable]) => ({ source: r.source, status: r.error!.status, detail: r.error!.detail, retryable })));
  }
  const priced = results
    .filter((r) => r.offer && r.offer.available && (r.offer.total != null || r.offer.price_per_night != null))
    .map((r) => ({ source: r.source, ...(r.offer as SourceOffer) }));
  const currency = comparisonCurrency(
    priced.filter((o) => o.total != null),
    input.currency,
  );
  const cheapest = lowest(
    priced.filter((o) => o.currency != null && o.currency === currency),
    (o) => o.total,
  );
  const offers = priced
    .map((o) => ({
      source: o.source,
      total: o.total,
      price_per_night: o.price_per_night,
      currency: o.currency,
      taxes_and_fees_included: o.taxes_and_fees_included,
      description: o.description,
      comparable: o.total != null && o.currency != null && o.currency === currency,
      cheapest: cheapest != null && o.source === cheapest.source,
      provenance: o.provenance,
    }))
    .sort((a, b) => Number(b.comparable) - Number(a.comparable) || (a.total ?? Infinity) - (b.total ?? Infinity));
  return {
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    adults: input.adults,
    requested_currency: input.currency ?? null,
    comparison_currency: currency,
    cheapest: cheapest ? { source: cheapest.source, total: cheapest.total as number, currency: cheapest.currency as string } : null,
    offers,
    sources: results,
    parity: stayParity(results, { nights: stay.nights, adults: input.adults }, input.sources.official),
    sources_ok: results.filter((r) => r.status === 'ok').length,
    sources_failed: results.filter((r) => r.status === 'error').length,
    elapsed_s: seconds(performance.now() - started),
  };
}
