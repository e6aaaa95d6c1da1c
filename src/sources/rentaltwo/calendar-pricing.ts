/**
 * Which calendar days can be quoted, which are chosen under `price_nights`, and the summary of
 * the result. Pure: the fetch runs the chosen quotes and fills their outcome in.
 */
import { addDays } from '../../domain/dates.js';
import type { RentaltwoCalendarDay, RentaltwoCalendarMonth } from './calendar.js';

export const PRICE_STATUSES = [
  'priced',
  'not_sampled',
  'quote_cap_reached',
  'not_requested',
  'unavailable',
  'past',
  'check_in_not_allowed',
  'check_out_not_allowed',
  'stay_blocked',
  'stay_exceeds_max_nights',
  'quote_refused',
  /** The quote answered for another stay length than asked; not reported under the asked dates. */
  'stay_mismatch',
  'no_price',
  'quote_failed',
  'quote_skipped',
] as const;
export type PriceStatus = (typeof PRICE_STATUSES)[number];

export type PriceNights = 'none' | 'sample' | 'all';

export interface QuoteCandidate {
  date: string;
  checkOut: string;
  nights: number;
}

export interface DayPlan {
  status: PriceStatus | 'selected';
  candidate?: QuoteCandidate;
}

/**
 * Why a day cannot be quoted, or the stay to quote. The stay is `stayNights` when given, else the
 * day's own minimum stay (1 when the calendar states none). A checkout beyond the returned months
 * cannot be checked, so that stay is not requested.
 */
function planDay(day: RentaltwoCalendarDay, byDate: Map<string, RentaltwoCalendarDay>, today: string, stayNights?: number): DayPlan {
  if (day.date < today) return { status: 'past' };
  if (!day.is_available) return { status: 'unavailable' };
  if (!day.is_available_for_checkin) return { status: 'check_in_not_allowed' };
  const nights = stayNights ?? day.min_nights ?? 1;
  if (day.max_nights != null && nights > day.max_nights) return { status: 'stay_exceeds_max_nights' };
  const checkOut = addDays(day.date, nights);
  for (let i = 1; i < nights; i++) {
    const night = byDate.get(addDays(day.date, i));
    if (!night) return { status: 'not_requested' };
    if (!night.is_available) return { status: 'stay_blocked' };
  }
  const out = byDate.get(checkOut);
  if (!out) return { status: 'not_requested' };
  if (!out.is_available_for_checkout) return { status: 'check_out_not_allowed' };
  return { status: 'selected', candidate: { date: day.date, checkOut, nights } };
}

/** Indices of `cap` items spread evenly over `n` (all of them when n <= cap). */
function spread(n: number, cap: number): number[] {
  if (n <= cap) return Array.from({ length: n }, (_, i) => i);
  const out = new Set<number>();
  for (let i = 0; i < cap; i++) out.add(Math.floor((i * n) / cap));
  return [...out];
}

/** Plans every day and marks the ones that lose out to the quote cap. */
export function planCalendar(
  months: RentaltwoCalendarMonth[],
  opts: { today: string; mode: Exclude<PriceNights, 'none'>; cap: number; stayNights?: number },
): Map<string, DayPlan> {
  const days = months.flatMap((m) => m.days);
  const byDate = new Map(days.map((d) => [d.date, d]));
  const plans = new Map(days.map((d) => [d.date, planDay(d, byDate, opts.today, opts.stayNights)]));
  const valid = days.filter((d) => plans.get(d.date)?.status === 'selected').map((d) => d.date);
  const chosen = new Set(opts.mode === 'all' ? valid.slice(0, opts.cap) : spread(valid.length, opts.cap).map((i) => valid[i]));
  for (const date of valid) {
    if (!chosen.has(date)) plans.set(date, { status: opts.mode === 'all' ? 'quote_cap_reached' : 'not_sampled' });
  }
  return plans;
}

export interface PriceSummary {
  days: number;
  available: number;
  available_for_checkin: number;
  bookable: number;
  priced: number;
  min_price_per_night?: number;
  max_price_per_night?: number;
  median_price_per_night?: number;
  price_status: Partial<Record<PriceStatus, number>>;
}

export function summarize(
  days: {
    is_available: boolean;
    is_available_for_checkin: boolean;
    is_bookable: boolean;
    price_status?: PriceStatus;
    price?: { extracted_price_per_night?: number };
  }[],
): PriceSummary {
  const perNight = days
    .map((d) => d.price?.extracted_price_per_night)
    .filter((v): v is number => typeof v === 'number')
    .sort((a, b) => a - b);
  const counts: Partial<Record<PriceStatus, number>> = {};
  for (const d of days) if (d.price_status) counts[d.price_status] = (counts[d.price_status] ?? 0) + 1;
  const out: PriceSummary = {
    days: days.length,
    available: days.filter((d) => d.is_available).length,
    available_for_checkin: days.filter((d) => d.is_available_for_checkin).length,
    bookable: days.filter((d) => d.is_bookable).length,
    priced: counts.priced ?? 0,
    price_status: counts,
  };
  const [min, max] = [perNight[0], perNight.at(-1)];
  if (min !== undefined && max !== undefined) {
    const mid = Math.floor(perNight.length / 2);
    const median = perNight.length % 2 ? perNight[mid]! : (perNight[mid - 1]! + perNight[mid]!) / 2;
    out.min_price_per_night = min;
    out.max_price_per_night = max;
    out.median_price_per_night = Math.round(median * 100) / 100;
  }
  return out;
}
