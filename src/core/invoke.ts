import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/client.js';
import { Limited } from '../domain/errors.js';
import { inSourceScope } from '../ops/outcomes.js';
import { historyInsert, type HistoryRecord } from '../platform/history.js';
import { scopeSources } from '../sources/context.js';
import { newUpstreamSession } from '../upstream/session.js';
import type { Tool, ToolContext, ToolServices } from './define-tool.js';
import type { ServiceDeps } from './service-deps.js';
import { parseInput, type Location } from './validation.js';

export interface Meter {
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
  return { metered: false, charged: 0, remaining: null, rateLimited: false, pending: null };
}

/** Who runs an operation already admitted (a watch's check): a ToolContext before the call's scope is made. */
export interface AdmittedCaller extends Omit<ToolContext, 'deps' | 'zeroRetention' | 'reportCharge'> {
  deps: ToolServices;
  /** Ends the call's upstream work; an enclosing scope's signal (the deps' own) still applies. */
  signal?: AbortSignal;
}

/** Who calls, through which door, with what: a ToolContext before the call's scope is made. */
export interface Caller extends AdmittedCaller {
  deps: ServiceDeps;
  /** Ends the call's upstream work: its client hung up (REST, MCP) or its task was cancelled. */
  signal: AbortSignal;
}

/** zero_retention as the routes accept it: a JSON boolean, or the string of a query parameter. */
export function asksZeroRetention(input: unknown): boolean {
  const v = (input as { zero_retention?: unknown } | null)?.zero_retention;
  return v === true || v === 'true';
}

/**
 * The one path every call takes, REST or MCP: rate limit, validate, reserve (when
 * enforced), run, and work out the actual cost of a non-empty success. Failures
 * charge 0 and release what was reserved. `finishCall` then writes the outcome.
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
  const { deps, key } = caller;
  meter.metered = tool.metered && deps.config.CREDITS_MODE !== 'off';
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
  return runAdmitted(tool, raw, locate, caller, meter, checkInput);
}

/**
 * The one path after admission: validate, reserve (when enforced), run, and work out the actual
 * cost of a non-empty success. invokeTool runs it for every door's call; a watch's check runs it
 * directly (its schedule is the account's standing order, a check asked for was admitted as its own call).
 */
export async function runAdmitted(
  tool: Tool,
  raw: unknown,
  locate: (key: string | undefined) => Location,
  caller: AdmittedCaller,
  meter: Meter,
  checkInput?: (input: unknown) => void,
): Promise<unknown> {
  const { deps, signal, ...who } = caller;
  const { key, requestId } = who;
  const mode = deps.config.CREDITS_MODE;
  const billed = tool.metered && mode !== 'off';
  meter.metered = billed;
  const input = parseInput(tool.input, raw, locate);
  checkInput?.(input);
  const zeroRetention = asksZeroRetention(input);
  const session = newUpstreamSession(zeroRetention ? null : { account_id: key.account_id, request_id: requestId });
  const ctx: ToolContext = { ...who, zeroRetention, deps: scopeSources(deps, { signal, session }), reportCharge: (charged, remaining) => settledByHandler(meter, charged, remaining) };
  const account = billed && key.plan ? { accountId: key.account_id, plan: key.plan } : null;
  const enforced = mode === 'enforce' && account !== null;
  if (enforced) await deps.credits.reserve(account.accountId, account.plan, requestId, tool.credits.max(input));
  let output: unknown;
  try {
    output = await inSourceScope(deps.ops.outcomes, () => tool.handler(input, ctx));
  } catch (err) {
    if (enforced) await deps.credits.release(requestId).catch(() => undefined);
    throw err;
  }
  if (billed) meter.charged = Math.max(0, Math.round(tool.credits.actual(input, output)));
  if (account) meter.pending = { ...account, note: `${tool.method} ${tool.path}` };
  return output;
}

/**
 * The handler committed its charge with its own outcome (a watch check): the answer carries it in
 * the credit headers, and nothing is pending for the door to charge again.
 */
function settledByHandler(meter: Meter, charged: number, remaining: number | null): void {
  meter.metered = true;
  meter.charged = charged;
  meter.remaining = remaining;
  meter.pending = null;
}

/** A failed call charges nothing, whatever was worked out before it failed. */
export function failed(meter: Meter): void {
  meter.charged = 0;
  meter.pending = null;
}

/**
 * Records the call: with a charge pending, the charge, the reservation release and the
 * history row go in one statement; otherwise the history row alone. `sql`: the caller's transaction
 * when the outcome commits with more (an MCP task's result).
 */
export async function finishCall(deps: Pick<ServiceDeps, 'sql' | 'platform' | 'credits'>, meter: Meter, record: CallRecord, sql: Sql | TransactionSql = deps.sql): Promise<void> {
  if (sql !== deps.sql) return finishCallIn(deps, meter, record, sql);
  const charge = meter.pending ? { ...meter.pending, requestId: record.id, amount: meter.charged } : null;
  const remaining = await deps.platform.calls.write({ history: historyOf(meter, record), charge });
  if (charge) meter.remaining = remaining;
}

/** Records the call inside the caller's transaction, committed with the rest of its outcome (an MCP task's result, a watch's check). */
export async function finishCallIn(deps: Pick<ToolServices, 'credits'>, meter: Meter, record: CallRecord, tx: Sql | TransactionSql): Promise<void> {
  const history = historyOf(meter, record);
  if (!meter.pending) {
    await historyInsert(tx as Sql, history);
    return;
  }
  meter.remaining = await deps.credits.settleCall({ ...meter.pending, requestId: record.id, amount: meter.charged }, history, tx);
}

function historyOf(meter: Meter, record: CallRecord): HistoryRecord {
  return { ...record, credits: meter.charged, rate_limited: meter.rateLimited };
}

/** What a call's history row says, before its charge is known. */
export type CallRecord = Omit<HistoryRecord, 'credits' | 'rate_limited'>;
