/**
 * The watch scheduler on pg-boss, in the API process or in `npm run worker` processes alike (any
 * number): check workers take slot entries; each slot is claimed for one attempt at a time
 * (platform/watches.ts claimSlot) and commits once (core/watches/check.ts). A failed attempt
 * (upstream down, blocked) is charged nothing and tried again later in the same period, or the
 * period is counted missed.
 * A sweep, once per WATCH_SWEEP_S across processes, queues overdue slots whose entry was lost and
 * resumes watches paused for credits once their account can pay.
 */
import os from 'node:os';
import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { ensureQueue } from '../jobs/queue.js';
import { webhookFetcher } from './webhooks.js';
import { toApiError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { keyById } from '../platform/keys.js';
import { billedPlan, planOf } from '../platform/plans.js';
import { CHECK_ROUTE, runCheck } from '../core/watches/check.js';
import { derivedUuid, nextSlot, periodMs, retryDelayMs } from '../domain/watch-schedule.js';
import {
  leaseSeconds,
  queueCheck,
  WATCH_CHECK_QUEUE,
  WATCH_SWEEP_QUEUE,
  WATCH_WEBHOOK_QUEUE,
  type CheckJob,
  type WatchWebhookJob,
} from '../jobs/watch-queue.js';
import {
  activeWatches,
  claimSlot,
  lockAccountWatches,
  lockUnpaid,
  overdueWatches,
  pauseUnpaid,
  slotFailed,
  unpaidWatches,
  updateWatch,
  watchTarget,
  type WatchRow,
} from '../platform/watches.js';
import { sendWatchWebhook } from './watch-webhooks.js';

export async function ensureWatchQueues(boss: PgBoss): Promise<void> {
  for (const q of [WATCH_CHECK_QUEUE, WATCH_WEBHOOK_QUEUE, WATCH_SWEEP_QUEUE]) await ensureQueue(boss, q);
}

export interface WatchScheduler {
  stop(): Promise<void>;
}

export async function startWatchScheduler(deps: ServiceDeps, boss: PgBoss): Promise<WatchScheduler> {
  await ensureWatchQueues(boss);
  const fetcher = webhookFetcher(deps.config);
  for (let i = 0; i < deps.config.WATCH_CONCURRENCY; i++) {
    const id: string = await boss.work<CheckJob>(WATCH_CHECK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      try {
        await checkSlot(deps, boss, job.data);
      } finally {
        // a worker that just had work asks again at once instead of sleeping out its interval
        boss.notifyWorker(id);
      }
    });
  }
  await boss.work<WatchWebhookJob>(WATCH_WEBHOOK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) =>
    sendWatchWebhook(deps, fetcher, job.data),
  );
  await boss.work(WATCH_SWEEP_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async () => sweep(deps, boss));
  const everyMs = deps.config.WATCH_SWEEP_S * 1000;
  // one sweep per interval across processes: every process offers the interval's entry, its id makes it one
  const offer = () =>
    boss
      .insert([
        {
          id: derivedUuid('watch-sweep', Math.floor(Date.now() / everyMs)),
          name: WATCH_SWEEP_QUEUE,
          expireInSeconds: Math.max(60, deps.config.WATCH_SWEEP_S),
          retryLimit: 0,
        },
      ])
      .catch((err) => deps.log.warn({ err }, 'queueing the watch sweep failed'));
  await offer();
  const timer = setInterval(() => void offer(), everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}

/** This process, as recorded on the slots it holds. */
const HOLDER = `${os.hostname()}/${process.pid}`;

/** One queue entry: one attempt at the watch's slot `seq`. */
async function checkSlot(deps: ServiceDeps, boss: PgBoss, job: CheckJob): Promise<void> {
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
  const key = await keyById(deps.sql, watch.key_id);
  if (!key) return;
  if (deps.config.CREDITS_MODE === 'enforce' && key.plan) {
    const left = await deps.credits.remaining(key.account_id, key.plan);
    if (left < watch.credits_per_check) {
      await pauseUnpaid(deps.sql, watch.id, watch.seq, `insufficient credits: a check costs ${watch.credits_per_check}, ${Math.max(0, left)} available`);
      return;
    }
  }
  const requestId = newId('req');
  const started = performance.now();
  try {
    await runCheck(deps, { watch, key, requestId, slot: watch.seq });
  } catch (err) {
    await attemptFailed(deps, boss, watch, { requestId, keyId: key.id, ms: performance.now() - started, lease }, err);
  }
}

/**
 * A failed attempt: recorded in the key's history (charged 0) and on the watch; a retryable one
 * is tried again later in its period, otherwise (or when the period would end first) the slot is
 * given up as missed. The account being unable to pay pauses the watch.
 */
async function attemptFailed(
  deps: ServiceDeps,
  boss: PgBoss,
  watch: WatchRow,
  a: { requestId: string; keyId: string; ms: number; lease: number },
  err: unknown,
): Promise<void> {
  const api = toApiError(err);
  if (api.status === 500) deps.log.error({ err, watchId: watch.id, requestId: a.requestId }, 'watch check failed with a server fault');
  const detail = `${a.requestId}: ${typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail)}`.slice(0, 500);
  const period = periodMs(deps.config, watch.every_hours);
  const now = new Date();
  const retryable = api.retryable || api.status === 429 || api.status >= 500;
  const delay = retryable ? retryDelayMs(deps.config, watch.failures, period) : null;
  const retry = delay !== null && now.getTime() + delay < watch.next_check_at.getTime() + period;
  await deps.sql.begin(async (tx) => {
    const history = {
      key_id: a.keyId,
      method: CHECK_ROUTE.method,
      path: CHECK_ROUTE.path,
      status: api.status,
      duration_ms: a.ms,
      response_bytes: 0,
      credits: 0,
      rate_limited: api.status === 429,
    };
    await deps.platform.calls.write({ id: a.requestId, accountId: watch.account_id, history, charge: null }, tx);
    if (api.status === 402) {
      await pauseUnpaid(tx, watch.id, watch.seq, detail);
      return;
    }
    const next = retry
      ? { retry: true, at: new Date(now.getTime() + delay), missed: 0 }
      : { retry: false, ...nextSlot(watch.next_check_at, now, period, true) };
    const row = await slotFailed(tx, watch.id, watch.seq, detail, next);
    if (row) await queueCheck(boss, tx, row, next.at, a.lease, retry ? `retry-${row.failures}` : 'slot');
  });
}

/** Overdue slots whose queue entry was lost, and watches paused for credits their account can now pay. */
async function sweep(deps: ServiceDeps, boss: PgBoss): Promise<void> {
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
    });
  }
}
