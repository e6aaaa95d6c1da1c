/**
 * Calendar rows and the checks derived from them. Pure: every figure is read from the
 * upstream rate block or computed from figures read there, and says how.
 */
import type { NormalizedCalendarRequest } from '../../../domain/calendar-request.js';
import { addDays, nightsBetween } from '../../../domain/dates.js';
import { buildProvenance, type Provenance } from '../../../domain/provenance.js';
import type { EgressMode } from '../../../upstream/egress.js';
import type { RateRecord } from '../hotels/parse-property.js';

export interface CalendarRow {
  [key: string]: unknown;
  date: string;
  check_in: string;
  check_out: string;
  nights: number;
  currency: string | null;
  /** All-in stay total for `nights` nights, as the source states it. */
  rate_total: number | null;
  rate_base: number | null;
  rate_taxes: number | null;
  rate_fees: number | null;
  rate_before_taxes_with_fees: number | null;
  /** Per night on the requested tax basis. */
  rate_per_night: number | null;
  rate_per_person?: number | null;
  /** Set on rows filled by the minimum-stay probe: the stay length that priced. */
  min_length_of_stay?: number;
  provenance: Provenance;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface RowContext {
  request: NormalizedCalendarRequest;
  collectionId: string;
  observedAt: Date;
  egressMode: EgressMode;
}

/**
 * One row per priced check-in. A row from the minimum-stay probe priced a longer stay (`los`
 * nights): its per-night figure is that stay's total divided by its nights, and its totals are
 * scaled to the requested length of stay — both marked in the provenance derivation.
 */
export function calendarRow(date: string, rate: RateRecord, ctx: RowContext, probedLos: number | null = null): CalendarRow {
  const r = ctx.request;
  const stayNights = probedLos ?? rate.nights ?? r.los;
  const scale = probedLos ? r.los / probedLos : 1;
  const total = rate.total_exact ?? rate.total;
  const scaled = (n: number | null) => (n === null ? null : round2(n * scale));
  const base = scaled(rate.before_taxes_total);
  const fees = scaled(rate.fees);
  const rateTotal = scaled(total);
  const basisFigure = r.rates_include_tax ? rateTotal : base;
  const perNight = basisFigure === null ? null : round2(basisFigure / r.los);
  const checkOut = addDays(date, r.los);
  const row: CalendarRow = {
    date,
    check_in: date,
    check_out: checkOut,
    nights: r.los,
    currency: rate.currency,
    rate_total: rateTotal,
    rate_base: base,
    rate_taxes: scaled(rate.taxes),
    rate_fees: fees,
    rate_before_taxes_with_fees: base !== null && fees !== null ? round2(base + fees) : null,
    rate_per_night: perNight,
    provenance: buildProvenance({
      source: 'metasearch',
      sourceKind: 'calendar',
      collector: 'metasearch-calendar-rpc',
      sourcePropertyId: r.token,
      checkIn: date,
      checkOut: stayNights === r.los ? checkOut : addDays(date, stayNights),
      adults: r.adults,
      collectionId: ctx.collectionId,
      observedAt: ctx.observedAt,
      requestedMarket: r.market,
      requestedCurrency: r.currency,
      returnedCurrency: rate.currency,
      egressMode: ctx.egressMode,
      priceBasis: 'stay_total_including_taxes_and_fees',
      derivation: probedLos ? 'min_stay_total_divided_by_nights' : 'upstream',
      upstreamRateId: null,
    }),
  };
  if (r.is_hostel) row.rate_per_person = rateTotal === null ? null : round2(rateTotal / r.adults);
  if (probedLos) row.min_length_of_stay = probedLos;
  return row;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Effective tax profile of the returned nights: taxes and fees as shares of the base. */
export function taxProfile(rows: CalendarRow[], request: NormalizedCalendarRequest) {
  const split = rows.filter((r) => r.rate_base !== null && r.rate_base > 0 && r.rate_taxes !== null && r.rate_fees !== null);
  const [head] = split;
  if (!head) return null;
  const share = (pick: (r: CalendarRow) => number) => {
    const m = median(split.map((r) => pick(r) / (r.rate_base as number)));
    return m === null ? null : Math.round(m * 10_000) / 10_000;
  };
  return {
    currency: head.currency,
    nights_with_split: split.length,
    taxes_share_of_base: share((r) => r.rate_taxes as number),
    fees_share_of_base: share((r) => r.rate_fees as number),
    rates_include_tax: request.rates_include_tax,
  };
}

/** Plausibility checks on the returned rows. */
export function validateRows(rows: CalendarRow[], requestedCurrency: string) {
  const totals = rows.map((r) => r.rate_total).filter((n): n is number => n !== null);
  const mid = median(totals);
  return {
    rows: rows.length,
    non_positive: totals.filter((t) => t <= 0).length,
    split_mismatch: rows.filter(
      (r) =>
        r.rate_total !== null &&
        r.rate_base !== null &&
        r.rate_taxes !== null &&
        r.rate_fees !== null &&
        Math.abs(r.rate_base + r.rate_taxes + r.rate_fees - r.rate_total) > Math.max(1, r.nights),
    ).length,
    outliers: mid === null ? 0 : totals.filter((t) => t > mid * 4 || t < mid / 4).length,
    currency_mismatch: rows.filter((r) => r.currency !== null && r.currency !== requestedCurrency).length,
    median_total: mid === null ? null : round2(mid),
  };
}

/** How far out the property sells, from the priced nights. */
export function bookingWindow(rows: CalendarRow[], request: NormalizedCalendarRequest, today: string) {
  const first = rows[0]?.date;
  const last = rows.at(-1)?.date;
  if (first === undefined || last === undefined) return undefined;
  return {
    first_priced_date: first,
    last_priced_date: last,
    last_priced_days_out: nightsBetween(today, last),
    requested_last_date: addDays(request.start, request.days - 1),
    sells_through_requested_horizon: last === addDays(request.start, request.days - 1),
  };
}
