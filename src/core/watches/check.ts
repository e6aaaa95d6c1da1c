/**
 * One check of a watch, through the call lifecycle every call takes (call.ts runStandingCall:
 * validation, credit reservation when enforced, the operation's own handler and cost), settled in
 * one transaction that commits the check with everything that follows from it — the stored rates,
 * the charge and history row, the event and its first delivery, the watch's next slot and that
 * slot's queue entry. A scheduled check commits only while its slot is still the watch's (a replay
 * after a crash, a duplicate entry or a pause meanwhile commits nothing and is charged nothing); a
 * failed one is settled by the schedule's rule for it (schedule.ts), in its own transaction.
 */
import type { Tx } from '../../db/client.js';
import type { ApiError } from '../../domain/errors.js';
import type { ToolServices, Tool } from '../define-tool.js';
import { storeStayRates, runOf } from '../../platform/stored-rates.js';
import type { AuthedKey } from '../../platform/keys.js';
import { SCHEDULED_CHECK } from '../../platform/history.js';
import { newId } from '../../domain/ids.js';
import { runStandingCall, type CommitCall } from '../call.js';
import type { Meter } from '../invoke.js';
import { checkResource, watchResource } from './resource.js';
import { diff, evaluate, type Verdict } from '../../domain/watch-rules.js';
import { nextSlot, periodMs } from '../../domain/watch-schedule.js';
import { leaseSeconds, queueCheck, queueWatchWebhook } from '../../jobs/watch-queue.js';
import { afterCheck, insertCheck, lockWatch, recentChecks, watchTotals, type CheckRow, type WatchRow } from '../../platform/watches.js';
import { insertEvent, type EventRow } from '../../platform/watch-events.js';
import { observe, type Observation, type OperationAnswer } from '../../domain/watch-observation.js';
import { hotelOf, stayRates, targetTool } from './target.js';
import { healthEvent } from './health.js';

/** Where a check's charge and history row are recorded: the route that asks for a check. */
const CHECK_ROUTE = { method: 'POST', path: '/v1/watches/{watch_id}/check' } as const;
/** Changes carried by one event (the check keeps them all). */
const EVENT_CHANGES = 100;

export interface CheckCall {
  watch: WatchRow;
  /** Who the check runs as: the caller (a check asked for), or the key that made the watch. */
  key: AuthedKey;
  /** The check's id: its request id, history row and ledger entry. */
  requestId: string;
  /** The schedule slot checked; null for a check asked for (POST /v1/watches/{id}/check). */
  slot: number | null;
  /**
   * A failed scheduled attempt: `commit` records it (charged nothing) in the schedule's transaction
   * beside what follows from it. A check asked for leaves its failure to the call that asked.
   */
  failed?: (commit: CommitCall, api: ApiError, err: unknown) => Promise<void>;
}

export interface CheckOutcome {
  watch: WatchRow;
  check: CheckRow;
  event: EventRow | null;
  charged: number;
  remaining: number | null;
}

/**
 * Runs the check; throws what the operation threw (nothing charged; a scheduled attempt's failure
 * settled by `failed`). Null when the slot was no longer the watch's at commit time (or the watch
 * was deleted meanwhile): nothing is kept or charged.
 */
export async function runCheck(deps: ToolServices, call: CheckCall): Promise<CheckOutcome | null> {
  const { watch, requestId } = call;
  const tool = targetTool(deps.tools, watch.operation);
  let outcome: CheckOutcome | null = null;
  // what the call failed with: its error as answered, and what was thrown (rethrown as it was)
  const failure: { api: ApiError | null; thrown: unknown } = { api: null, thrown: null };
  const result = await runStandingCall<OperationAnswer | null>(
    {
      transport: 'watch',
      // a scheduled check is the schedule's work, not the customer's call (usage counts it apart)
      route: { method: call.slot !== null ? SCHEDULED_CHECK : CHECK_ROUTE.method, path: CHECK_ROUTE.path },
      status: 200,
      answer: (output) => output as OperationAnswer,
      failure: (error, err) => {
        Object.assign(failure, { api: error, thrown: err });
        return { status: error.status, body: null };
      },
      bytes: (body) => (body === null ? 0 : Buffer.byteLength(JSON.stringify(body))),
      // the ledger says what the credits paid for: this watch's check, priced as its operation
      chargeNote: `watch ${watch.id} check: ${tool.method} ${tool.path}`,
      async settle(commit, reply, meter) {
        if (reply.body === null) return failure.api ? call.failed?.(commit, failure.api, failure.thrown) : undefined;
        outcome = await deps.sql.begin((tx) => commitCheck(deps, tx, { call, tool, commit, meter, output: reply.body! }));
      },
      // a check asked for is counted as the call that asked for it; the schedule's checks are not operation calls
      recorded: false,
    },
    // the call was admitted when it was asked for (REST) or is the account's standing order (schedule): no rate-limit slot
    { deps, tool, admit: () => ({ key: call.key, requestId, headers: {} }), input: () => ({ ...watch.target }) },
  );
  if (result.unsettled) throw result.unsettled;
  if (result.error) {
    await deps.credits.release(requestId).catch(() => undefined);
    throw failure.thrown instanceof Error ? failure.thrown : result.error;
  }
  // the slot moved on while the operation ran: what was reserved for it goes back
  if (!outcome) await deps.credits.release(requestId).catch(() => undefined);
  // a parity range's batch was queued with the check: this process's workers may take it at once
  else if (watch.operation === 'parity_range') deps.queue.wake();
  return outcome;
}

/** What the check commits in its transaction, its call's charge and history row among it; null: the slot was no longer the watch's. */
async function commitCheck(
  deps: ToolServices,
  tx: Tx,
  c: { call: CheckCall; tool: Tool; commit: CommitCall; meter: Meter; output: OperationAnswer },
): Promise<CheckOutcome | null> {
  const { call, meter, output } = c;
  const { requestId } = call;
  const w = await lockWatch(tx, call.watch.id);
  if (!w || (call.slot !== null && (w.seq !== call.slot || w.status !== 'active'))) return null;
  // the call's charge and history row, and the operation's own writes (a calendar's stored rates) before its run is read
  await c.commit(tx);
  const observation = observe(w.operation, output);
  const [prevRow] = await recentChecks(tx, w.id, 1);
  const prev = prevRow ? prevRow.observation : null;
  // a parity range submitted: compared and told when its batch finishes (parity-watch.ts)
  const changes = observation.pending ? [] : diff(prev, observation);
  const verdict = observation.pending
    ? { fired: false, reason: 'parity range submitted', matched: [] }
    : evaluate(w.rule, w.operation, prev, observation, changes);
  const rows = stayRates(w.operation, w.target, output, observation);
  const run =
    w.operation === 'calendar'
      ? await runOf(tx, w.account_id, requestId)
      : rows.length
        ? await storeStayRates(tx, w.account_id, rows, { runId: newId('scraperun'), collectionKey: requestId, observedAt: new Date().toISOString() })
        : null;
  const check = await insertCheck(tx, {
    id: requestId,
    watch: w,
    period: call.slot,
    credits: meter.charged,
    currency: observation.currency,
    cheapest: observation.cheapest?.total ?? null,
    observation,
    changes,
    fired: verdict.fired,
    parity: observation.parity,
    run,
  });
  const next = call.slot !== null ? nextSlot(w.next_check_at, check.created_at, periodMs(deps.config, w.every_hours)) : null;
  const updated = await afterCheck(tx, w, check, next);
  if (next) await queueCheck(deps.queue.boss(), tx, updated, next.at, leaseSeconds(deps.config, w.operation, w.target));
  // checking again after periods missed in a row: told once, as the failing was
  if (next && w.failing_since)
    await healthEvent(deps, deps.queue.boss(), tx, updated, 'watch.resumed', {
      reason: 'checks_succeed',
      failing_since: w.failing_since.toISOString(),
      periods_missed_in_row: w.misses_in_row,
      check_id: check.id,
      request_id: requestId,
    });
  const event = verdict.fired
    ? await triggeredEvent(deps, tx, { watch: updated, check, prev: prevRow ?? null, verdict, hotel: hotelOf(w, output), parity: observation.parity })
    : null;
  return { watch: updated, check, event, charged: meter.charged, remaining: meter.remaining };
}

/**
 * The watch.triggered event of a check whose rule fired, and its first delivery: written in the
 * check's transaction (a parity range's: the one its batch finishes in). `extra` adds to its data.
 */
export async function triggeredEvent(
  deps: Pick<ToolServices, 'config' | 'queue'>,
  tx: Tx,
  c: { watch: WatchRow; check: CheckRow; prev: CheckRow | null; verdict: Verdict; hotel: ReturnType<typeof hotelOf>; parity: Observation['parity'] },
  extra: Record<string, unknown> = {},
): Promise<EventRow> {
  const { watch, check, prev, verdict } = c;
  const id = `evt_${check.id.slice(check.id.indexOf('_') + 1)}`;
  const totals = await watchTotals(tx, [watch.id]);
  const at = (r: CheckRow) => ({
    check_id: r.id,
    checked_at: r.created_at.toISOString(),
    currency: r.currency,
    cheapest: r.observation.cheapest ?? null,
  });
  const payload = {
    id,
    type: 'watch.triggered',
    timestamp: check.created_at.toISOString(),
    data: {
      watch: watchResource(watch, totals.get(watch.id)),
      // the check inside the event needs no second copy of what the event states itself
      check: { ...checkResource(check), changes: [] },
      request_id: check.id,
      hotel: c.hotel,
      rule: watch.rule,
      reason: verdict.reason,
      before: prev ? at(prev) : null,
      after: at(check),
      changes: verdict.matched.slice(0, EVENT_CHANGES),
      changes_total: verdict.matched.length,
      parity: c.parity,
      ...extra,
    },
  };
  const event = await insertEvent(tx, { id, watch, checkId: check.id, at: check.created_at, payload });
  if (watch.callback_url && deps.config.WEBHOOK_SIGNING_SECRET) await queueWatchWebhook(deps.queue.boss(), tx, id);
  return event;
}
