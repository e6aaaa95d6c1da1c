/**
 * The watch scheduler on pg-boss, in the API process or in `npm run worker` processes alike (any
 * number): a thin adapter from the queues to the schedule's rules (core/watches/schedule.ts):
 * check workers take slot entries, webhook workers deliver events, and a sweep is offered once per
 * WATCH_SWEEP_S across processes.
 */
import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { checkSlot, sweepWatches } from '../core/watches/schedule.js';
import { derivedUuid } from '../domain/watch-schedule.js';
import { ensureQueue } from '../jobs/queue.js';
import { WATCH_CHECK_QUEUE, WATCH_SWEEP_QUEUE, WATCH_WEBHOOK_QUEUE, type CheckJob, type WatchWebhookJob } from '../jobs/watch-queue.js';
import { sendWatchWebhook } from './watch-webhooks.js';
import { webhookFetcher } from './webhooks.js';

async function ensureWatchQueues(boss: PgBoss): Promise<void> {
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
  await boss.work(WATCH_SWEEP_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async () => sweepWatches(deps, boss));
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
