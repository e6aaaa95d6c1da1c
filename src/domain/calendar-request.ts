import { z } from 'zod';
import { countryLower, currency, futureDate } from './codes.js';
import { addDays, todayUtc } from './dates.js';
import { PRICING_MARKET_CODES, pricingMarket, marketForCurrency } from './markets.js';

/** Fields of one calendar request: POST /v1/calendar and each item of POST /v1/jobs. */
export const calendarRequestShape = {
  token: z.string().min(8).max(400).describe('property token from resolve_hotel (POST /v1/search)'),
  market: z.enum(PRICING_MARKET_CODES).optional().describe('pricing market; sets gl and the default tax basis'),
  country: countryLower.optional().describe('gl override, normally set by market'),
  currency: currency.optional(),
  days: z.int().min(1).max(330).default(90).describe('check-in dates from start'),
  start: futureDate.optional().describe('first check-in date; default tomorrow'),
  adults: z.int().min(1).max(8).default(2).describe('adult guests'),
  los: z.int().min(1).max(30).default(1).describe('nights per quote'),
  rates_include_tax: z.boolean().optional().describe('prices with taxes; default per market'),
  is_hostel: z.boolean().default(false).describe('price the property as a hostel'),
  probe_min_stay: z.boolean().default(true).describe('probe unpriced nights at longer stays'),
  basis: z.enum(['cheapest', 'mainstream']).default('cheapest').describe('cheapest seller, or also the cheapest major OTA'),
  verify_sources: z.int().min(0).max(5).default(0).describe('nights spot-checked on the offers page'),
  label: z.string().max(200).optional().describe('your label, echoed'),
};

export const CalendarRequest = z.strictObject(calendarRequestShape);
export type CalendarRequestInput = z.output<typeof CalendarRequest>;

/** The request as echoed on a job item: every default applied, market and currency resolved. */
export interface NormalizedCalendarRequest {
  token: string;
  market: string;
  gl: string;
  currency: string;
  days: number;
  start: string;
  adults: number;
  los: number;
  rates_include_tax: boolean;
  is_hostel: boolean;
  probe_min_stay: boolean;
  basis: 'cheapest' | 'mainstream';
  verify_sources: number;
  label: string | null;
}

export function normalizeCalendarRequest(r: CalendarRequestInput, now = new Date()): NormalizedCalendarRequest {
  const market = pricingMarket(r.market ?? '') ?? (r.currency ? marketForCurrency(r.currency) : undefined) ?? pricingMarket('US')!;
  return {
    token: r.token,
    market: market.code,
    gl: r.country ?? market.gl,
    currency: r.currency ?? market.currency,
    days: r.days,
    start: r.start ?? addDays(todayUtc(now), 1),
    adults: r.adults,
    los: r.los,
    rates_include_tax: r.rates_include_tax ?? market.rates_include_tax,
    is_hostel: r.is_hostel,
    probe_min_stay: r.probe_min_stay,
    basis: r.basis,
    verify_sources: r.verify_sources,
    label: r.label ?? null,
  };
}

/**
 * The request a stored rate was kept under (market, currency and tax basis as a calendar of this
 * property, party and stay length resolves them): what reads of stored rates and rate history key on.
 */
export function storedRatesRequest(r: Pick<CalendarRequestInput, 'token' | 'market' | 'currency' | 'adults' | 'los'>): NormalizedCalendarRequest {
  return normalizeCalendarRequest({ ...r, days: 1, is_hostel: false, probe_min_stay: false, basis: 'cheapest', verify_sources: 0 });
}

/**
 * The normalized request as a calendar call's input again (a batch item runs as a call of
 * POST /v1/calendar, whose schema reads it): normalizeCalendarRequest gives it back unchanged.
 */
export function calendarInputOf(r: NormalizedCalendarRequest): Record<string, unknown> {
  const { gl, label, ...fields } = r;
  return { ...fields, country: gl, ...(label === null ? {} : { label }) };
}

/** Spec: 5, plus 3 per night with basis mainstream, plus 3 per verify_sources spot-check. */
export function calendarCost(r: Pick<NormalizedCalendarRequest, 'basis' | 'days' | 'verify_sources'>): number {
  return 5 + (r.basis === 'mainstream' ? 3 * r.days : 0) + 3 * r.verify_sources;
}

/**
 * What a collected calendar is charged: nothing when no night priced; else 5, plus 3 per night
 * the mainstream basis actually checked and 3 per spot-check that answered.
 */
export function calendarCharge(
  r: Pick<NormalizedCalendarRequest, 'basis'>,
  result: { rates: Record<string, unknown>[]; source_check?: Record<string, unknown> },
): number {
  if (!result.rates.length) return 0;
  const mainstream = r.basis === 'mainstream' ? result.rates.filter((x) => 'rate_mainstream_total' in x && !('mainstream_error' in x)).length : 0;
  const checks = Number(result.source_check?.checked ?? 0);
  return 5 + 3 * mainstream + 3 * checks;
}
