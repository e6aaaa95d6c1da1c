/**
 * The rate shop's grid (pure): for each check-in date × length of stay of a shop, each property of
 * the competitor set with the all-in stay total its calendar answer stated for exactly that stay
 * (the cheapest seller's, with that price's provenance), the own hotel's rank among the priced
 * properties (1 = cheapest) and its difference to the median of the competitors priced that night.
 * Nothing is filled in: a property without a stated price is null there, says why (`state`) and
 * counts in no rank or median.
 */
import type { Provenance } from './provenance.js';
import { addDays } from './dates.js';

export interface ShopProperty {
  property_token: string;
  name: string;
  own: boolean;
}

/** One calendar of the shop (a job item): a property at one length of stay. */
export interface ShopCalendar {
  property_token: string;
  los: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** The calendar's nights (succeeded items only; the calendar service's rows). */
  rates: { date: string; nights: number; rate_total: number | null; currency: string | null; provenance: Provenance }[];
}

/** Why a cell holds the price it holds, or none. */
export type CellState = 'priced' | 'unavailable' | 'failed' | 'pending';

interface GridCell {
  property_token: string;
  name: string;
  own: boolean;
  state: CellState;
  total: number | null;
  currency: string | null;
  /** The seller of that price: the metasearch calendar names none, so null. */
  seller: string | null;
  provenance: Provenance | null;
}

export interface GridRow {
  date: string;
  los: number;
  /** The currency ranks and the median compare in: the own hotel's, else the first priced property's. */
  currency: string | null;
  own_total: number | null;
  /** 1 = the cheapest priced property; null when the own hotel has no price. */
  own_rank: number | null;
  /** Properties priced in `currency` (the own hotel included). */
  priced: number;
  competitors_median: number | null;
  diff_to_median: number | null;
  diff_to_median_pct: number | null;
  cells: GridCell[];
}

const cents = (n: number) => Math.round(n * 100) / 100;

function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : cents((s[mid - 1] + s[mid]) / 2);
}

/** The shop's check-in dates. */
export function shopDates(start: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(start, i));
}

type Rate = ShopCalendar['rates'][number];

function cell(p: ShopProperty, calendar: ShopCalendar | undefined, rate: Rate | undefined): GridCell {
  const base = { property_token: p.property_token, name: p.name, own: p.own, seller: null };
  if (rate && typeof rate.rate_total === 'number' && rate.currency) {
    return { ...base, state: 'priced', total: rate.rate_total, currency: rate.currency, provenance: rate.provenance };
  }
  const state: CellState =
    !calendar || calendar.status === 'queued' || calendar.status === 'running' ? 'pending' : calendar.status === 'failed' ? 'failed' : 'unavailable';
  return { ...base, state, total: null, currency: null, provenance: null };
}

/** The grid, date by date then length by length, properties in the set's order (own first). */
export function shopGrid(properties: ShopProperty[], dates: string[], lengths: number[], calendars: ShopCalendar[]): GridRow[] {
  const calendarOf = new Map<string, ShopCalendar>();
  const rateOf = new Map<string, Rate>();
  for (const c of calendars) {
    calendarOf.set(`${c.property_token}|${c.los}`, c);
    // only a quote for exactly this stay: a night probed at a longer minimum stay is another stay
    for (const r of c.rates) if (r.nights === c.los) rateOf.set(`${c.property_token}|${c.los}|${r.date}`, r);
  }
  const rows: GridRow[] = [];
  for (const date of dates) {
    for (const los of lengths) {
      const cells = properties.map((p) => cell(p, calendarOf.get(`${p.property_token}|${los}`), rateOf.get(`${p.property_token}|${los}|${date}`)));
      const own = cells.find((c) => c.own) ?? null;
      const currency = own?.currency ?? cells.find((c) => c.currency)?.currency ?? null;
      const same = cells.filter((c) => c.total !== null && c.currency === currency);
      const med = median(same.filter((c) => !c.own).map((c) => c.total!));
      const ownTotal = own && own.total !== null && own.currency === currency ? own.total : null;
      rows.push({
        date,
        los,
        currency,
        own_total: ownTotal,
        own_rank: ownTotal === null ? null : 1 + same.filter((c) => !c.own && c.total! < ownTotal).length,
        priced: same.length,
        competitors_median: med,
        diff_to_median: ownTotal !== null && med !== null ? cents(ownTotal - med) : null,
        diff_to_median_pct: ownTotal !== null && med ? Math.round(((ownTotal - med) / med) * 1000) / 10 : null,
        cells,
      });
    }
  }
  return rows;
}

/** The grid's CSV columns: one line per date, length of stay and property. */
export const GRID_CSV_HEADER = [
  'date',
  'los',
  'property_token',
  'name',
  'own',
  'state',
  'total',
  'currency',
  'seller',
  'own_rank',
  'competitors_median',
  'diff_to_median',
  'diff_to_median_pct',
  'observation_id',
  'observed_at',
  'source',
] as const;

export function gridCsvRows(rows: GridRow[]): (string | number | boolean | null)[][] {
  return rows.flatMap((r) =>
    r.cells.map((c) => [
      r.date,
      r.los,
      c.property_token,
      c.name,
      c.own,
      c.state,
      c.total,
      c.currency,
      c.seller,
      r.own_rank,
      r.competitors_median,
      r.diff_to_median,
      r.diff_to_median_pct,
      c.provenance?.observation_id ?? null,
      c.provenance?.observed_at ?? null,
      c.provenance?.source ?? null,
    ]),
  );
}
