/**
 * What a watch re-prices: an existing operation named by `operation`, with that operation's own
 * input. A check runs the operation through the call lifecycle (call.ts runStandingCall), so it validates, costs and
 * answers exactly as a call of that route; this module finds the operation, checks a target
 * against its schema and turns a one-stay answer into stored rates of the account.
 */
import { InvalidInput, type ValidationIssue } from '../../domain/errors.js';
import { marketForCurrency, pricingMarket } from '../../domain/markets.js';
import type { Provenance } from '../../domain/provenance.js';
import type { Observation, Operation, OperationAnswer } from '../../domain/watch-observation.js';
import type { StayRate } from '../../platform/stored-rates.js';
import type { Tool } from '../define-tool.js';
import { asksZeroRetention } from '../invoke.js';
import { inputHazards, toValidationIssues } from '../validation.js';

/** The operation each target names: its tool (the route a check runs). */
const OPERATION_TOOLS: Record<Operation, { name: string; route: string }> = {
  calendar: { name: 'get_hotel_calendar', route: 'POST /v1/calendar' },
  offers: { name: 'get_hotel_offers', route: 'POST /v1/offers' },
  compare: { name: 'compare_hotel_prices', route: 'POST /v1/ota/compare' },
  parity_range: { name: 'run_parity_range', route: 'POST /v1/compsets/{compset_id}/parity' },
};

export function targetTool(tools: Tool[], operation: Operation): Tool {
  const tool = tools.find((t) => t.name === OPERATION_TOOLS[operation].name);
  if (!tool) throw new Error(`watch target ${operation}: its operation is not served`);
  return tool;
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
    throw new InvalidInput([
      {
        type: 'value_error',
        loc: ['body', 'target', 'zero_retention'],
        msg: 'A watch must remember what it sees (its checks are stored rates of the account): zero_retention is refused',
        input: input.zero_retention,
      },
    ]);
  }
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) throw new InvalidInput(under(toValidationIssues(parsed.error.issues, input, locate)));
  return parsed.data;
}

/**
 * The hotel an event names: its property token (calendar, offers) and its name where the answer or
 * the target states one (the offers page's name; compare: the caller's `hotel`, else the name a
 * source's search matched); null where none does.
 */
export function hotelOf(watch: { target: Record<string, unknown> }, output: OperationAnswer | null) {
  const t = watch.target;
  const matched = output?.sources?.find((s) => s.matched)?.matched?.name ?? null;
  const name = output?.name ?? (typeof t.hotel === 'string' ? t.hotel : null) ?? matched;
  return { property_token: typeof t.property_token === 'string' ? t.property_token : null, name: name || null };
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
  const row = (
    token: string,
    market: string,
    item: { total: number | null; currency: string; provenance: Provenance | null },
    extra: Record<string, unknown>,
  ): StayRate => ({
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
    .map((i) =>
      row(
        `${i.key}:${i.provenance!.source_property_id}`,
        i.provenance!.requested_market ?? 'US',
        { total: i.available ? i.total : null, currency: i.currency!, provenance: i.provenance },
        { source: i.key },
      ),
    );
}
