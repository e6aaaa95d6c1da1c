import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError, failureClassOf, UpstreamContractChanged, UpstreamFailed, type UpstreamFailureClass } from '../domain/errors.js';
import type { Outcome, PathEvent } from './metrics.js';

/**
 * Outcome of each upstream request, classified where both halves are visible: the HTTP client's
 * failures (blocked, timeout, unreachable, upstream HTTP errors) when the request ends, and the
 * parsers' contract changes when they reject a reply. A reply the client returned is only "ok"
 * once the operation that asked for it has judged it, so its outcome waits in the operation's
 * source scope until the operation ends.
 */
export interface OutcomeEvent {
  source: string;
  outcome: Outcome;
  seconds: number;
  at: Date;
}

export interface OutcomeSink {
  record(events: OutcomeEvent[]): void;
  /** An upstream path event (PATH_EVENTS): recorded at once. */
  event?(source: string, name: PathEvent): void;
}

interface PendingEvent extends OutcomeEvent {
  /** Whether the client returned a reply (ok events). */
  replied?: boolean;
}

interface Scope {
  sink: OutcomeSink;
  events: PendingEvent[];
  /**
   * Each reply's event, to find it again when a parser rejects the reply. Weak: a page the
   * operation has parsed and dropped (a 3 MB body, its text) is not kept alive until the operation ends.
   */
  byReply: WeakMap<object, PendingEvent>;
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/** The outcome each class of the failure table (domain/errors.ts) is counted as. */
const OUTCOME_OF: Record<UpstreamFailureClass, Outcome | null> = {
  blocked: 'blocked',
  challenge: 'blocked',
  rate_limited: 'blocked',
  // the caller's object is gone: the upstream answered as it should
  not_found: 'ok',
  contract_changed: 'contract_changed',
  timeout: 'timeout',
  unreachable: 'unreachable',
  unusable: 'upstream_error',
  upstream_error: 'upstream_error',
};

/** The outcome an upstream failure stands for; null when it is not the upstream's (the caller hung up, our own bug). */
export function classifyFailure(err: unknown): Outcome | null {
  if (err instanceof UpstreamFailed && err.detail === 'Aborted') return null;
  const failure = failureClassOf(err);
  return failure ? OUTCOME_OF[failure] : null;
}

/**
 * Runs one operation (a route's handler, a batch item, a live check) in a source scope: the
 * outcomes of its upstream requests are settled and handed to `sink` when it ends.
 */
export async function inSourceScope<T>(sink: OutcomeSink, fn: () => Promise<T>): Promise<T> {
  const scope: Scope = { sink, events: [], byReply: new WeakMap(), open: true };
  try {
    const value = await scopes.run(scope, fn);
    settle(scope, null);
    return value;
  } catch (err) {
    settle(scope, err);
    throw err;
  }
}

/**
 * One upstream request, observed: its failure is classified at once; a reply waits as "ok" in the
 * current scope (without a scope, e.g. a background task, it is recorded at once when `sink` is given).
 */
export async function observed<R extends object>(sink: OutcomeSink | null, source: string, fetch: () => Promise<R>): Promise<R> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  let reply: R;
  try {
    reply = await fetch();
  } catch (err) {
    const outcome = classifyFailure(err);
    if (outcome) add(sink, { source, outcome, seconds: seconds(), at: new Date() });
    throw err;
  }
  add(sink, { source, outcome: 'ok', seconds: seconds(), at: new Date(), replied: true }, reply);
  return reply;
}

function add(sink: OutcomeSink | null, event: PendingEvent, reply?: object): void {
  const scope = scopes.getStore();
  if (scope?.open) {
    scope.events.push(event);
    if (reply) scope.byReply.set(reply, event);
  } else (scope?.sink ?? sink)?.record([strip(event)]);
}

/**
 * Whether an upstream request of the current operation so far did not end well (blocked, timed
 * out, failed, its reply rejected): its answer, even a successful one, may be partial.
 */
export function upstreamTroubleInScope(): boolean {
  return scopes.getStore()?.events.some((e) => e.outcome !== 'ok') ?? false;
}

/** A path event of the current operation (a drift verdict), handed to its scope's sink at once. */
export function notePathEvent(source: string, name: PathEvent): void {
  scopes.getStore()?.sink.event?.(source, name);
}

/** A parser rejected `reply` (withContractGuard): its request counts as a contract change. */
export function noteContractChanged(reply: object): void {
  const event = scopes.getStore()?.byReply.get(reply);
  if (event) event.outcome = 'contract_changed';
}

/**
 * When the operation failed on a reply the client had returned (a contract change thrown outside a
 * guard, a block page or HTTP error status the source recognised itself), the last such reply takes
 * the failure's outcome, unless a request of the scope already carries one.
 */
function settle(scope: Scope, err: unknown): void {
  scope.open = false;
  const outcome = err instanceof ApiError ? classifyFailure(err) : null;
  if (outcome && !scope.events.some((e) => e.outcome !== 'ok')) {
    const source = err instanceof UpstreamContractChanged ? err.source : null;
    const replies = scope.events.filter((e) => e.replied);
    const target = replies.findLast((e) => e.source === source) ?? replies.at(-1);
    if (target) target.outcome = outcome;
  }
  // the error names the source it came from: the request that failed, else the reply it was judged on
  if (outcome && err instanceof ApiError && !err.source) {
    err.source = scope.events.findLast((e) => e.outcome !== 'ok')?.source ?? scope.events.findLast((e) => e.replied)?.source;
  }
  scope.sink.record(scope.events.map(strip));
}

function strip({ source, outcome, seconds, at }: PendingEvent): OutcomeEvent {
  return { source, outcome, seconds, at };
}
