/**
 * get_hotel_calendar as an agent gets it: a summary it can act on (the cheapest nights, min /
 * median / max per week or month and overall, the nights that do not sell or only sell longer) and,
 * on request (nights: "list"), one line per night without per-night provenance. 330 nights in lines
 * stay within an agent's budget; a calendar past 180 nights runs as an MCP task for clients that
 * take tasks, and its result is the same answer.
 */
import { z } from 'zod';
import type { McpView } from '../../src/core/define-tool.js';

interface Rate {
  date: string;
  currency: string | null;
  rate_total: number | null;
  nights: number;
  min_length_of_stay?: number;
  [k: string]: unknown;
}
interface Calendar {
  token: string;
  collection_id: string;
  observed_at: string;
  market: string;
  requested_days: number;
  tax_profile: Record<string, unknown> | null;
  unpriced_dates: string[];
  booking_window?: Record<string, unknown>;
  basis_applied?: string;
  source_check?: Record<string, unknown>;
  rates: Rate[];
}

const Stats = { priced: z.int(), min: z.number().nullable(), median: z.number().nullable(), max: z.number().nullable() };
const Night = z.looseObject({ date: z.string(), rate_total: z.number().nullable() });

const HotelCalendarView = z.object({
  property_token: z.string(),
  market: z.string(),
  currency: z.string().nullable(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  nights_requested: z.int(),
  ...Stats,
  cheapest: z.array(z.object({ date: z.string(), rate_total: z.number() })).describe('cheapest first'),
  periods: z.array(z.object({ from: z.string(), to: z.string(), ...Stats })),
  unavailable: z.array(z.string()),
  longer_stay_only: z.array(z.object({ date: z.string(), min_length_of_stay: z.int() })),
  booking_window: z.record(z.string(), z.unknown()).nullable(),
  tax_profile: z.record(z.string(), z.unknown()).nullable(),
  basis_applied: z.string().nullable(),
  source_check: z.record(z.string(), z.unknown()).nullable(),
  nights: z.array(Night).optional().describe('with nights "list"'),
  collection_id: z.string(),
  observed_at: z.string(),
});
type View = z.infer<typeof HotelCalendarView>;
/** The calendar as an agent gets it (its structuredContent), which the calendar app renders. */
export type HotelCalendarAnswer = View;

function stats(values: number[]): { priced: number; min: number | null; median: number | null; max: number | null } {
  if (!values.length) return { priced: 0, min: null, median: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { priced: values.length, min: sorted[0], median: Math.round(median * 100) / 100, max: sorted.at(-1)! };
}

/** The week (Monday first) or month a date falls in, as its first date. */
function periodStart(date: string, period: 'week' | 'month'): string {
  if (period === 'month') return `${date.slice(0, 7)}-01`;
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

function periods(rates: Rate[], period: 'week' | 'month'): View['periods'] {
  const groups = new Map<string, Rate[]>();
  for (const r of rates) {
    const key = periodStart(r.date, period);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((g) => ({
    from: g[0].date,
    to: g.at(-1)!.date,
    ...stats(g.map((r) => r.rate_total).filter((n): n is number => n !== null)),
  }));
}

/**
 * A night's line: the row as REST gives it, without its provenance, the fields the summary states
 * once (currency) and those that repeat others (check-in is the date; before-taxes-with-fees is base
 * plus fees; a one-night stay's nightly rate is its total).
 */
function line(r: Rate): z.infer<typeof Night> {
  const { provenance: _p, check_in: _ci, check_out: _co, currency: _c, rate_before_taxes_with_fees: _bf, ...rest } = r;
  if (r.nights === 1) {
    delete rest.rate_per_night;
    delete (rest as Partial<Rate>).nights;
  }
  return rest;
}

export const hotelCalendarView: McpView<unknown, Calendar> = {
  args: {
    nights: z.enum(['summary', 'list']).default('summary').describe('"list" adds one line per night (about 30 tokens each)'),
    period: z.enum(['week', 'month']).optional().describe('grouping of the statistics; default week up to 92 nights, else month'),
  },
  output: HotelCalendarView,
  shape(o, args) {
    const rates = [...o.rates].sort((a, b) => a.date.localeCompare(b.date));
    const priced = rates.filter((r): r is Rate & { rate_total: number } => r.rate_total !== null);
    const period = (args.period as 'week' | 'month' | undefined) ?? (o.requested_days <= 92 ? 'week' : 'month');
    const view: View = {
      property_token: o.token,
      market: o.market,
      currency: rates.find((r) => r.currency)?.currency ?? null,
      first_date: rates[0]?.date ?? null,
      last_date: rates.at(-1)?.date ?? null,
      nights_requested: o.requested_days,
      ...stats(priced.map((r) => r.rate_total)),
      cheapest: [...priced]
        .sort((a, b) => a.rate_total - b.rate_total || a.date.localeCompare(b.date))
        .slice(0, 5)
        .map((r) => ({ date: r.date, rate_total: r.rate_total })),
      periods: periods(rates, period),
      unavailable: o.unpriced_dates,
      longer_stay_only: rates
        .filter((r) => r.min_length_of_stay !== undefined && r.min_length_of_stay > 1)
        .map((r) => ({ date: r.date, min_length_of_stay: r.min_length_of_stay! })),
      booking_window: o.booking_window ?? null,
      tax_profile: o.tax_profile,
      basis_applied: o.basis_applied ?? null,
      source_check: o.source_check ?? null,
      ...(args.nights === 'list' ? { nights: rates.map(line) } : {}),
      collection_id: o.collection_id,
      observed_at: o.observed_at,
    };
    return view;
  },
};

export function hotelCalendarSummary(a: Record<string, unknown>): string {
  const v = a as View;
  if (!v.priced) return `No night priced from ${v.first_date ?? 'the start'} (${v.nights_requested} requested).`;
  const best = v.cheapest[0];
  return `${v.priced} of ${v.nights_requested} nights priced ${v.first_date} → ${v.last_date}: ${v.min}–${v.max} ${v.currency ?? ''} (median ${v.median}); cheapest ${best.date} at ${best.rate_total}; ${v.unavailable.length} unavailable.`;
}

/** A night's line: its date, price and what else the night states (taxes, fees, minimum stay …). */
function nightLine(n: z.infer<typeof Night>): string {
  const { date, rate_total, ...rest } = n;
  const extra = Object.entries(rest).filter(([, x]) => x !== null && x !== undefined);
  return `- ${date}: ${rate_total ?? 'unpriced'}${extra.length ? ` ${JSON.stringify(Object.fromEntries(extra))}` : ''}`;
}

/** The text block's lines: the calendar's facts, then every cheapest night, period and (with nights "list") night on a line of its own. */
export function hotelCalendarText(a: Record<string, unknown>): string[] {
  const v = a as View;
  const { cheapest, periods, nights, collection_id: _c, observed_at: _o, ...head } = v;
  const facts = Object.fromEntries(Object.entries(head).filter(([, x]) => x !== null && !(Array.isArray(x) && !x.length)));
  return [
    JSON.stringify(facts),
    `cheapest nights (${cheapest.length}), stay total in ${v.currency ?? 'the currency stated'}:`,
    ...cheapest.map((c) => `- ${c.date}: ${c.rate_total}`),
    `periods (${periods.length}), min/median/max:`,
    ...periods.map((p) => `- ${p.from} → ${p.to}: ${p.min ?? '-'}/${p.median ?? '-'}/${p.max ?? '-'} (${p.priced} priced)`),
    ...(nights ? [`nights (${nights.length}):`, ...nights.map(nightLine)] : []),
  ];
}
