import type PgBoss from 'pg-boss';
import { pipelinedTransaction, type Db } from '../db/client.js';
import { calendarCharge, calendarCost, type NormalizedCalendarRequest } from '../domain/calendar-request.js';
import type { ServiceDeps } from '../core/service-deps.js';
import type { BatchItemOutcome } from '../ops/metrics.js';
import { inSourceScope } from '../ops/outcomes.js';
import { toApiError } from '../domain/errors.js';
import { billedPlan } from '../platform/plans.js';
import { newUpstreamSession } from '../upstream/session.js';
import { writeJobArtifact } from '../jobs/artifacts.js';
import { ensureQueue } from '../jobs/queue.js';
import {
  CALENDAR_QUEUE,
  MAX_ITEM_ATTEMPTS,
  WEBHOOK_QUEUE,
  completeJob,
  countSucceeded,
  failItem,
  itemsOfJob,
  lockJob,
  requeueItem,
  startItem,
  succeedItem,
  type JobCounts,
} from '../jobs/calendar-jobs.js';
import type { CalendarResult } from '../domain/calendar-result.js';
import { scopeSources } from '../sources/context.js';
import { collectCalendar } from '../sources/metasearch/calendar/service.js';
import { runIdForJob, runTotals, storeCalendarRates } from '../platform/stored-rates.js';
import { queueJobWebhook, sendJobWebhook, webhookFetcher } from './webhooks.js';

/*
 * Transitions (the spec leaves them to us):
 *   job:  queued → running (first item starts) → succeeded | partial | failed (last item ends)
 *   item: queued → running → succeeded | failed; running → queued on a retryable failure
 *         (attempts < 3, error kept); a crash leaves it running until its queue entry expires,
 *         then it runs again with attempts + 1.
 *   callback: pending → delivered | failed (schedule spent, or 410 Gone); not_configured stays (webhooks.ts).
 * An item's result, stored rates, charge and the job counters commit in one transaction,
 * guarded by the item's status, so a replay after a crash changes nothing twice.
 */

export async function ensureJobQueues(boss: PgBoss): Promise<void> {
  await ensureQueue(boss, CALENDAR_QUEUE);
  await ensureQueue(boss, WEBHOOK_QUEUE);
}

export interface CalendarWorker {
  /** Runs one item to a terminal state or throws for a queue retry. Exposed for tests. */
  runItem(itemId: string): Promise<void>;
  /** Wakes this process's idle workers (new items were queued here). */
  wake(): void;
}

export async function startCalendarWorker(deps: ServiceDeps, boss: PgBoss): Promise<CalendarWorker> {
  const fetcher = webhookFetcher(deps.config);
  const ids: string[] = [];
  const worker: CalendarWorker = {
    runItem: (id: string) => runItem(deps, boss, id),
    wake: () => ids.forEach((id) => boss.notifyWorker(id)),
  };
  await ensureJobQueues(boss);
  // Abandoned items (a killed worker) come back once expired; do not wait for the first interval.
  await boss.maintain().catch((err) => deps.log.warn({ err }, 'queue maintenance at start-up failed'));
  for (let i = 0; i < deps.config.WORKER_CONCURRENCY; i++) {
    const id: string = await boss.work<{ item_id: string }>(CALENDAR_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      try {
        await worker.runItem(job.data.item_id);
      } finally {
        // pg-boss would sleep out the rest of its polling interval; a worker that just had work asks again at once
        boss.notifyWorker(id);
      }
    });
    ids.push(id);
  }
  await boss.work<{ job_id: string; attempt: number }>(WEBHOOK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    await sendJobWebhook(deps, boss, fetcher, job.data);
  });
  return worker;
}

async function runItem(deps: ServiceDeps, boss: PgBoss, itemId: string): Promise<void> {
  const { log } = deps;
  const item = await startItem(deps.sql, itemId);
  if (!item) return; // already terminal: a replay after the commit
  const request = item.request;
  const account: Account = { id: item.account_id, plan: billedPlan(item.plan) };
  if (item.attempts > MAX_ITEM_ATTEMPTS) {
    return finishItem(deps, boss, item.job_id, itemId, account, { error: `gave up after ${MAX_ITEM_ATTEMPTS} attempts` });
  }
  let result: CalendarResult;
  try {
    if (account.plan && deps.config.CREDITS_MODE === 'enforce') {
      const left = await deps.credits.remaining(account.id, account.plan);
      if (left < calendarCost(request)) {
        return finishItem(deps, boss, item.job_id, itemId, account, {
          error: `insufficient credits: this item costs ${calendarCost(request)}, ${left} available`,
        });
      }
    }
    // the item is one logical operation: its upstream cookies stay within it
    const scoped = scopeSources(deps, { session: newUpstreamSession({ account_id: account.id, request_id: itemId }) });
    result = await inSourceScope(deps.ops.outcomes, () => collectCalendar(scoped, request));
  } catch (err) {
    const api = toApiError(err);
    const detail = typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail);
    if (api.retryable && item.attempts < MAX_ITEM_ATTEMPTS) {
      await requeueItem(deps.sql, itemId, detail);
      deps.ops.metrics.batchItems.inc({ outcome: 'retried' });
      throw err; // pg-boss retries with backoff
    }
    if (api.status === 500) log.error({ err, itemId }, 'calendar item failed with a server fault');
    return finishItem(deps, boss, item.job_id, itemId, account, { error: detail });
  }
  return finishItem(deps, boss, item.job_id, itemId, account, { result, request });
}

/** The job's owner; plan null when the account is not metered. */
interface Account {
  id: string;
  plan: string | null;
}

/** Under enforcement, items finishing side by side found the balance spent: the item fails unpaid. */
class OutOfCredits extends Error {
  constructor(readonly cost: number) {
    super(`insufficient credits: this item costs ${cost}`);
  }
}

async function finishItem(
  deps: ServiceDeps,
  boss: PgBoss,
  jobId: string,
  itemId: string,
  account: Account,
  outcome: { error: string } | { result: CalendarResult; request: NormalizedCalendarRequest },
): Promise<void> {
  try {
    await commitItem(deps, boss, jobId, itemId, account, outcome);
  } catch (err) {
    if (!(err instanceof OutOfCredits)) throw err;
    await commitItem(deps, boss, jobId, itemId, account, { error: err.message });
  }
}

/** The item had already ended (a replay after its commit): what was sent with it is rolled back. */
class AlreadyEnded extends Error {}

async function commitItem(
  deps: ServiceDeps,
  boss: PgBoss,
  jobId: string,
  itemId: string,
  account: Account,
  outcome: { error: string } | { result: CalendarResult; request: NormalizedCalendarRequest },
): Promise<void> {
  let ended: BatchItemOutcome | null = null;
  await pipelinedTransaction(deps.sql, async (tx) => {
    let counts: JobCounts | null;
    if ('error' in outcome) {
      counts = await failItem(tx, jobId, itemId, outcome.error);
      if (!counts) return;
      ended = 'failed';
    } else {
      const { result, request } = outcome;
      const cost = deps.config.CREDITS_MODE === 'off' ? 0 : calendarCharge(request, result);
      // the item's charge is a batch of one in this transaction; under enforcement it needs the balance to cover it
      const charge =
        account.plan && cost > 0
          ? { plan: account.plan, amount: cost, note: 'POST /v1/jobs item', requireFunds: deps.config.CREDITS_MODE === 'enforce' }
          : null;
      // The four writes go out together, in one round trip with BEGIN: none needs another's answer.
      // An item that had already ended (a replay after the commit) rolls all of them back.
      const [succeeded, , left, counted] = await Promise.all([
        succeedItem(tx, itemId, result, cost),
        storeCalendarRates(tx, account.id, request, result, { runId: runIdForJob(jobId), collectionKey: itemId }),
        charge ? deps.platform.calls.write({ id: itemId, accountId: account.id, history: null, charge }, tx) : null,
        countSucceeded(tx, jobId),
      ]);
      if (!succeeded) throw new AlreadyEnded();
      if (charge && left === null) throw new OutOfCredits(cost);
      ended = 'succeeded';
      counts = counted;
    }
    if (counts.ended >= counts.items_total) await finishJob(deps, boss, tx, jobId);
  }).catch((err: unknown) => {
    if (!(err instanceof AlreadyEnded)) throw err;
  });
  if (ended) deps.ops.metrics.batchItems.inc({ outcome: ended });
}

async function finishJob(deps: ServiceDeps, boss: PgBoss, tx: Db, jobId: string): Promise<void> {
  const job = await lockJob(tx, jobId);
  if (job.finished_at) return;
  const items = await itemsOfJob<CalendarResult>(tx, jobId);
  const results = items.flatMap((i) => (i.result ? [i.result] : []));
  const db = await runTotals(tx, job.account_id, runIdForJob(jobId));
  const status = job.items_failed === 0 ? 'succeeded' : job.items_succeeded === 0 ? 'failed' : 'partial';
  const error = status === 'succeeded' ? null : `${job.items_failed} of ${job.items_total} items failed`;
  const summary = {
    rates: results.reduce((n, r) => n + r.rates.length, 0),
    wire_bytes: results.reduce((n, r) => n + r.wire_bytes, 0),
    database: { run_id: runIdForJob(jobId), ...db },
  };
  const artifact = await writeJobArtifact(tx, job.account_id, jobId, { job_id: jobId, status, result_summary: summary, items });
  await completeJob(tx, jobId, { status, error, summary, artifact });
  if (job.callback_url) await queueJobWebhook(boss, tx, jobId);
}
