import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/client.js';
import { Limited } from '../domain/errors.js';
import { inSourceScope } from '../ops/outcomes.js';
import { historyInsert, type HistoryRecord } from '../platform/history.js';
import { scopeSources } from '../sources/context.js';
import { newUpstreamSession } from '../upstream/session.js';
import type { CacheOutcome, Tool, ToolContext } from './define-tool.js';
import type { ServiceDeps } from './service-deps.js';
import { parseInput, type Location } from './validation.js';

export interface Meter {
  /** How the result cache answered (a hit is free); null for a call of an operation that is not cached. */
  cache: CacheOutcome | null;
  /** Whether the response is metered and carries the credit headers. */
  metered: boolean;
  /** Credits charged (0 until a metered call succeeds). */
  charged: number;
  /** Credits left after the charge; null when the key has no billing account or metering is off. */
  remaining: number | null;
  rateLimited: boolean;
  /** The account to charge and the ledger note, once the handler succeeded. */
  pending: { accountId: string; plan: string; note: string } | null;
}

export function newMeter(): Meter {
  return { metered: false, charged: 0, remaining: null, rateLimited: false, pending: null, cache: null };
}

/** Who calls, through which door, with what: a ToolContext before the call's scope is made. */
export interface Caller extends Omit<ToolContext, 'deps' | 'zeroRetention' | 'cache'> {
  deps: ServiceDeps;
  /** Ends the call's upstream work: its client hung up (REST, MCP) or its task was cancelled. */
  signal: AbortSignal;
}

/** zero_retention as the routes accept it: a JSON boolean, or the string of a query parameter. */
export function asksZeroRetention(input: unknown): boolean {
  const v = (input as { zero_retention?: unknown } | null)?.zero_retention;
  return v === true || v === 'true';
}

/** A call that asks to be fetched live: `cache: false` (the operations), `no_cache=true` (the compatible search's name). */
export function asksLive(input: unknown): boolean {
  const v = input as { cache?: unknown; no_cache?: unknown } | null;
  return v?.cache === false || v?.cache === 'false' || v?.no_cache === true || v?.no_cache === 'true';
}

/**
 * The one path every call takes, REST or MCP: rate limit, validate, reserve (when
 * enforced), run, and work out the actual cost of a non-empty success. Failures
 * charge 0 and release what was reserved. `finishCall` then writes the outcome.
 * A cached operation (its descriptor's `cache`) runs through the result cache: an answer it did
 * not fetch (stored, or an identical call's in flight) is free and reserves nothing.
 * The handler runs in a session of its own (its upstream cookies stay within this call), its
 * upstream and website requests ended by the caller's signal.
 * `checkInput` sees the valid input before anything is reserved or run (a door's own bounds).
 */
export async function invokeTool(
  tool: Tool,
  raw: unknown,
  locate: (key: string | undefined) => Location,
  caller: Caller,
  meter: Meter,
  checkInput?: (input: unknown) => void,
): Promise<unknown> {
  const { deps, signal, ...who } = caller;
  const { key, requestId } = who;
  const mode = deps.config.CREDITS_MODE;
  const billed = tool.metered && mode !== 'off';
  meter.metered = billed;
  if (key.admitted === false) {
    meter.rateLimited = true;
    throw new Limited(`rate limit ${key.rate_limit_per_min}/min exceeded`, true);
  }
  if (key.admitted === undefined) {
    if (!(await deps.platform.limiter.take(key.rateBucket ?? key.id, key.rate_limit_per_min))) {
      meter.rateLimited = true;
      throw new Limited(`rate limit ${key.rate_limit_per_min}/min exceeded`, true);
    }
  }
  const input = parseInput(tool.input, raw, locate);
  checkInput?.(input);
  const zeroRetention = asksZeroRetention(input);
  const session = newUpstreamSession(zeroRetention ? null : { account_id: key.account_id, request_id: requestId });
  const account = billed && key.plan ? { accountId: key.account_id, plan: key.plan } : null;
  const enforced = mode === 'enforce' && account !== null;
  let reserved = false;
  const reserve = async () => {
    if (!enforced) return;
    await deps.credits.reserve(account.accountId, account.plan, requestId, tool.credits.max(input));
    reserved = true;
  };
  // a cached operation reserves only when it fetches; the others (and the compatible search, which caches its operation inside) before they run
  const cachedHere = tool.cache !== null && !tool.cacheInHandler;
  const cache = deps.results.forCall({ requestId, zeroRetention, signal, beforeFetch: cachedHere ? reserve : undefined });
  const ctx: ToolContext = { ...who, zeroRetention, cache, deps: scopeSources(deps, { signal, session }) };
  if (!cachedHere) await reserve();
  let output: unknown;
  try {
    output = await inSourceScope(deps.ops.outcomes, async () =>
      cachedHere ? (await cache.run(tool, input, () => tool.handler(input, ctx), { bypass: asksLive(input) })).output : tool.handler(input, ctx),
    );
  } catch (err) {
    if (reserved) await deps.credits.release(requestId).catch(() => undefined);
    throw err;
  }
  meter.cache = cache.outcome;
  if (billed) meter.charged = cache.outcome?.hit ? 0 : Math.max(0, Math.round(tool.credits.actual(input, output)));
  if (account) meter.pending = { ...account, note: `${tool.method} ${tool.path}` };
  return output;
}

/** A failed call charges nothing, whatever was worked out before it failed. */
export function failed(meter: Meter): void {
  meter.charged = 0;
  meter.pending = null;
  meter.cache = null;
}

/**
 * Records the call: with a charge pending, the charge, the reservation release and the
 * history row go in one statement; otherwise the history row alone. `sql`: the caller's transaction
 * when the outcome commits with more (an MCP task's result).
 */
export async function finishCall(deps: Pick<ServiceDeps, 'sql' | 'platform' | 'credits'>, meter: Meter, record: CallRecord, sql: Sql | TransactionSql = deps.sql): Promise<void> {
  const history: HistoryRecord = { ...record, credits: meter.charged, rate_limited: meter.rateLimited, cache_hit: meter.cache?.hit === true };
  const charge = meter.pending ? { ...meter.pending, requestId: record.id, amount: meter.charged } : null;
  if (sql === deps.sql) {
    const remaining = await deps.platform.calls.write({ history, charge });
    if (charge) meter.remaining = remaining;
    return;
  }
  if (!charge) {
    await historyInsert(sql as Sql, history);
    return;
  }
  meter.remaining = await deps.credits.settleCall(charge, history, sql);
}

/** What a call's history row says, before its charge is known. */
export type CallRecord = Omit<HistoryRecord, 'credits' | 'rate_limited' | 'cache_hit'>;
