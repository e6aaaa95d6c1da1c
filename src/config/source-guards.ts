import type { Alias } from './hosts.js';
import type { DriftFact, DriftRule } from './drift-rules.js';
import type { WallId } from './walls.js';

/**
 * Per source (an entry per alias, ready to move into the source's manifest): the bot walls known to
 * stand in front of it, and its drift rules (what every real reply of it states).
 *
 * Walls. A wall met on a source not listed here is cleared all the same: this list
 * says which clearance cookies the source keeps beyond the wall the challenge named, and what the
 * operator is told to expect.
 * - otaone: AWS WAF answers plain clients 202 with a challenge (AWS WAF ChallengeAction; trvl PR #200).
 * - otatwo, otathree, rentalone: Akamai Bot Manager answers plain clients 429 until the sensor set
 *   `_abck` (the travel group's sites; design notes, "Expedia/Vrbo").
 */
export interface SourceGuards {
  walls: readonly WallId[];
  /** Per reply kind the source reads, what every real reply of that kind states (drift-rules.ts). */
  drift: Readonly<Record<string, DriftRule>>;
}

const PRICE = (field: string, priced = false): DriftFact => ({ field, minItems: 3, priced });

/**
 * Drift. Each rule was checked on every recorded reply of its kind (none fires) and on a mutated
 * copy (it fires): test/unit/sources/drift-rules.test.ts. Prices need a few items to judge (one
 * sold-out room is no drift), and where a search may go without dates, only priced requests.
 */
export const SOURCE_GUARDS: Record<Alias, SourceGuards> = {
  metasearch: {
    walls: [],
    drift: {
      hotel_search: { items: 'properties', states: ['name', 'property_token', PRICE('rate')] },
      flight_results: { items: ['best_flights', 'other_flights'], states: ['flights', PRICE('price')] },
    },
  },
  otaone: {
    walls: ['aws_waf'],
    drift: { search_cards: { items: '', states: ['name', PRICE('price', true)], raw: { pattern: 'data-testid="property-card"' } } },
  },
  otatwo: { walls: ['akamai'], drift: { rooms: { items: 'rooms.rate_plans', states: ['price'] } } },
  otathree: { walls: ['akamai'], drift: { stay: { items: 'rooms.offers', states: ['total|nightly'] } } },
  otafour: { walls: [], drift: { rooms: { items: 'rooms.offers', states: ['price|total'] } } },
  rentalone: { walls: ['akamai'], drift: { quote: { items: 'offers', states: ['total|nightly'] } } },
  rentaltwo: { walls: [], drift: { stays_search: { items: 'properties', states: ['id', 'title', PRICE('price', true)] } } },
  travelreview: { walls: [], drift: { search: { items: '', states: ['accommodation_id', 'name', PRICE('price_per_night|price_per_stay')] } } },
  hostel: {
    walls: [],
    drift: { city_properties: { items: 'properties', states: ['property_id', 'name', PRICE('lowest_price_per_night|lowest_average_price_per_night', true)] } },
  },
  network: { walls: [], drift: { job_search: { items: '', states: ['job_id', 'title'], raw: { pattern: '<li>' } } } },
  video: {
    walls: [],
    drift: { channel_videos: { items: 'videos', states: ['video_id', 'title'] }, search: { items: 'videos', states: ['video_id', 'title'] } },
  },
  apps: { walls: [], drift: { search: { items: 'apps', states: ['app_id', 'title'] } } },
  retail: { walls: [], drift: { search: { items: '', states: ['item_id', 'title', PRICE('price')] } } },
  trends: { walls: [], drift: { timeline: { items: 'points', states: ['date', 'value'], raw: { pattern: '"formattedTime"' } } } },
};

/** The drift check of a source's reply kind, for withContractGuard. */
export function driftRule(alias: Alias, kind: string): DriftRule {
  const rule = SOURCE_GUARDS[alias].drift[kind];
  if (!rule) throw new Error(`no drift rule ${alias}.${kind}`);
  return rule;
}
