/**
 * `otatwo` I/O: one stay's room grid from the group gateway, for the rooms route and the
 * headline route (same persisted document; the headline keeps only the cheapest figures).
 */
import type { Provenance } from '../../domain/provenance.js';
import { OPERATIONS, OTATWO_MARKET_CURRENCY, type OtatwoMarket } from '../shared/group-graphql.js';
import { guards } from './guards.js';
import { callPropertyOffers, type GroupContext } from '../shared/group-gateway.js';
import { priceProvenance, type Observation, type StayKey } from '../shared/observation.js';
import { TAXES_AND_FEES_DERIVATION } from '../shared/offer.js';
import { assertStayAnswered, stayWindow } from '../shared/stay.js';
import { parseOtatwoRooms, type OtatwoRatePlan, type OtatwoRooms } from './rooms.js';

const COLLECTOR = 'otatwo.graphql';

export interface OtatwoStayInput {
  property_id: string;
  check_in: string;
  nights: number;
  adults: number;
  market: OtatwoMarket;
}

export type OtatwoRatePlanOut = OtatwoRatePlan & { provenance: Provenance; taxes_and_fees_provenance?: Provenance };

export interface OtatwoFetched {
  parsed: OtatwoRooms;
  obs: Observation;
  key: StayKey;
  market: OtatwoMarket;
  checkIn: string;
  checkOut: string;
  nights: number;
  requestedCurrency: string;
}

export async function fetchOtatwoGrid(deps: GroupContext, input: OtatwoStayInput): Promise<OtatwoFetched> {
  const stay = stayWindow(input, 30);
  const requestedCurrency = OTATWO_MARKET_CURRENCY[input.market];
  const { parsed, obs } = await callPropertyOffers(
    deps,
    'otatwo',
    guards.drift.rooms,
    OPERATIONS.roomsAndRates,
    { market: input.market, propertyId: input.property_id, window: stay, adults: input.adults },
    (data) => parseOtatwoRooms(data, { requestedCurrency, nights: stay.nights }),
  );
  assertStayAnswered(stay, { checkIn: parsed.check_in, checkOut: parsed.check_out });
  const key = { propertyId: input.property_id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.adults };
  return { parsed, obs, key, market: input.market, checkIn: stay.checkIn, checkOut: stay.checkOut, nights: stay.nights, requestedCurrency };
}

/** What the card's lead price is on this row. */
function leadBasis(p: OtatwoRatePlan): string {
  if (p.price != null && p.price === p.total && p.taxes_and_fees_included) return 'stay_total_including_taxes_and_fees';
  if (p.nightly_text) return 'nightly_lead_price';
  return 'stay_rate_plan';
}

function ratePlanWithProvenance(p: OtatwoRatePlan, f: OtatwoFetched): OtatwoRatePlanOut {
  const facts = {
    sourceKind: 'ota_rate_plan',
    collector: COLLECTOR,
    market: f.market,
    requestedCurrency: f.requestedCurrency,
    returnedCurrency: p.currency || null,
    rateId: p.plan_id || null,
  };
  const out: OtatwoRatePlanOut = { ...p, provenance: priceProvenance(f.obs, f.key, { ...facts, priceBasis: leadBasis(p), derivation: 'normalized_upstream' }) };
  if (p.taxes_and_fees != null) {
    out.taxes_and_fees_provenance = priceProvenance(f.obs, f.key, { ...facts, priceBasis: 'taxes_and_fees_combined', derivation: TAXES_AND_FEES_DERIVATION });
  }
  return out;
}

function otatwoCommon(f: OtatwoFetched) {
  return {
    property_id: f.parsed.property_id || f.key.propertyId,
    market: f.market,
    check_in: f.checkIn,
    check_out: f.checkOut,
    nights: f.nights,
    currency: f.parsed.currency,
    requested_currency: f.parsed.requested_currency,
    currency_verified: f.parsed.currency_verified,
    available: f.parsed.available,
    sold_out: f.parsed.sold_out,
    cheapest_rate: f.parsed.cheapest_rate,
    wire_bytes: f.obs.wireBytes,
    egress_mode: f.obs.egressMode,
    collection_id: f.obs.collectionId,
    observed_at: f.obs.observedAt.toISOString(),
  };
}

export async function fetchOtatwoRooms(deps: GroupContext, input: OtatwoStayInput) {
  const f = await fetchOtatwoGrid(deps, input);
  return {
    ...otatwoCommon(f),
    rooms: f.parsed.rooms.map((r) => ({ ...r, rate_plans: r.rate_plans.map((p) => ratePlanWithProvenance(p, f)) })),
  };
}

/** Headline: the cheapest row across rooms, with its room name; null when nothing is priced. */
export async function fetchOtatwoHeadline(deps: GroupContext, input: OtatwoStayInput) {
  return otatwoHeadline(await fetchOtatwoGrid(deps, input));
}

/** The headline of a fetched grid (compare reads the grid's stated room count beside it). */
export function otatwoHeadline(f: OtatwoFetched) {
  let best: { room: string; plan: OtatwoRatePlan } | null = null;
  for (const r of f.parsed.rooms) {
    for (const p of r.rate_plans) if (p.price != null && (best == null || p.price < (best.plan.price as number))) best = { room: r.name, plan: p };
  }
  return {
    ...otatwoCommon(f),
    room_types: f.parsed.rooms.length,
    rate_plans: f.parsed.rooms.reduce((n, r) => n + r.rate_plans.length, 0),
    cheapest: best ? { room_name: best.room, ...ratePlanWithProvenance(best.plan, f) } : null,
  };
}
