import type PgBoss from 'pg-boss';
import { pipelinedTransaction, type Tx } from '../db/client.js';
import { calendarInputOf } from '../domain/calendar-request.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { runStandingCall, type CommitCall } from '../core/call.js';
import { settleParityWatch } from '../core/watches/parity-watch.js';
import type { BatchItemOutcome } from '../ops/metrics.js';
import { Unfunded, type ApiError } from '../domain/errors.js';
import { keyById } from '../platform/keys.js';
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
  type StartedItem,
} from '../jobs/calendar-jobs.js';
import type { CalendarResult } from '../domain/calendar-result.js';
import { runIdForJob, runTotals } from '../platform/stored-rates.js';
import { calendar } from '../../tools/calendar.js';
import { compareHotelPrices, type CompareAnswer } from '../../tools/compare.js';
import { getHotelOffers } from '../../tools/hotels.js';
import type { OffersResult } from '../sources/metasearch/hotels/offers-run.js';
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

async function ensureJobQueues(boss: PgBoss): Promise<void> {
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

/** The operation each kind of item runs. */
const ITEM_OPERATIONS: Record<StartedItem['kind'], string> = { calendar: calendar.name, compare: compareHotelPrices.name, offers: getHotelOffers.name };

/** What a batch item is recorded under in the ledger: the route that made its job. */
const JOB_ROUTE = { method: 'POST', path: '/v1/jobs' } as const;

/**
 * One attempt at an item: a call of the calendar operation through the one call lifecycle
 * (core/call.ts runStandingCall), as the key that made the job, its stored rates joining the job's
 * run, paid from the balance as it stands (checked before the item runs, charged only while it
 * still covers the charge: items finishing side by side never take it below zero), and settled in
 * the item's own transaction. A retryable failure with attempts left goes back to the queue.
 */
async function runItem(deps: ServiceDeps, boss: PgBoss, itemId: string): Promise<void> {
  const item = await startItem(deps.sql, itemId);
  if (!item) return; // already terminal: a replay after the commit
  if (item.attempts > MAX_ITEM_ATTEMPTS) return failItemIn(deps, boss, item, `gave up after ${MAX_ITEM_ATTEMPTS} attempts`);
  const key = await keyById(deps.sql, item.key_id);
  if (!key) throw new Error(`calendar item ${itemId}: the key of its job is gone`);
  // a calendar, one stay's comparison (a parity range's) or its offers (a per-seller shop's): the operation as its own route runs it
  const operation = ITEM_OPERATIONS[item.kind];
  const tool = deps.tools.find((t) => t.name === operation);
  if (!tool) throw new Error(`calendar item ${itemId}: ${operation} is not served`);
  // the attempt ends unsettled: its failure is retried by the queue (`retry`), or its commit failed (`fault`: the queue runs it again)
  const ends: { retry: unknown; fault: unknown } = { retry: null, fault: null };
  const result = await runStandingCall<ItemResult | string>(
    {
      transport: 'batch',
      route: JOB_ROUTE,
      status: 200,
      answer: (output) => output as ItemResult,
      failure: (api, err) => {
        if (ends.fault === null && api.retryable && item.attempts < MAX_ITEM_ATTEMPTS) ends.retry = err;
        else if (ends.fault === null && api.status === 500) deps.log.error({ err, itemId }, 'calendar item failed with a server fault');
        return { status: api.status, body: itemError(api) };
      },
      bytes: () => 0,
      chargeNote: `${JOB_ROUTE.method} ${JOB_ROUTE.path} item`,
      // the job's call has the history row; the items are counted in their own metric
      history: false,
      recorded: false,
      payment: 'balance',
      async settle(commit, reply, meter) {
        const body = reply.body;
        if (typeof body !== 'string') {
          // its charge no longer covered: the item settles again as that failure; any other fault, the queue retries it whole
          return succeedItemIn(deps, boss, item, { result: body, credits: meter.charged, commit }).catch((err: unknown) => {
            if (!(err instanceof Unfunded)) ends.fault = err;
            throw err;
          });
        }
        if (ends.fault) return;
        if (ends.retry) {
          await requeueItem(deps.sql, itemId, body);
          deps.ops.metrics.batchItems.inc({ outcome: 'retried' });
          return;
        }
        return failItemIn(deps, boss, item, body, commit);
      },
    },
    {
      deps,
      tool,
      admit: () => ({ key, requestId: itemId, headers: {}, runId: runIdForJob(item.job_id) }),
      input: () => (item.kind === 'calendar' ? calendarInputOf(item.request) : item.request),
    },
  );
  if (result.unsettled) throw result.unsettled;
  // pg-boss retries with backoff
  if (ends.fault ?? ends.retry) throw ends.fault ?? ends.retry;
}

/** What a succeeded item stores: the calendar's answer, the comparison's (POST /v1/ota/compare) or the offers' (POST /v1/offers). */
type ItemResult = CalendarResult | CompareAnswer | OffersResult;

/** An item's error as its job shows it. */
function itemError(api: ApiError): string {
  if (api instanceof Unfunded) return `insufficient credits: this item costs ${api.cost}${api.available === null ? '' : `, ${api.available} available`}`;
  return typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail);
}

/** How an item ended, with its job's counts after it; null: it had already ended (a replay after its commit). */
type Ended = { outcome: BatchItemOutcome; counts: JobCounts } | null;

/** The item had already ended: what was sent with it is rolled back. */
class AlreadyEnded extends Error {}

/** The item succeeded: its result, its call's commit (the stored rates, the charge) and the job's count, in one round trip with BEGIN. */
function succeedItemIn(deps: ServiceDeps, boss: PgBoss, item: StartedItem, s: { result: ItemResult; credits: number; commit: CommitCall }) {
  return endItem(deps, boss, item, async (tx) => {
    // none needs another's answer; all answered before the transaction ends, whichever fails
    const [succeeded, committed, counted] = await Promise.allSettled([
      succeedItem(tx, item.id, s.result, s.credits),
      s.commit(tx),
      countSucceeded(tx, item.job_id),
    ]);
    for (const r of [committed, succeeded, counted]) if (r.status === 'rejected') throw r.reason;
    return (succeeded as PromiseFulfilledResult<boolean>).value ? { outcome: 'succeeded', counts: (counted as PromiseFulfilledResult<JobCounts>).value } : null;
  });
}

/** The item failed (its call's commit, when it ran, records it: nothing charged). */
function failItemIn(deps: ServiceDeps, boss: PgBoss, item: StartedItem, error: string, commit?: CommitCall) {
  return endItem(deps, boss, item, async (tx) => {
    await commit?.(tx);
    const counts = await failItem(tx, item.job_id, item.id, error);
    return counts && { outcome: 'failed', counts };
  });
}

/** Commits the item's end, and the job's when it was the last; guarded by the item's status, so that a replay changes nothing twice. */
async function endItem(deps: ServiceDeps, boss: PgBoss, item: StartedItem, end: (tx: Tx) => Promise<Ended>): Promise<void> {
  const done: { ended: Ended } = { ended: null };
  await pipelinedTransaction(deps.sql, async (tx) => {
    done.ended = await end(tx);
    if (!done.ended) throw new AlreadyEnded();
    if (done.ended.counts.ended >= done.ended.counts.items_total) await finishJob(deps, boss, tx, item.job_id);
  }).catch((err: unknown) => {
    if (!(err instanceof AlreadyEnded)) throw err;
    done.ended = null;
  });
  if (done.ended) deps.ops.metrics.batchItems.inc({ outcome: done.ended.outcome });
}

async function finishJob(deps: ServiceDeps, boss: PgBoss, tx: Tx, jobId: string): Promise<void> {
  const job = await lockJob(tx, jobId);
  if (job.finished_at) return;
  const items = await itemsOfJob<ItemResult>(tx, jobId);
  // the calendars' rates (a comparison or an offers item stores none of its own)
  const results = items.flatMap((i) => (i.kind === 'calendar' && i.result ? [i.result as CalendarResult] : []));
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
  // a parity range a watch submitted: its check is settled with the job
  await settleParityWatch(deps, tx, jobId);
}
