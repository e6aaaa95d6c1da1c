import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { ensureQueue } from './queue.js';

export interface HourlyTask {
  /** The pg-boss queue of the schedule (one run per slot across processes). */
  queue: string;
  /** Cron minute and hour fields, e.g. '17 * * * *'. */
  cron: string;
  what: string;
  /** Rows removed (logged when any). */
  run(): Promise<number>;
}

/** Runs `task` now and then on pg-boss's schedule, and once at start-up. */
export async function startHourly(log: Logger, boss: PgBoss, task: HourlyTask): Promise<void> {
  // made before, with the other queues, under the start-up lock (queue.ts ensureQueues): this finds it
  await ensureQueue(boss, task.queue);
  await boss.schedule(task.queue, task.cron);
  await boss.work(task.queue, { pollingIntervalSeconds: 60 }, async () => {
    const deleted = await task.run();
    if (deleted) log.info({ deleted }, task.what);
  });
  await task.run().catch((err) => log.warn({ err }, `${task.what}: the run at start-up failed`));
}
