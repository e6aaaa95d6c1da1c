/**
 * The watch schedule's rules, one attempt at a time: a slot entry is claimed for one attempt
 * (platform/watches.ts claimSlot), run as the key that made the watch when its account can pay,
 * and commits once (check.ts). A failed attempt (upstream down, blocked) is charged nothing and
 * tried again later in the same period, or the period is counted missed; an account that cannot
 * pay pauses the watch. A sweep queues overdue slots whose entry was lost and resumes the watches
 * paused for credits once their account can pay. workers/watch-scheduler.ts only feeds these from
 * the queues.
 */
import os from 'node:os';
import type PgBoss from 'pg-boss';
import type { ApiError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { nextSlot, periodMs, retryDelayMs } from '../../domain/watch-schedule.js';
import { leaseSeconds, queueCheck, type CheckJob } from '../../jobs/watch-queue.js';
import { endOf } from '../../domain/watch-end.js';
import { settleStragglers } from './parity-watch.js';
import { keyById } from '../../platform/keys.js';
import { billedPlan, planOf } from '../../platform/plans.js';
import {
  activeWatches,
  claimSlot,
  endWatch,
  lockAccountWatches,
  lockUnpaid,
  overdueWatches,
  lockWatch,
  pauseUnpaid,
  slotFailed,
  unpaidWatches,
  updateWatch,
  watchTarget,
  type WatchRow,
} from '../../platform/watches.js';
import type { ServiceDeps } from '../service-deps.js';
import type { CommitCall } from '../call.js';
import { runCheck } from './check.js';
import { sendDigests } from './digest.js';
import { afterMissed, healthEvent } from './health.js';

/** This process, as recorded on the slots it holds. */
const HOLDER = `${os.hostname()}/${process.pid}`;

/** One queue entry: one attempt at the watch's slot `seq`. */
export async function checkSlot(deps: ServiceDeps, boss: PgBoss, job: CheckJob): Promise<void> {
  const found = await watchTarget(deps.sql, job.watch_id);
  if (!found) return; // deleted
  const lease = leaseSeconds(deps.config, found.operation, found.target);
  const claim = await claimSlot(deps.sql, job.watch_id, job.seq, lease, HOLDER);
  if (claim.state !== 'taken') {
    // pg-boss tries this entry again later: by then the holder has committed (gone) or died (its hold ran out)
    if (claim.state === 'held') throw new Error(`watch ${job.watch_id} slot ${job.seq} is being checked elsewhere`);
    return;
  }
  const watch = claim.watch;
  // its end date came, or its stay passed: nothing more to check or charge
  const ended = endOf(watch, new Date(), deps.config.WATCH_TODAY);
  if (ended) {
    await endWatch(deps.sql, watch.id, watch.seq, ended);
    return;
  }
  const key = await keyById(deps.sql, watch.key_id);
  if (!key) return;
  if (deps.config.CREDITS_MODE === 'enforce' && key.plan) {
    const left = await deps.credits.remaining(key.account_id, key.plan);
    if (left < watch.credits_per_check) {
      const detail = `insufficient credits: a check costs ${watch.credits_per_check}, ${Math.max(0, left)} available`;
      await deps.sql.begin(async (tx) => {
        const row = (await pauseUnpaid(tx, watch.id, watch.seq, detail)) ? await lockWatch(tx, watch.id) : null;
        if (row) await healthEvent(deps, boss, tx, row, 'watch.paused', { reason: 'insufficient_credits', detail, request_id: null });
      });
      return;
    }
  }
  const requestId = newId('req');
  const failed = (commit: CommitCall, api: ApiError, err: unknown) => attemptFailed(deps, boss, watch, { requestId, lease }, commit, api, err);
  await runCheck(deps, { watch, key, requestId, slot: watch.seq, failed });
}

/**
 * What follows a failed attempt: pause (the account cannot pay, or the target is gone), another try
 * later in the period, or the slot given up as missed.
 */
type AfterFailure = { pause: 'insufficient_credits' | 'gone' } | { pause: false; retry: boolean; at: Date; missed: number };

/**
 * The rule for a failed attempt (pure): a retryable failure is tried again after a doubling delay
 * while that still falls within the slot's period; otherwise, or when the period would end first,
 * the slot is missed and the schedule moves to the next one.
 */
function afterFailure(
  config: { WATCH_HOUR_S: number },
  watch: Pick<WatchRow, 'every_hours' | 'failures' | 'next_check_at'>,
  api: ApiError,
  now: Date,
): AfterFailure {
  if (api.status === 402) return { pause: 'insufficient_credits' };
  // the failure table's not_found: the caller's property no longer exists, retrying cannot help
  if (api.status === 404) return { pause: 'gone' };
  const period = periodMs(config, watch.every_hours);
  const retryable = api.retryable || api.status === 429 || api.status >= 500;
  const delay = retryable ? retryDelayMs(config, watch.failures, period) : null;
  if (delay !== null && now.getTime() + delay < watch.next_check_at.getTime() + period) {
    return { pause: false, retry: true, at: new Date(now.getTime() + delay), missed: 0 };
  }
  return { pause: false, retry: false, ...nextSlot(watch.next_check_at, now, period, true) };
}

/**
 * A failed attempt: recorded in the key's history (charged 0, by the call's `commit`) and on the
 * watch, with what afterFailure decides, in one transaction.
 */
async function attemptFailed(
  deps: ServiceDeps,
  boss: PgBoss,
  watch: WatchRow,
  a: { requestId: string; lease: number },
  commit: CommitCall,
  api: ApiError,
  err: unknown,
): Promise<void> {
  if (api.status === 500) deps.log.error({ err, watchId: watch.id, requestId: a.requestId }, 'watch check failed with a server fault');
  const detail = `${a.requestId}: ${typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail)}`.slice(0, 500);
  const next = afterFailure(deps.config, watch, api, new Date());
  await deps.sql.begin(async (tx) => {
    await commit(tx);
    if (next.pause) {
      const paused = await pauseUnpaid(tx, watch.id, watch.seq, detail, next.pause);
      // a gone target is told (watch.paused): nobody would notice otherwise; the credits pause resumes by itself
      const row = paused && next.pause === 'gone' ? await lockWatch(tx, watch.id) : null;
      if (row) await healthEvent(deps, boss, tx, row, 'watch.paused', { reason: 'gone', detail, request_id: a.requestId });
      return;
    }
    const row = await slotFailed(tx, watch.id, watch.seq, detail, next);
    if (row) await queueCheck(boss, tx, row, next.at, a.lease, next.retry ? `retry-${row.failures}` : 'slot');
    if (row && !next.retry) await afterMissed(deps, boss, tx, row, { detail, requestId: a.requestId });
  });
}

/** Overdue slots whose queue entry was lost, and watches paused for credits their account can now pay. */
export async function sweepWatches(deps: ServiceDeps, boss: PgBoss): Promise<void> {
  const slotNo = Math.floor(Date.now() / (deps.config.WATCH_SWEEP_S * 1000));
  for (const w of await overdueWatches(deps.sql, Math.max(5 * deps.config.WATCH_SWEEP_S, 5), 1000)) {
    await queueCheck(boss, null, w, new Date(), leaseSeconds(deps.config, w.operation, w.target), `sweep-${slotNo}`);
  }
  const budget = new Map<string, number>();
  for (const w of await unpaidWatches(deps.sql, 1000)) {
    const plan = billedPlan(w.plan);
    if (deps.config.CREDITS_MODE === 'enforce' && plan) {
      if (!budget.has(w.account_id)) budget.set(w.account_id, await deps.credits.remaining(w.account_id, plan));
      const left = budget.get(w.account_id)!;
      if (left < w.credits_per_check) continue;
      budget.set(w.account_id, left - w.credits_per_check);
    }
    await deps.sql.begin(async (tx) => {
      await lockAccountWatches(tx, w.account_id);
      if (plan && (await activeWatches(tx, w.account_id)) >= planOf(plan).active_watches) return;
      if (!(await lockUnpaid(tx, w.id))) return;
      const now = new Date();
      const resumed = await updateWatch(tx, w.id, { status: 'active', paused_reason: null, next_check_at: now, newSlot: true });
      await queueCheck(boss, tx, resumed, now, leaseSeconds(deps.config, w.operation, w.target));
      await healthEvent(deps, boss, tx, resumed, 'watch.resumed', { reason: 'credits_available', request_id: null });
    });
  }
  await settleStragglers(deps);
  await sendDigests(deps, boss);
}
