import type { Db, Statement, Tx } from '../db/client.js';
import { inSourceScope } from '../ops/outcomes.js';
import { scopeSources } from '../sources/context.js';
import { newUpstreamSession } from '../upstream/session.js';
import type { CacheOutcome, Tool, ToolContext, ToolServices } from './define-tool.js';
import { parseInput, type Location } from './validation.js';
import { Unfunded } from '../domain/errors.js';

export interface Meter {
  /** Whether the response is metered and carries the credit headers. */
  metered: boolean;
  /** Credits charged (0 until a metered call succeeds). */
  charged: number;
  /** Credits left after the charge; null when the key has no billing account or metering is off. */
  remaining: number | null;
  rateLimited: boolean;
  /**
   * The account to charge and the ledger note, once the handler succeeded; `requireFunds`: the
   * charge commits only while the balance covers it (a call paid from the balance, InvokeOptions.payment).
   */
  pending: { accountId: string; plan: string; note: string; requireFunds: boolean } | null;
  /** How the result cache answered (a hit is free); null for a call of an operation that is not cached. */
  cache: CacheOutcome | null;
  /** Statements the handler left to commit with the call's record (ToolContext.commitWithCall). */
  writes: ((tx: Db) => Statement)[];
  /** Work the handler left to commit in the door's transaction (ToolContext.commitWithDoor). */
  work: ((tx: Tx) => Promise<void>)[];
}

export function newMeter(): Meter {
  return { metered: false, charged: 0, remaining: null, rateLimited: false, pending: null, cache: null, writes: [], work: [] };
}

/**
 * Who calls, through which door, with what: a ToolContext before the call's scope is made. The
 * lifecycle (call.ts) has admitted it: its key found and its rate-limit slot taken, or the call is
 * a standing order (a watch's check).
 */
export interface Caller extends Omit<ToolContext, 'deps' | 'zeroRetention' | 'reportCharge' | 'cache' | 'commitWithCall' | 'commitWithDoor'> {
  deps: ToolServices;
  /** Ends the call's upstream work (its client hung up, its task was cancelled); an enclosing scope's signal (the deps' own) still applies. */
  signal?: AbortSignal;
}

/** How the door has a call validated and paid (call.ts passes the door's and the request's). */
export interface InvokeOptions {
  /** Where an input field came from, for validation errors. */
  locate: (key: string | undefined) => Location;
  /** The door's own bounds on the valid input, seen before anything is reserved or run. */
  checkInput?: (input: unknown) => void;
  /**
   * Under enforcement, how the call pays: `reserve` (default) holds its maximum and a concurrency
   * slot while it runs; `balance` (a batch item, the account's standing order) holds nothing, runs
   * only when the balance covers its maximum, and is charged only while the balance still covers
   * the charge (Unfunded otherwise).
   */
  payment?: 'reserve' | 'balance';
  /** The door settles the call in a transaction of its own (CallDoor.settle): the handler may leave work to it (ToolContext.commitWithDoor). */
  doorTransaction?: boolean;
}

/** zero_retention as the routes accept it: a JSON boolean, or the string of a query parameter. */
export function asksZeroRetention(input: unknown): boolean {
  const v = (input as { zero_retention?: unknown } | null)?.zero_retention;
  return v === true || v === 'true';
}

/** A call that asks to be fetched live: `cache: false` (the operations), `no_cache=true` (the compatible search's name). */
function asksLive(input: unknown): boolean {
  const v = input as { cache?: unknown; no_cache?: unknown } | null;
  return v?.cache === false || v?.cache === 'false' || v?.no_cache === true || v?.no_cache === 'true';
}

/**
 * The invoke step of a call's lifecycle (call.ts), for every door and a watch's check alike, after
 * admission: validate, reserve (when enforced), run, and work out the actual cost of a non-empty
 * success. Failures charge 0 and release what was reserved; the lifecycle's settle step then writes
 * the outcome. The handler runs in a session of its own (its upstream cookies stay within this
 * call), its upstream and website requests ended by the caller's signal. `checkInput` sees the
 * valid input before anything is reserved or run (a door's own bounds).
 * A cached operation (its descriptor's `cache`) runs through the result cache: an answer it did
 * not fetch (stored, or an identical call's in flight) is free and reserves nothing. A watch's check
 * is an observation of now: it is always fetched live.
 */
export async function invokeTool(tool: Tool, raw: unknown, caller: Caller, meter: Meter, how: InvokeOptions): Promise<unknown> {
  const { locate, checkInput, payment = 'reserve', doorTransaction = false } = how;
  const { deps, signal, ...who } = caller;
  const { key, requestId } = who;
  const mode = deps.config.CREDITS_MODE;
  const billed = tool.metered && mode !== 'off';
  meter.metered = billed;
  const input = parseInput(tool.input, raw, locate);
  checkInput?.(input);
  const zeroRetention = asksZeroRetention(input);
  const session = newUpstreamSession(zeroRetention ? null : { account_id: key.account_id, request_id: requestId });
  const account = billed && key.plan ? { accountId: key.account_id, plan: key.plan } : null;
  const enforced = mode === 'enforce' && account !== null;
  let reserved = false;
  const reserve = async () => {
    if (!enforced) return;
    const cost = tool.credits.max(input);
    if (payment === 'balance') {
      const left = await deps.credits.remaining(account.accountId, account.plan);
      if (left < cost) throw new Unfunded(cost, left);
      return;
    }
    await deps.credits.reserve(account.accountId, account.plan, requestId, cost);
    reserved = true;
  };
  // a cached operation reserves only when it fetches; the others (and the compatible search, which caches its operation inside) before they run
  const cachedHere = tool.cache !== null && !tool.cacheInHandler;
  const cache = deps.results.forCall({ requestId, zeroRetention, signal, beforeFetch: cachedHere ? reserve : undefined });
  const ctx: ToolContext = {
    ...who,
    zeroRetention,
    cache,
    deps: scopeSources(deps, { signal, session }),
    reportCharge: (charged, remaining) => settledByHandler(meter, charged, remaining),
    commitWithCall: (write) => void meter.writes.push(write),
    ...(doorTransaction ? { commitWithDoor: (work: (tx: Tx) => Promise<void>) => void meter.work.push(work) } : {}),
  };
  if (!cachedHere) await reserve();
  const live = asksLive(input) || who.transport === 'watch';
  let output: unknown;
  try {
    output = await inSourceScope(deps.ops.outcomes, async () =>
      cachedHere ? (await cache.run(tool, input, () => tool.handler(input, ctx), { bypass: live })).output : tool.handler(input, ctx),
    );
    // what belongs to this caller and moment (booking links), after the cache and never kept in it
    if (tool.finish) output = await tool.finish(output, ctx);
  } catch (err) {
    if (reserved) await deps.credits.release(requestId).catch(() => undefined);
    throw err;
  }
  meter.cache = cache.outcome;
  if (billed) meter.charged = cache.outcome?.hit ? 0 : Math.max(0, Math.round(tool.credits.actual(input, output)));
  if (account) meter.pending = { ...account, note: `${tool.method} ${tool.path}`, requireFunds: enforced && payment === 'balance' };
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

/** A failed call charges nothing and commits none of its handler's writes, whatever was worked out before it failed. */
export function failed(meter: Meter): void {
  meter.charged = 0;
  meter.pending = null;
  meter.cache = null;
  meter.writes = [];
  meter.work = [];
}
