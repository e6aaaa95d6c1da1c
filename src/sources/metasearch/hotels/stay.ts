/**
 * Stay and market arithmetic shared by the hotel operations: dates from check-in plus check-out or
 * nights, the currency and country a request is priced in, and the default stay used where the
 * contract prices a property without asking for dates ("the stay dates priced are transport only").
 */
import { addDays, nightsBetween, todayUtc } from '../../../domain/dates.js';
import { marketForCurrency, pricingMarket, type PricingMarket } from '../../../domain/markets.js';
import { BadRequest } from '../../../domain/errors.js';

/** Days ahead of today of the stay used when the caller gives no dates (one night). */
const TRANSPORT_STAY_LEAD_DAYS = 14;

export interface StayDates {
  checkIn: string;
  checkOut: string;
  nights: number;
}

/** check_out wins over nights; a check-out on or before check-in is a 400. */
export function stayDates(checkIn: string, checkOut: string | null | undefined, nights: number): StayDates {
  if (checkOut) {
    const n = nightsBetween(checkIn, checkOut);
    if (n < 1) throw new BadRequest('check_out must be after check_in');
    return { checkIn, checkOut, nights: n };
  }
  return { checkIn, checkOut: addDays(checkIn, nights), nights };
}

/** A one-night stay TRANSPORT_STAY_LEAD_DAYS ahead (UTC). */
export function transportStay(now: Date = new Date()): StayDates {
  const checkIn = addDays(todayUtc(now), TRANSPORT_STAY_LEAD_DAYS);
  return { checkIn, checkOut: addDays(checkIn, 1), nights: 1 };
}

export interface PricingContext {
  /** Pricing market, when given or derived from the currency. */
  market: PricingMarket | null;
  currency: string;
  /** Lowercase country sent as `gl`. */
  gl: string;
  ratesIncludeTax: boolean | null;
}

/** market → gl, currency and tax convention; omitted market → the currency's market; omitted both → US, USD. */
export function pricingContext(market: string | null | undefined, currency: string | null | undefined): PricingContext {
  const m = market ? (pricingMarket(market) ?? null) : currency ? (marketForCurrency(currency) ?? null) : (pricingMarket('US') ?? null);
  return {
    market: m,
    currency: currency ?? m?.currency ?? 'USD',
    gl: (m?.code ?? 'US').toLowerCase(),
    ratesIncludeTax: m?.rates_include_tax ?? null,
  };
}
