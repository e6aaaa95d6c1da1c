/**
 * One call's lifecycle, the same for every door: admit → meter → invoke → settle → record.
 *
 * - admit: the door names its caller (REST authenticates here and takes the rate-limit slot; MCP,
 *   a task and a watch's check bring theirs), then invokeTool takes the slot when the door did not;
 * - meter: one Meter per call says what is charged, what the cache answered and what commits with it;
 * - invoke: validation, reservation, the operation through the result cache or its own handler
 *   (invoke.ts);
 * - settle: the charge, its ledger row and the history row commit before the answer leaves, on their
 *   own or in the caller's transaction (an MCP task's result, a watch's check); an answer whose
 *   charge could not be written becomes the error it is;
 * - record: the call's metrics.
 *
 * The doors only translate: they say how their caller is found, how an answer and a failure look on
 * their wire and how big they are; any change to billing, history or the cache decision lands here
 * (or in invoke.ts, its invoke step) and nowhere else.
 */
import { sendTransaction, type Db } from '../db/client.js';
import { ClientClosed, toApiError, type ApiError } from '../domain/errors.js';
import { recordCall } from '../ops/ops.js';
import { writeCallIn, type CallOutcome } from '../platform/call-writer.js';
import type { PeriodLeft } from '../platform/credits.js';
import type { CallHistory } from '../platform/history.js';
import type { Tool, ToolServices } from './define-tool.js';
import { failed, invokeTool, newMeter, type Caller, type Meter } from './invoke.js';
import type { ServiceDeps } from './service-deps.js';
import type { Location } from './validation.js';

/** What a call's history row says, before its charge is known: the request id, the key and its account. */
export type CallRecord = Omit<CallHistory, 'credits' | 'rate_limited' | 'cache_hit'> & { id: string; account_id: string };

/** A door's answer: its status and its body as the door sends it. */
export interface Reply<B> {
  status: number;
  body: B;
}

/** What one door says of its calls; everything else is the lifecycle's. */
export interface CallDoor<B> {
  /** The door's name in the call's context and in the metrics. */
  transport: 'rest' | 'mcp';
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
  /** Where the charge and the history row commit when not on their own (an MCP task's worker: with its result). */
  settle?(meter: Meter, record: CallRecord, reply: Reply<B>): Promise<void>;
}

/** Who calls, as the door found them; the lifecycle adds the process's dependencies and the door's name. */
export type Admitted = Omit<Caller, 'deps' | 'transport' | 'signal'>;

export interface CallRequest {
  deps: ServiceDeps;
  tool: Tool;
  /** Ends the call's upstream work: its client hung up (REST, MCP) or its task was cancelled. */
  signal: AbortSignal;
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
  /** The caller, once admitted. */
  caller: Caller | null;
}

const inBody = (): Location => 'body';

/** Runs one call through its whole lifecycle; never throws (a failure is the door's failure reply). */
export async function runCall<B>(door: CallDoor<B>, call: CallRequest): Promise<CallResult<B>> {
  const { tool, deps } = call;
  const started = performance.now();
  const elapsedMs = door.elapsedMs ?? (() => performance.now() - started);
  const meter = newMeter();
  let caller: Caller | null = null;
  let error: ApiError | null = null;
  const fail = (err: unknown): Reply<B> => {
    failed(meter);
    error = call.signal.aborted ? new ClientClosed() : toApiError(err);
    return door.failure(error, err);
  };
  let reply: Reply<B>;
  try {
    caller = { ...(await call.admit()), deps, signal: call.signal, transport: door.transport };
    if (call.refused) throw call.refused;
    const output = await invokeTool(tool, call.input(), call.locate ?? inBody, caller, meter, call.checkInput);
    reply = { status: door.status, body: door.answer(output, meter) };
  } catch (err) {
    reply = fail(err);
  }
  if (caller) {
    const { key, requestId } = caller;
    const record: CallRecord = {
      id: requestId,
      key_id: key.id,
      account_id: key.account_id,
      ...door.route,
      status: reply.status,
      duration_ms: elapsedMs(),
      response_bytes: door.bytes(reply.body),
    };
    // written before the answer leaves, so that a client can read its own record at once
    try {
      await (door.settle ? door.settle(meter, record, reply) : settleCall(deps, meter, record));
    } catch (err) {
      // a result whose charge could not be written is not handed out free
      if (reply.status < 400) reply = fail(err);
      else deps.log.warn({ err, requestId }, 'request history write failed');
    }
  }
  recordCall(deps.ops, { operation: tool.name, transport: door.transport, status: reply.status, ms: elapsedMs(), credits: meter.charged });
  return { ...reply, meter, caller, error };
}

/**
 * The settle step: the call's history row and, with a charge pending, the charge, its ledger row and
 * the reservation release, in one statement, before the answer leaves. `tx`: the caller's
 * transaction when the outcome commits with more (an MCP task's result); the call is then a batch
 * of one in it.
 */
export async function settleCall(deps: Pick<ServiceDeps, 'platform' | 'sql'>, meter: Meter, record: CallRecord, tx?: Db): Promise<void> {
  const { writes } = meter;
  let remaining: number | null;
  if (!writes.length) remaining = await deps.platform.calls.write(outcomeOf(meter, record), tx);
  else if (tx) {
    await commitHandlerWrites(meter, tx);
    remaining = await deps.platform.calls.write(outcomeOf(meter, record), tx);
  } else {
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
 * The settle step in the caller's transaction, as a batch of one on the same money path, for a
 * call that runs on the tool services without the doors' writer (a watch's check).
 */
export async function settleCallIn(deps: Pick<ToolServices, 'credits'>, meter: Meter, record: CallRecord, tx: Db): Promise<void> {
  await commitHandlerWrites(meter, tx);
  const remaining = await writeCallIn(deps.credits, outcomeOf(meter, record), tx);
  if (meter.pending) meter.remaining = remaining;
}

/** Runs in `tx` the writes the handler left to commit with the call (when the caller needs them before its record). */
export async function commitHandlerWrites(meter: Meter, tx: Db): Promise<void> {
  const writes = meter.writes;
  meter.writes = [];
  for (const write of writes) await write(tx);
}

function outcomeOf(meter: Meter, record: CallRecord): CallOutcome {
  const { id, account_id, ...call } = record;
  const history: CallHistory = { ...call, credits: meter.charged, rate_limited: meter.rateLimited, cache_hit: meter.cache?.hit === true };
  const charge = meter.pending ? { plan: meter.pending.plan, amount: meter.charged, note: meter.pending.note } : null;
  return { id, accountId: account_id, history, charge };
}
