/**
 * The room grid of the travel group's GraphQL `propertyOffers` reply, shared by `otatwo`,
 * `otathree` and `rentalone` (one platform family, one document shape). Each
 * `ratePlans[].priceDetails[]` entry is one way of selling the plan, so a plan sold pay-now and
 * pay-at-property yields two rows.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, at, bool, obj, stringText, type Json } from '../../domain/json.js';
import { PAYMENT_MODELS, dateFromParts, nightsBetween, parseDisplayedAmount, withTaxesAndFees, type OtaOffer, type PaymentModel } from '../shared/offer.js';

export type OfferGridAlias = 'otatwo' | 'otathree' | 'rentalone';

/** Where the parts of the document live. */
const PATH = {
  root: (p: Json) => at(p, 'data', 'propertyOffers'),
  lead: (pd: Json) => at(pd, 'price', 'lead'),
  key: (pd: Json) => (Array.isArray(at(pd, 'propertyNaturalKeys')) ? at(pd, 'propertyNaturalKeys', 0) : null),
} as const;

const TAXES_INCLUDED = /\b(includes|including|with)\s+taxes\s*(&|and)\s*fees\b/i;
const ALL_FEES_INCLUDED = /\ball fees included\b/i;
const PER_NIGHT = /\bnight(ly)?\b/i;
const TOTAL_WORD = /\btotal\b/i;

export interface OfferGridRow extends OtaOffer {
  /** The card's lead price and its text, whatever it represents on this point of sale. */
  lead: number | null;
  lead_text: string;
  /** Local date-time of the free-cancellation deadline, as the reply states it; empty when none. */
  refundable_until: string;
  available: boolean;
  /** Rooms the prices cover, from the reply's natural key. */
  room_count: number;
}

interface OfferGridUnit {
  unit_id: string;
  name: string;
  /** The unit's own unavailability message (e.g. "We are sold out"); empty when it sells. */
  unavailable_text: string;
  rows: OfferGridRow[];
}

export interface OfferGrid {
  property_id: string;
  /** The reply's own `soldOut`; null when it does not state one. */
  sold_out: boolean | null;
  check_in: string | null;
  check_out: string | null;
  nights: number | null;
  /** Currency read back from the first priced row; null when nothing is priced. */
  currency: string | null;
  /** The page's own headline price text (sticky bar); empty when absent. */
  sticky_bar_text: string;
  error_message: string | null;
  units: OfferGridUnit[];
}

export interface OfferGridContext {
  /** Used only when the reply carries no dates. */
  nights?: number;
}

/** The group's own `<BRAND>_COLLECT` value loses its brand; HOTEL_COLLECT stays. */
export function neutralBusinessModel(raw: Json): string {
  const v = stringText(raw).toUpperCase();
  if (!v) return '';
  if (v === 'HOTEL_COLLECT') return v;
  if (/^[A-Z]+_COLLECT$/.test(v)) return 'OTA_COLLECT';
  return v;
}

function hotelCollect(raw: Json): boolean | null {
  const v = stringText(raw).toUpperCase();
  if (v === 'HOTEL_COLLECT') return true;
  if (/^[A-Z]+_COLLECT$/.test(v)) return false;
  return null;
}

function refundable(policyType: Json): boolean | null {
  const v = stringText(policyType).toUpperCase();
  if (!v) return null;
  if (v.startsWith('NON_REFUNDABLE')) return false;
  if (v.startsWith('REFUNDABLE')) return true;
  return null;
}

function displayValues(price: Json): { role: string; state: string; value: string }[] {
  const out: { role: string; state: string; value: string }[] = [];
  for (const m of arr(price, 'displayMessages')) {
    for (const li of arr(m, 'lineItems')) {
      const value = stringText(li, 'value') || stringText(li, 'price', 'formatted');
      if (value) out.push({ role: stringText(li, 'role'), state: stringText(li, 'state'), value });
    }
  }
  return out;
}

function cancellationWindow(pd: Json): string {
  const w = obj(pd, 'cancellationPolicy', 'cancellationWindow');
  const date = dateFromParts(w);
  if (!date) return '';
  const hour = w?.hour;
  if (typeof hour !== 'number') return date;
  const pad = (n: number) => String(n).padStart(2, '0');
  const minute = w?.minute;
  return `${date}T${pad(hour)}:${pad(typeof minute === 'number' ? minute : 0)}`;
}

function planMessages(rp: Json, pd: Json): { messages: string[]; cancellation: string } {
  const messages: string[] = [];
  let cancellation = '';
  for (const hm of arr(rp, 'highlightedMessages')) {
    const trigger = stringText(hm, 'trigger', 'value');
    if (trigger) messages.push(trigger);
    const first = stringText(hm, 'content', 0);
    if (!cancellation && first && /cancel|refund/i.test(first)) cancellation = first;
    if (!cancellation && trigger && /refund/i.test(trigger)) {
      const second = stringText(hm, 'trigger', 'secondaryValue');
      cancellation = second ? `${trigger} (${second})` : trigger;
    }
  }
  const badge = stringText(rp, 'badge', 'text');
  if (badge) messages.push(badge);
  const scarcity = stringText(pd, 'availability', 'scarcityMessage');
  if (scarcity) messages.push(scarcity);
  return { messages, cancellation };
}

function paymentModel(raw: Json): PaymentModel {
  const v = stringText(raw).toUpperCase() as PaymentModel;
  return PAYMENT_MODELS.includes(v) ? v : '';
}

function rowFrom(
  rp: Json,
  pd: Json,
  unitId: string,
  fallbackNights: number | null,
): { row: OfferGridRow; nights: number | null; checkIn: string | null; checkOut: string | null } {
  const key = PATH.key(pd);
  const lead = PATH.lead(pd);
  const price = at(pd, 'price');
  const values = displayValues(price);
  const checkIn = dateFromParts(at(key, 'checkIn'));
  const checkOut = dateFromParts(at(key, 'checkOut'));
  const nights = nightsBetween(checkIn, checkOut) ?? fallbackNights;
  const rooms = arr(key, 'rooms');
  const roomCount = rooms.length > 0 ? rooms.length : 1;

  const totalMsg = values.find((v) => v.role !== 'LEAD' && v.role !== 'STRIKEOUT' && TOTAL_WORD.test(v.value));
  const statedTotal = at(price, 'total', 'amount');
  const stated = typeof statedTotal === 'number' ? statedTotal : null;
  const total = stated ?? (totalMsg ? parseDisplayedAmount(totalMsg.value) : null);
  const leadAmountStated = at(lead, 'amount');
  const leadAmount = typeof leadAmountStated === 'number' ? leadAmountStated : null;
  const leadText = stringText(lead, 'formatted') || stringText(price, 'options', 0, 'formattedDisplayPrice');
  const nightQualifier = [stringText(price, 'roomNightMessage'), ...arr(price, 'priceMessages').map((m) => stringText(m, 'value'))].join(' ');
  const leadIsNightly = PER_NIGHT.test(nightQualifier);

  const strike = at(price, 'strikeOut');
  const strikeAmount = at(strike, 'amount');
  const strikeText =
    typeof strikeAmount === 'number' && strikeAmount > 0 ? stringText(strike, 'formatted') : (values.find((v) => v.role === 'STRIKEOUT')?.value ?? '');

  const { messages, cancellation } = planMessages(rp, pd);
  const extrasText = arr(rp, 'amenities')
    .map((a) => stringText(a, 'description'))
    .filter(Boolean)
    .join(', ');
  const memberOnly = stringText(pd, 'dynamicRateRule', 'discountType') === 'MEMBER_DEAL' || stringText(rp, 'badge', 'theme_temp') === 'DEAL_MEMBER';
  const allText = values.map((v) => v.value).join(' | ');

  const offer: OfferGridRow = {
    plan_id: stringText(rp, 'id') || stringText(key, 'ratePlanId'),
    room_type_id: stringText(pd, 'roomTypeId') || stringText(key, 'roomTypeId') || unitId,
    total,
    nightly: leadIsNightly ? leadAmount : null,
    taxes_and_fees: null,
    currency: stringText(lead, 'currencyInfo', 'code') || null,
    total_text: totalMsg?.value ?? '',
    nightly_text: leadIsNightly ? leadText : '',
    taxes_and_fees_included: TAXES_INCLUDED.test(allText) ? true : null,
    fees_included: ALL_FEES_INCLUDED.test(allText) ? true : null,
    payment_model: paymentModel(at(pd, 'paymentModel')),
    hotel_collect: hotelCollect(at(key, 'businessModelType')),
    member_only: memberOnly,
    refundable: refundable(at(pd, 'cancellationPolicy', 'type')),
    cancellation_text: cancellation,
    extras: extrasText || null,
    extras_text: extrasText,
    strikeout_text: strikeText,
    inventory_type: stringText(key, 'inventoryType'),
    business_model: neutralBusinessModel(at(key, 'businessModelType')),
    messages,
    lead: leadAmount,
    lead_text: leadText,
    refundable_until: cancellationWindow(pd),
    available: at(pd, 'availability', 'available') !== false,
    room_count: roomCount,
  };
  return { row: withTaxesAndFees(offer, nights, roomCount), nights, checkIn, checkOut };
}

/** Parses `data.propertyOffers`; throws UpstreamContractChanged when that object is missing. */
export function parseOfferGrid(alias: OfferGridAlias, payload: Json, ctx: OfferGridContext = {}): OfferGrid {
  const root = PATH.root(payload);
  if (!root || typeof root !== 'object') throw new UpstreamContractChanged(alias, 'data.propertyOffers');
  const single = at(root, 'singleUnitOffer');
  const units = arr(root, 'units');
  if (!Array.isArray(at(root, 'units')) && !single) throw new UpstreamContractChanged(alias, 'propertyOffers.units');

  const grid: OfferGrid = {
    property_id: stringText(root, 'id'),
    sold_out: bool(root, 'soldOut'),
    check_in: null,
    check_out: null,
    nights: ctx.nights ?? null,
    currency: null,
    sticky_bar_text: stringText(root, 'stickyBar', 'displayPrice'),
    error_message: stringText(root, 'errorMessage', 'title') || stringText(root, 'errorMessage', 'value') || stringText(root, 'errorMessage') || null,
    units: [],
  };

  const sources: { id: string; name: string; unavailable: string; plans: unknown[] }[] = units.map((u) => ({
    id: stringText(u, 'id'),
    name: stringText(u, 'header', 'text'),
    unavailable: stringText(u, 'availabilityCallToAction', 'value'),
    plans: arr(u, 'ratePlans'),
  }));
  const singlePlans = arrOrNull(single, 'ratePlans');
  if (single && singlePlans) {
    sources.push({ id: stringText(single, 'id') || grid.property_id, name: stringText(single, 'header', 'text'), unavailable: '', plans: singlePlans });
  }

  for (const src of sources) {
    const rows: OfferGridRow[] = [];
    for (const rp of src.plans) {
      for (const pd of arr(rp, 'priceDetails')) {
        const r = rowFrom(rp, pd, src.id, ctx.nights ?? null);
        rows.push(r.row);
        grid.check_in ??= r.checkIn;
        grid.check_out ??= r.checkOut;
        if (r.nights != null && r.checkIn) grid.nights = r.nights;
        if (!grid.currency && r.row.currency) grid.currency = r.row.currency;
      }
    }
    grid.units.push({ unit_id: src.id, name: src.name, unavailable_text: src.unavailable, rows });
  }
  return grid;
}

/** Rooms the bookable rows' prices cover, as the reply's keys state them (null when none is bookable or they differ). */
export function statedRooms(grid: OfferGrid): number | null {
  const counts = new Set(bookableRows(grid).map((r) => r.room_count));
  return counts.size === 1 ? ([...counts][0] as number) : null;
}

/** Rows that can be booked, across all units. */
export function bookableRows(grid: OfferGrid): OfferGridRow[] {
  return grid.units.flatMap((u) => u.rows.filter((r) => r.available));
}

/** Strips the grid-only fields, leaving the spec's offer object. */
export function toOffer(row: OfferGridRow): OtaOffer {
  const { lead: _l, lead_text: _lt, refundable_until: _ru, available: _a, room_count: _rc, ...offer } = row;
  return offer;
}
