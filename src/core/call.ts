/**
 * One call's lifecycle, the same for every door, a watch's check and a calendar batch's item:
 * admit → meter → invoke → settle → record.
 *
 * - admit: the door names its caller (REST authenticates here; MCP, a task, a watch's check
 *   and a batch item bring theirs), then the call takes its key's rate-limit slot when the door did not;
 * - meter: one Meter per call says what is charged, what the cache answered and what commits with it;
 * - invoke: validation, reservation, the operation through the result cache or its own handler
 *   (invoke.ts);
 * - settle: the charge, its ledger row and the history row commit before the answer leaves, on their
 *   own or in the door's transaction with what commits with them (an MCP task's result, a watch's
 *   check, a batch item's result); an answer whose charge could not be written becomes the error it is, and settles as that;
 * - record: the call's metrics.
 *
 * The doors, the watch schedule and the batch worker only translate: they say how their caller is found, how an
 * answer and a failure look on their wire and how big they are, and what commits beside the call;
 * any change to billing, history or the cache decision lands here (or in invoke.ts, its invoke
 * step) and nowhere else.
 */
import { sendTransaction, type Tx } from '../db/client.js';
import { ClientClosed, Limited, toApiError, Unfunded, type ApiError } from '../domain/errors.js';
import { recordCall } from '../ops/ops.js';
import { callStatement, type CallOutcome } from '../platform/call-writer.js';
import type { PeriodLeft } from '../platform/credits.js';
import type { CallHistory } from '../platform/history.js';
import type { Tool, ToolServices } from './define-tool.js';
import { failed, invokeTool, newMeter, type Caller, type InvokeOptions, type Meter } from './invoke.js';
import type { ServiceDeps } from './service-deps.js';
import type { Location } from './validation.js';

/** What a call's history row says, before its charge is known: the request id, the key and its account. */
type CallRecord = Omit<CallHistory, 'credits' | 'rate_limited' | 'cache_hit'> & { id: string; account_id: string };

/** A door's answer: its status and its body as the door sends it. */
export interface Reply<B> {
  status: number;
  body: B;
}

/** Writes the call's charge, its ledger row and its history row (and the handler's writes and work) in `tx`. */
export type CommitCall = (tx: Tx) => Promise<void>;

/** What one door says of its calls; everything else is the lifecycle's. */
export interface CallDoor<B> {
  /** The door's name in the call's context and in the metrics. */
  transport: 'rest' | 'mcp' | 'watch' | 'batch';
  /** What the history row names (REST: the method and the operation's path; MCP: "MCP" and the tool's name). */
  route: { method: string; path: string };
  /** The status of a successful call on this door. */
  status: number;
  /** Milliseconds since the call arrived (default: since the lifecycle began). */
  elapsedMs?: () => number;
  /** The answer as the door sends it. */
  answer(output: unknown, meter: Meter): B;
  /** A failure as the door sends it (`err`: what was thrown, for the door's log; a client that hung up: ClientClosed). */
  failure(api: ApiError, err: unknown): Reply<B>;
  /** What goes out, in bytes, for the history row. */
  bytes(body: B): number;
  /** What the ledger says the credits paid for (default: the operation's method and path). */
  chargeNote?: string;
  /**
   * Where the charge and the history row commit when not on their own: the door opens its
   * transaction, runs `commit` in it beside what commits with the call (an MCP task's result, a
   * watch's check), or leaves it out to keep nothing of the call (the task was cancelled meanwhile).
   * Runs once with the final reply; a success whose settle throws becomes the failure it is and
   * settles once more as that.
   */
  settle?: (commit: CommitCall, reply: Reply<B>, meter: Meter) => Promise<void>;
  /** False: the call's metrics are its enclosing call's (a watch's check asked for through its route), or not an operation call's (a batch item). */
  recorded?: boolean;
  /** False: the call files no history row of its own (a batch item: its job's call has one). */
  history?: boolean;
  /** How it pays under enforcement (InvokeOptions.payment); `balance` only on runStandingCall, whose settle can still refuse. */
  payment?: InvokeOptions['payment'];
}

/** Who calls, as the door found them; the lifecycle adds the process's dependencies and the door's name. */
type Admitted = Omit<Caller, 'deps' | 'transport' | 'signal'>;

export interface CallRequest<D extends ToolServices = ServiceDeps> {
  deps: D;
  tool: Tool;
  /** Ends the call's upstream work: its client hung up (REST, MCP) or its task was cancelled. */
  signal?: AbortSignal;
  /**
   * Who calls: REST authenticates here. A failure is answered and counted in the metrics but
   * files no history row (there is no key to file it under).
   */
  admit(): Admitted | Promise<Admitted>;
  /** The input as the door read it; what it throws is invalid input. */
  input(): unknown;
  /** Where an input field came from, for validation errors (default: the body). */
  locate?: (key: string | undefined) => Location;
  /** The door's own bounds on the valid input, seen before anything is reserved or run. */
  checkInput?: (input: unknown) => void;
  /** An error the door found before the call (an unreadable body or path): answered once the caller is known. */
  refused?: ApiError;
}

export interface CallResult<B> extends Reply<B> {
  meter: Meter;
  /** The failure answered, when the call failed. */
  error: ApiError | null;
  /** What the settle step threw when even the failure could not be written (the door may retry the call later). */
  unsettled: Error | null;
}

const inBody = (): Location => 'body';

/** Runs one call of a door through its whole lifecycle; never throws (a failure is the door's failure reply). */
export function runCall<B>(door: CallDoor<B>, call: CallRequest): Promise<CallResult<B>> {
  const { deps } = call;
  return lifecycle(door, call, {
    take: (key) => deps.platform.limiter.take(key.rateBucket ?? key.id, key.rate_limit_per_min),
    settle: door.settle ?? ((_commit, _reply, meter, record) => settleCall(deps, meter, record)),
  });
}

/**
 * The same lifecycle for a call the account already stands behind and that commits with its own
 * work (a watch's check: asked for as its own call, or the account's standing order; a batch item): it runs on
 * the tool services, takes no rate-limit slot, and settles in the door's transaction.
 */
export function runStandingCall<B>(door: CallDoor<B> & Required<Pick<CallDoor<B>, 'settle'>>, call: CallRequest<ToolServices>): Promise<CallResult<B>> {
  return lifecycle(door, call, { take: null, settle: door.settle });
}

interface Steps<B> {
  /** Takes the key's rate-limit slot (false: refused); null: the call takes none. */
  take: ((key: Caller['key']) => boolean | Promise<boolean>) | null;
  settle: (commit: CommitCall, reply: Reply<B>, meter: Meter, record: CallRecord) => Promise<void>;
}

async function lifecycle<B>(door: CallDoor<B>, call: CallRequest<ToolServices>, steps: Steps<B>): Promise<CallResult<B>> {
  const { tool, deps } = call;
  const started = performance.now();
  const elapsedMs = door.elapsedMs ?? (() => performance.now() - started);
  const meter = newMeter();
  let caller: Caller | null = null;
  let error: ApiError | null = null;
  const fail = (err: unknown): Reply<B> => {
    failed(meter);
    error = call.signal?.aborted ? new ClientClosed() : toApiError(err);
    return door.failure(error, err);
  };
  let reply: Reply<B>;
  try {
    caller = { ...(await call.admit()), deps, signal: call.signal, transport: door.transport };
    if (call.refused) throw call.refused;
    meter.metered = tool.metered && deps.config.CREDITS_MODE !== 'off';
    await admitRate(caller.key, steps.take, meter);
    const output = await invokeTool(tool, call.input(), caller, meter, {
      locate: call.locate ?? inBody,
      checkInput: call.checkInput,
      payment: door.payment,
      doorTransaction: door.settle !== undefined,
    });
    if (meter.pending && door.chargeNote) meter.pending.note = door.chargeNote;
    reply = { status: door.status, body: door.answer(output, meter) };
  } catch (err) {
    reply = fail(err);
  }
  let unsettled: Error | null = null;
  if (caller) {
    const { key, requestId } = caller;
    const history = door.history !== false;
    const recordOf = (r: Reply<B>): CallRecord => ({
      id: requestId,
      key_id: key.id,
      account_id: key.account_id,
      ...door.route,
      status: r.status,
      duration_ms: elapsedMs(),
      response_bytes: door.bytes(r.body),
    });
    const settle = (r: Reply<B>) => {
      const record = recordOf(r);
      return steps.settle((tx) => settleCallIn(deps, meter, record, tx, history), r, meter, record);
    };
    // written before the answer leaves, so that a client can read its own record at once
    try {
      await settle(reply);
    } catch (err) {
      // a result whose charge could not be written is not handed out free: it is the failure it becomes
      if (reply.status < 400) {
        reply = fail(err);
        // the default settle has recorded it so itself
        if (door.settle) unsettled = await settle(reply).then(() => null, asError);
      } else unsettled = asError(err);
      if (unsettled) deps.log.warn({ err: unsettled, requestId }, 'request history write failed');
    }
  }
  if (door.recorded !== false) {
    recordCall(deps.ops, { operation: tool.name, transport: door.transport, status: reply.status, ms: elapsedMs(), credits: meter.charged });
  }
  return { ...reply, meter, error, unsettled };
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** The admit step's rate limit: the slot the door took already, or one taken now. */
async function admitRate(key: Caller['key'], take: Steps<unknown>['take'], meter: Meter): Promise<void> {
  const refused = key.admitted === false || (key.admitted === undefined && take !== null && !(await take(key)));
  if (!refused) return;
  meter.rateLimited = true;
  throw new Limited(`rate limit ${key.rate_limit_per_min}/min exceeded`, true);
}

/**
 * The settle step on its own: the call's history row and, with a charge pending, the charge, its
 * ledger row and the reservation release, in one statement (group-committed with other calls'),
 * before the answer leaves. A failure to commit records the call as the failure it becomes, uncharged.
 */
async function settleCall(deps: Pick<ServiceDeps, 'platform' | 'sql'>, meter: Meter, record: CallRecord): Promise<void> {
  const { writes } = meter;
  let remaining: number | null;
  if (!writes.length) remaining = await deps.platform.calls.write(outcomeOf(meter, record));
  else {
    // the handler's writes and the call's record go out in one write and commit together
    try {
      const settlement = await deps.platform.calls.statementFor(outcomeOf(meter, record));
      const [left] = await sendTransaction(deps.sql, (t) => [settlement.build(t), ...writes.map((write) => write(t))]);
      remaining = settlement.creditsLeft(left as PeriodLeft[]);
    } catch (err) {
      // nothing of the call committed: it is recorded as the failure it becomes, uncharged
      failed(meter);
      await deps.platform.calls.write(outcomeOf(meter, { ...record, status: toApiError(err).status })).catch(() => undefined);
      throw err;
    }
  }
  meter.writes = [];
  if (meter.pending) meter.remaining = remaining;
}

/**
 * The settle step in the door's transaction, as a batch of one on the same money path: the
 * handler's writes, then the call's charge and history row.
 */
async function settleCallIn(deps: Pick<ToolServices, 'credits'>, meter: Meter, record: CallRecord, tx: Tx, history: boolean): Promise<void> {
  const { writes, work } = meter;
  meter.writes = [];
  meter.work = [];
  // the handler's work first, one piece after another (its statements need each other's answers)
  for (const w of work) await w(tx);
  const outcome = outcomeOf(meter, record, history);
  const settlement = await callStatement(deps.credits, outcome);
  // all sent at once, none waiting on another; every one answered before this returns, so that
  // nothing of the call is still on its way when the door's transaction rolls back or ends
  const sent = await Promise.allSettled([...writes.map((write) => write(tx)), settlement.build(tx)]);
  const refused = sent.find((r) => r.status === 'rejected');
  if (refused) throw refused.reason;
  const remaining = settlement.creditsLeft((sent.at(-1) as PromiseFulfilledResult<PeriodLeft[]>).value);
  // a call paid from the balance that others spent meanwhile: it fails unpaid, and the door's transaction with it
  if (outcome.charge?.requireFunds && remaining === null) throw new Unfunded(outcome.charge.amount, null);
  if (meter.pending) meter.remaining = remaining;
}

function outcomeOf(meter: Meter, record: CallRecord, keepHistory = true): CallOutcome {
  const { id, account_id, ...call } = record;
  const history: CallHistory = { ...call, credits: meter.charged, rate_limited: meter.rateLimited, cache_hit: meter.cache?.hit === true };
  const { pending } = meter;
  // nothing to cover for a free answer
  const charge = pending ? { plan: pending.plan, amount: meter.charged, note: pending.note, requireFunds: pending.requireFunds && meter.charged > 0 } : null;
  return { id, accountId: account_id, history: keepHistory ? history : null, charge };
}
