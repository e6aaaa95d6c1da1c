/**
 * `POST /v1/ota/otatwo/rooms`: the property's room grid as rate-plan rows. Built on the shared
 * offer grid; a plan sold pay-now and pay-at-property is two rows.
 */
import { parseOfferGrid, statedRooms, type OfferGridRow } from './offer-grid.js';
import type { PaymentModel } from '../shared/offer.js';
import type { Json } from '../../domain/json.js';

/** The spec's otatwo rate plan, without provenance. */
export interface OtatwoRatePlan {
  plan_id: string;
  /** The card's lead price (the stay total with taxes and fees on the US and DE points of sale). */
  price: number | null;
  price_text: string;
  currency: string | null;
  refundable: boolean | null;
  refundable_until: string;
  pay_now: boolean;
  room_type_id: string;
  payment_model: PaymentModel;
  hotel_collect: boolean | null;
  total: number | null;
  nightly: number | null;
  taxes_and_fees: number | null;
  total_text: string;
  nightly_text: string;
  taxes_and_fees_included: boolean | null;
  cancellation_text: string;
  extras_text: string;
  member_only: boolean;
  inventory_type: string;
  business_model: string;
}

interface OtatwoRoom {
  name: string;
  unit_id: string;
  cheapest_rate: number | null;
  rate_plans: OtatwoRatePlan[];
}

export interface OtatwoRooms {
  property_id: string;
  check_in: string | null;
  check_out: string | null;
  nights: number | null;
  /** Currency read back from the reply; null when nothing is priced in a stated currency. */
  currency: string | null;
  requested_currency: string;
  currency_verified: boolean;
  available: boolean;
  sold_out: boolean | null;
  cheapest_rate: number | null;
  /** Rooms the prices cover, as the reply states (parity compares like with like); null when it does not. */
  room_count: number | null;
  rooms: OtatwoRoom[];
}

export interface OtatwoRoomsContext {
  /** Currency of the requested point of sale. */
  requestedCurrency: string;
  nights?: number;
}

function ratePlan(row: OfferGridRow): OtatwoRatePlan {
  return {
    plan_id: row.plan_id,
    price: row.lead,
    price_text: row.lead_text,
    currency: row.currency,
    refundable: row.refundable,
    refundable_until: row.refundable_until,
    pay_now: row.payment_model === 'PAY_NOW',
    room_type_id: row.room_type_id,
    payment_model: row.payment_model,
    hotel_collect: row.hotel_collect,
    total: row.total,
    nightly: row.nightly,
    taxes_and_fees: row.taxes_and_fees,
    total_text: row.total_text,
    nightly_text: row.nightly_text,
    taxes_and_fees_included: row.taxes_and_fees_included,
    cancellation_text: row.cancellation_text,
    extras_text: row.extras_text,
    member_only: row.member_only,
    inventory_type: row.inventory_type,
    business_model: row.business_model,
  };
}

function lowest(values: (number | null)[]): number | null {
  const nums = values.filter((v): v is number => typeof v === 'number');
  return nums.length ? Math.min(...nums) : null;
}

export function parseOtatwoRooms(payload: Json, ctx: OtatwoRoomsContext): OtatwoRooms {
  const grid = parseOfferGrid('otatwo', payload, { nights: ctx.nights });
  const rooms: OtatwoRoom[] = grid.units.map((u) => {
    const plans = u.rows.filter((r) => r.available).map(ratePlan);
    return { name: u.name, unit_id: u.unit_id, cheapest_rate: lowest(plans.map((p) => p.price)), rate_plans: plans };
  });
  const cheapest = lowest(rooms.map((r) => r.cheapest_rate));
  const currency = grid.currency;
  return {
    property_id: grid.property_id,
    check_in: grid.check_in,
    check_out: grid.check_out,
    nights: grid.nights,
    currency,
    requested_currency: ctx.requestedCurrency,
    currency_verified: grid.currency != null && grid.currency === ctx.requestedCurrency,
    available: cheapest != null,
    sold_out: grid.sold_out,
    cheapest_rate: cheapest,
    room_count: statedRooms(grid),
    rooms,
  };
}
