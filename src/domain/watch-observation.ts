/**
 * What a watch sees (pure): the operations a watch can re-price, the answer of each as far as a
 * check reads it, and the observation the rules compare (every night, seller or source with its
 * price and provenance). src/core/watches/target.ts runs and validates the operations themselves.
 */
import type { Parity } from './parity.js';
import type { Disparity } from './parity-range.js';
import type { Provenance } from './provenance.js';

export const OPERATIONS = ['calendar', 'offers', 'compare', 'parity_range'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** One night (calendar), seller (offers) or source (compare) as a check saw it. */
export interface ObservedItem {
  key: string;
  available: boolean;
  total: number | null;
  currency: string | null;
  provenance: Provenance | null;
}

export interface Observation {
  /** The currency the rule's prices are in: the calendar's, the offers page's, the comparison's. */
  currency: string | null;
  cheapest: { key: string; total: number; currency: string; provenance: Provenance | null } | null;
  items: ObservedItem[];
  /** Sources this check could not read (a compare source that failed): neither changed nor gone. */
  unknown?: string[];
  parity: Parity | null;
  /** A parity range submitted, not finished yet: its check is settled when its batch finishes (src/core/watches/parity-watch.ts). */
  pending?: boolean;
}

/** What the operations answer, as far as a check reads it (their output schemas state the rest). */
interface Priced {
  total?: number | null;
  currency?: string | null;
  provenance?: Provenance | null;
}
interface StayAnswer {
  token?: string;
  check_in: string;
  check_out: string;
  nights: number;
  adults: number;
}
export interface OperationAnswer extends Partial<StayAnswer> {
  rates?: (Priced & { date: string; rate_total?: number | null })[];
  unpriced_dates?: string[];
  offers?: (Priced & { source: string })[];
  currency?: string | null;
  comparison_currency?: string | null;
  sources?: { source: string; status: string; offer: (Priced & { available: boolean }) | null; matched?: { name: string } | null }[];
  /** The hotel's name, where the answer states it (the offers page). */
  name?: string;
  parity?: Parity;
}

function cheapestOf(items: ObservedItem[], currency: string | null): Observation['cheapest'] {
  let best: Observation['cheapest'] = null;
  for (const i of items) {
    if (!i.available || i.total === null || !i.currency || (currency && i.currency !== currency)) continue;
    if (!best || i.total < best.total) best = { key: i.key, total: i.total, currency: i.currency, provenance: i.provenance };
  }
  return best;
}

/** The observation in an operation's answer (the shape its output schema states). */
export function observe(operation: Operation, output: OperationAnswer): Observation {
  // a range's answer comes when its batch finishes (disparityObservation)
  if (operation === 'parity_range') return { currency: null, cheapest: null, items: [], parity: null, pending: true };
  let items: ObservedItem[];
  let currency: string | null;
  if (operation === 'calendar') {
    items = (output.rates ?? []).map((r) => ({
      key: r.date,
      available: typeof r.rate_total === 'number',
      total: typeof r.rate_total === 'number' ? r.rate_total : null,
      currency: r.currency ?? null,
      provenance: r.provenance ?? null,
    }));
    for (const d of output.unpriced_dates ?? []) items.push({ key: d, available: false, total: null, currency: null, provenance: null });
    items.sort((a, b) => a.key.localeCompare(b.key));
    currency = items.find((i) => i.currency)?.currency ?? null;
  } else if (operation === 'offers') {
    items = (output.offers ?? []).map((o) => ({
      key: o.source,
      available: true,
      total: o.total ?? null,
      currency: o.currency ?? null,
      provenance: o.provenance ?? null,
    }));
    currency = output.currency ?? null;
  } else {
    const sources = output.sources ?? [];
    // the compared offers carry the currency the hotel states for its own site where its engine states none
    const compared = new Map((output.offers ?? []).map((o) => [o.source, o.currency ?? null]));
    items = sources.flatMap((s) =>
      s.status === 'ok' && s.offer
        ? [
            {
              key: s.source,
              available: s.offer.available && s.offer.total != null,
              total: s.offer.total ?? null,
              currency: s.offer.currency ?? compared.get(s.source) ?? null,
              provenance: s.offer.provenance ?? null,
            },
          ]
        : [],
    );
    currency = output.comparison_currency ?? null;
    const unknown = sources.filter((s) => s.status !== 'ok').map((s) => s.source);
    return { currency, cheapest: cheapestOf(items, currency), items, unknown, parity: output.parity ?? null };
  }
  return { currency, cheapest: cheapestOf(items, currency), items, parity: null };
}

/** A finished parity range as a watch sees it: each disparity (stay and agency, `date|los|source`) with the agency's price. */
export function disparityObservation(disparities: Disparity[]): Observation {
  const items = disparities.map((d) => ({
    key: `${d.date}|${d.los}|${d.source}`,
    available: true,
    total: d.agency_total,
    currency: d.currency,
    provenance: d.agency_provenance,
  }));
  return { currency: disparities[0]?.currency ?? null, cheapest: cheapestOf(items, null), items, parity: null };
}
