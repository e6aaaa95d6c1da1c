/**
 * What a watch re-prices: an existing operation named by `operation`, with that operation's own
 * input. A check runs the operation through the kernel (invokeTool), so it validates, costs and
 * answers exactly as a call of that route; this module turns each operation's answer into the
 * observation the rules compare (every night, seller or source with its price and provenance) and
 * into the stored rates of the account.
 */
import { marketForCurrency, pricingMarket } from '../domain/markets.js';
import { InvalidInput, type ValidationIssue } from '../domain/errors.js';
import type { Tool } from '../core/define-tool.js';
import { asksZeroRetention } from '../core/invoke.js';
import { inputHazards, toValidationIssues } from '../core/validation.js';
import type { Parity } from '../sources/shared/parity.js';
import type { Provenance } from '../domain/provenance.js';
import type { StayRate } from '../platform/stored-rates.js';

export const OPERATIONS = ['calendar', 'offers', 'compare'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The operation each target names: its tool (the route a check runs). */
export const OPERATION_TOOLS: Record<Operation, { name: string; route: string }> = {
  calendar: { name: 'get_hotel_calendar', route: 'POST /v1/calendar' },
  offers: { name: 'get_hotel_offers', route: 'POST /v1/offers' },
  compare: { name: 'compare_hotel_prices', route: 'POST /v1/ota/compare' },
};

export function targetTool(tools: Tool[], operation: Operation): Tool {
  const tool = tools.find((t) => t.name === OPERATION_TOOLS[operation].name);
  if (!tool) throw new Error(`watch target ${operation}: its operation is not served`);
  return tool;
}

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
}

/**
 * The target as stored: the operation's input, checked now against the operation's own schema
 * (problems located under body.target), so that a watch never holds a target its operation refuses.
 * Returns the parsed input (for the cost of one check).
 */
export function validateTarget(tool: Tool, input: Record<string, unknown>): unknown {
  const locate = () => 'body' as const;
  const under = (issues: ValidationIssue[]) => issues.map((i) => ({ ...i, loc: [i.loc[0], 'target', ...i.loc.slice(1)] }));
  const hazards = inputHazards(input, locate);
  if (hazards.length) throw new InvalidInput(under(hazards));
  if (asksZeroRetention(input)) {
    throw new InvalidInput([{ type: 'value_error', loc: ['body', 'target', 'zero_retention'], msg: 'A watch must remember what it sees (its checks are stored rates of the account): zero_retention is refused', input: input.zero_retention }]);
  }
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) throw new InvalidInput(under(toValidationIssues(parsed.error.issues, input, locate)));
  return parsed.data;
}

/** What the three operations answer, as far as a check reads it (their output schemas state the rest). */
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
  sources?: { source: string; status: string; offer: (Priced & { available: boolean }) | null }[];
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
    items = (output.offers ?? []).map((o) => ({ key: o.source, available: true, total: o.total ?? null, currency: o.currency ?? null, provenance: o.provenance ?? null }));
    currency = output.currency ?? null;
  } else {
    const sources = output.sources ?? [];
    items = sources.flatMap((s) =>
      s.status === 'ok' && s.offer
        ? [{ key: s.source, available: s.offer.available && s.offer.total != null, total: s.offer.total ?? null, currency: s.offer.currency ?? null, provenance: s.offer.provenance ?? null }]
        : [],
    );
    currency = output.comparison_currency ?? null;
    const unknown = sources.filter((s) => s.status !== 'ok').map((s) => s.source);
    return { currency, cheapest: cheapestOf(items, currency), items, unknown, parity: output.parity ?? null };
  }
  return { currency, cheapest: cheapestOf(items, currency), items, parity: null };
}

/**
 * Stored rates of a one-stay check (offers, compare); a calendar check stores its nights itself,
 * as POST /v1/calendar does. Offers: the stay's cheapest seller under the property token. Compare:
 * each source's stay under `<source>:<its property id>`, in the point of sale it was asked for (US
 * where the source takes none). Prices without a stated currency are not stored (rates are keyed by currency).
 */
export function stayRates(operation: Operation, input: Record<string, unknown>, output: OperationAnswer, observation: Observation): StayRate[] {
  if (operation === 'calendar' || !output.check_in || !output.check_out || !output.nights || !output.adults) return [];
  const stay = { check_in: output.check_in, check_out: output.check_out, nights: output.nights, adults: output.adults };
  const row = (token: string, market: string, item: { total: number | null; currency: string; provenance: Provenance | null }, extra: Record<string, unknown>): StayRate => ({
    token,
    market,
    currency: item.currency,
    adults: stay.adults,
    los: stay.nights,
    stay_date: stay.check_in,
    rate_total: item.total,
    rate: { date: stay.check_in, ...stay, currency: item.currency, rate_total: item.total, ...extra, provenance: item.provenance },
  });
  if (operation === 'offers') {
    const c = observation.cheapest;
    if (!c) return [];
    const market = (pricingMarket(typeof input.market === 'string' ? input.market : '') ?? marketForCurrency(c.currency) ?? pricingMarket('US')!).code;
    return output.token ? [row(output.token, market, c, { seller: c.key })] : [];
  }
  return observation.items
    .filter((i) => i.currency && i.provenance)
    .map((i) => row(`${i.key}:${i.provenance!.source_property_id}`, i.provenance!.requested_market ?? 'US', { total: i.available ? i.total : null, currency: i.currency!, provenance: i.provenance }, { source: i.key }));
}
