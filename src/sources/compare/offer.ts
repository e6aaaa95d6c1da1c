/**
 * What a compared source gives back (its cheapest offer with that offer's own provenance) and the
 * helpers the sources' runners share. Each source's runner lives in its own folder
 * (src/sources/<alias>/compare.ts) and is reached through the registry (compare.ts here).
 */
import { ApiError } from '../../domain/errors.js';
import type { Provenance } from '../../domain/provenance.js';
import type { TypeaheadHit } from '../shared/typeahead.js';
import type { SourceUses } from '../context.js';

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
  /** What the caller gave per source alias, as that source's compare field parsed it. */
  sources: Record<string, unknown>;
}

/** The stay every runner prices. */
export function stayOf(input: CompareInput) {
  return { check_in: input.check_in, check_out: input.check_out ?? null, nights: input.nights, adults: input.adults };
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
  /** Rooms the total covers, as the reply states; null where it does not say (every source is asked for one room). */
  rooms: number | null;
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
export type CompareContext = SourceUses<
  'upstream' | 'safeFetch' | 'log',
  'GROUP_POS_CONTEXTS' | 'GROUP_QUERY_HASHES' | 'officialEngineHosts' | 'officialCredentials'
>;

/** One source's cheapest offer, fetched with `deps` (scoped to the source's deadline); `match` records a name lookup. */
export type Runner = (deps: CompareContext, match: (m: SourceMatch) => void) => Promise<SourceOffer>;

/** The first property the source's own search finds for the hotel name (the lookup its REST search route does). */
export async function lookUp(
  source: string,
  hotel: string | null | undefined,
  search: (hotel: string) => Promise<{ results: TypeaheadHit[] }>,
  match: (m: SourceMatch) => void,
): Promise<string> {
  if (!hotel) throw new ApiError(422, `${source}: give its property id or the hotel name`);
  const { results } = await search(hotel);
  if (!results[0]) throw new ApiError(404, `${source}: no property matches ${JSON.stringify(hotel.slice(0, 100))}`);
  match({ name: results[0].full_name || results[0].name, id: results[0].property_id });
  return results[0].property_id;
}

export function lowest<T>(items: T[], value: (t: T) => number | null): T | null {
  let best: T | null = null;
  for (const i of items) {
    const v = value(i);
    if (v != null && (best == null || v < (value(best) as number))) best = i;
  }
  return best;
}

export const unpriced = (description: string): SourceOffer => ({
  available: false,
  total: null,
  price_per_night: null,
  currency: null,
  taxes_and_fees_included: null,
  rooms: null,
  description,
  provenance: null,
});

/** A property quote whose stay total the source stated, as the compared offer; unpriced without one. */
export function statedTotal(
  p: Pick<SourceOffer, 'available' | 'total' | 'price_per_night' | 'currency' | 'taxes_and_fees_included' | 'provenance'> & {
    unavailable_reason?: string | null;
  },
  description: string,
): SourceOffer {
  if (p.total == null) return unpriced(p.unavailable_reason ?? 'nothing priced');
  const { available, total, price_per_night, currency, taxes_and_fees_included, provenance } = p;
  return { available, total, price_per_night, currency, taxes_and_fees_included, rooms: null, description, provenance };
}

/** How a compare field says its id may be left out. */
export const BY_NAME = 'omit to look it up by hotel';
/** How a compare field describes a point of sale. */
export const POINT_OF_SALE = 'point of sale (currency follows)';
