/**
 * One check of a watch: its operation runs through the kernel (runAdmitted: validation, credit
 * reservation when enforced, the operation's own handler and cost), then one transaction commits
 * the check with everything that follows from it — the stored rates, the charge and history row,
 * the event and its first delivery, the watch's next slot and that slot's queue entry. A scheduled
 * check commits only while its slot is still the watch's (a replay after a crash, a duplicate
 * entry or a pause meanwhile commits nothing and is charged nothing).
 */
import type { ToolServices } from '../define-tool.js';
import { storeStayRates, runOf } from '../../platform/stored-rates.js';
import type { AuthedKey } from '../../platform/keys.js';
import { SCHEDULED_CHECK } from '../../platform/history.js';
import { newId } from '../../domain/ids.js';
import { newMeter, runAdmitted } from '../invoke.js';
import { commitHandlerWrites, settleCallIn, type CallRecord } from '../call.js';
import { checkResource, watchResource } from './resource.js';
import { diff, evaluate } from '../../domain/watch-rules.js';
import { nextSlot, periodMs } from '../../domain/watch-schedule.js';
import { leaseSeconds, queueCheck, queueWatchWebhook } from '../../jobs/watch-queue.js';
import {
  afterCheck,
  insertCheck,
  insertEvent,
  lockWatch,
  recentChecks,
  watchTotals,
  type CheckRow,
  type EventRow,
  type WatchRow,
} from '../../platform/watches.js';
import { observe, type OperationAnswer } from '../../domain/watch-observation.js';
import { hotelOf, stayRates, targetTool } from './target.js';
import { healthEvent } from './health.js';

/** Where a check's charge and history row are recorded: the route that asks for a check. */
export const CHECK_ROUTE = { method: 'POST', path: '/v1/watches/{watch_id}/check' } as const;
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
}

export interface CheckOutcome {
  watch: WatchRow;
  check: CheckRow;
  event: EventRow | null;
  charged: number;
  remaining: number | null;
}

/**
 * Runs the check; throws what the operation threw (nothing charged). Null when the slot was no
 * longer the watch's at commit time (or the watch was deleted meanwhile): nothing is kept or charged.
 */
export async function runCheck(deps: ToolServices, call: CheckCall): Promise<CheckOutcome | null> {
  const { watch, requestId } = call;
  const tool = targetTool(deps.tools, watch.operation);
  const meter = newMeter();
  const started = performance.now();
  // the call was admitted when it was asked for (REST) or is the account's standing order (schedule): no rate-limit slot
  const caller = { deps, requestId, key: call.key, transport: 'watch' as const, headers: {} };
  const output = (await runAdmitted(tool, { ...watch.target }, () => 'body', caller, meter)) as OperationAnswer;
  const observation = observe(watch.operation, output);
  let outcome: CheckOutcome | null;
  try {
    outcome = await deps.sql.begin(async (tx) => {
      const w = await lockWatch(tx, watch.id);
      if (!w || (call.slot !== null && (w.seq !== call.slot || w.status !== 'active'))) return null;
      // the operation's own writes (a calendar's stored rates) commit with the check, before its run is read
      await commitHandlerWrites(meter, tx);
      const [prevRow] = await recentChecks(tx, w.id, 1);
      const prev = prevRow ? prevRow.observation : null;
      const changes = diff(prev, observation);
      const verdict = evaluate(w.rule, w.operation, prev, observation, changes);
      const rows = stayRates(w.operation, w.target, output, observation);
      const run =
        w.operation === 'calendar'
          ? await runOf(tx, w.account_id, requestId)
          : rows.length
            ? await storeStayRates(tx, w.account_id, rows, { runId: newId('scraperun'), collectionKey: requestId, observedAt: new Date().toISOString() })
            : null;
      const record: CallRecord = {
        id: requestId,
        key_id: call.key.id,
        account_id: call.key.account_id,
        // a scheduled check is the schedule's work, not the customer's call (usage counts it apart)
        method: call.slot !== null ? SCHEDULED_CHECK : CHECK_ROUTE.method,
        path: CHECK_ROUTE.path,
        status: 200,
        duration_ms: performance.now() - started,
        response_bytes: Buffer.byteLength(JSON.stringify(output)),
      };
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
      // the ledger says what the credits paid for: this watch's check, priced as its operation
      if (meter.pending) meter.pending.note = `watch ${w.id} check: ${tool.method} ${tool.path}`;
      await settleCallIn(deps, meter, record, tx);
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
      let event: EventRow | null = null;
      if (verdict.fired) {
        const id = `evt_${requestId.slice(requestId.indexOf('_') + 1)}`;
        const totals = await watchTotals(tx, [w.id]);
        const at = (c: CheckRow) => ({
          check_id: c.id,
          checked_at: c.created_at.toISOString(),
          currency: c.currency,
          cheapest: c.observation.cheapest ?? null,
        });
        const payload = {
          id,
          type: 'watch.triggered',
          timestamp: check.created_at.toISOString(),
          data: {
            watch: watchResource(updated, totals.get(w.id)),
            check: checkResource(check),
            request_id: requestId,
            hotel: hotelOf(w, output),
            rule: w.rule,
            reason: verdict.reason,
            before: prevRow ? at(prevRow) : null,
            after: at(check),
            changes: verdict.matched.slice(0, EVENT_CHANGES),
            changes_total: verdict.matched.length,
            parity: observation.parity,
          },
        };
        // the check inside the event needs no second copy of what the event states itself
        payload.data.check = { ...payload.data.check, changes: [] };
        event = await insertEvent(tx, { id, watch: updated, checkId: check.id, payload });
        if (updated.callback_url && deps.config.WEBHOOK_SIGNING_SECRET) await queueWatchWebhook(deps.queue.boss(), tx, id);
      }
      return { watch: updated, check, event, charged: meter.charged, remaining: meter.remaining };
    });
  } catch (err) {
    await deps.credits.release(requestId).catch(() => undefined);
    throw err;
  }
  // the slot moved on while the operation ran: what was reserved for it goes back
  if (!outcome) await deps.credits.release(requestId).catch(() => undefined);
  return outcome;
}
