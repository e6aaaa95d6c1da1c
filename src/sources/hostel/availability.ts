/**
 * Hostel site availability for one property and stay
 * (`.../legacy-hwapi-service/2.2/properties/{id}/availability/?date-start=&num-nights=&number-of-guests=&currency=`):
 * dorm and private rooms, each with rate plans priced per stay, per night on average and per date.
 * Dorm prices are per bed.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, isObject, numeric, text, type Json } from '../../domain/json.js';

interface HostelNightPrice {
  date: string;
  price: number | null;
}

interface HostelRateOffer {
  rate_plan_id: string;
  /** e.g. depositPayable, nonRefundable. */
  payment_procedure: string;
  payment_label: string;
  is_default: boolean;
  /** false only for the non-refundable procedure; null when the procedure does not say. */
  refundable: boolean | null;
  currency: string | null;
  total: number | null;
  original_total: number | null;
  average_per_night: number | null;
  original_average_per_night: number | null;
  nights: HostelNightPrice[];
  /** Promotion discount as the site states it (e.g. "5.00"); null when none. */
  promotion_discount: string | null;
}

interface HostelRoom {
  room_id: string;
  name: string;
  kind: 'dorm' | 'private';
  capacity: number | null;
  beds_available: number | null;
  rooms_available: number | null;
  guests_per_room: number | null;
  offers: HostelRateOffer[];
}

export interface HostelAvailability {
  property_id: string;
  currency: string | null;
  deposit_percentage: number | null;
  free_cancellation_until: string | null;
  lowest_price_per_night: number | null;
  lowest_dorm_price_per_night: number | null;
  lowest_private_price_per_night: number | null;
  /** Stay rules the request broke (e.g. minimum nights), as the site lists them. */
  stay_rule_violations: unknown[];
  rooms: HostelRoom[];
}

function byPlan(list: Json, plan: Json): Json {
  return arr(list).find((x) => at(x, 'ratePlan') === plan) ?? null;
}

function room(r: Json, kind: 'dorm' | 'private'): HostelRoom {
  const offers: HostelRateOffer[] = arr(r, 'ratePlans').map((rp) => {
    const planId = at(rp, 'id');
    const total = byPlan(at(r, 'totalPrice'), planId);
    const avg = byPlan(at(r, 'averagePricePerNight'), planId);
    const procedure = text(rp, 'paymentProcedure', 'id');
    return {
      rate_plan_id: text(planId),
      payment_procedure: procedure,
      payment_label: text(rp, 'paymentProcedure', 'label'),
      is_default: at(rp, 'isDefault') === true,
      refundable: procedure === 'nonRefundable' ? false : null,
      currency: text(total, 'price', 'currency') || null,
      total: numeric(total, 'price', 'value'),
      original_total: numeric(total, 'originalPrice', 'value'),
      average_per_night: numeric(avg, 'price', 'value'),
      original_average_per_night: numeric(avg, 'originalPrice', 'value'),
      nights: arr(r, 'priceBreakdown')
        .filter((b) => at(b, 'ratePlan') === planId)
        .map((b) => ({ date: text(b, 'date'), price: numeric(b, 'price', 'value') })),
      promotion_discount: text(rp, 'promotions', 'totalDiscount') || null,
    };
  });
  return {
    room_id: text(r, 'id'),
    name: text(r, 'name'),
    kind,
    capacity: numeric(r, 'capacity'),
    beds_available: numeric(r, 'totalBedsAvailable'),
    rooms_available: numeric(r, 'totalRoomsAvailable'),
    guests_per_room: numeric(r, 'numberOfGuestsPerRoom'),
    offers,
  };
}

export function parseHostelAvailability(payload: Json): HostelAvailability {
  const rooms = at(payload, 'rooms');
  const dorms = at(rooms, 'dorms');
  const privates = at(rooms, 'privates');
  if (!isObject(payload) || !Array.isArray(dorms) || !Array.isArray(privates)) {
    throw new UpstreamContractChanged('hostel', 'rooms.{dorms,privates}');
  }
  return {
    property_id: text(payload.id),
    currency: text(payload, 'lowestPricePerNight', 'currency') || null,
    deposit_percentage: numeric(payload.depositPercentage),
    free_cancellation_until: text(payload.freeCancellationAvailableUntil) || null,
    lowest_price_per_night: numeric(payload, 'lowestPricePerNight', 'value'),
    lowest_dorm_price_per_night: numeric(payload, 'lowestDormPricePerNight', 'value'),
    lowest_private_price_per_night: numeric(payload, 'lowestPrivatePricePerNight', 'value'),
    stay_rule_violations: arr(payload.stayRuleViolations),
    rooms: [...arr(dorms).map((r) => room(r, 'dorm')), ...arr(privates).map((r) => room(r, 'private'))],
  };
}
