import type PgBoss from 'pg-boss';
import type { AppDeps } from '../deps.js';
import { purgeExpiredSearches } from '../compat/archive.js';

export const ARCHIVE_PURGE_QUEUE = 'search-archive-purge';
/** Hourly; the reads already ignore expired rows, so the schedule only bounds the table's size. */
const SCHEDULE = '17 * * * *';

/** Deletes expired archived searches now and then on pg-boss's schedule (one run per slot across processes). */
export async function startArchivePurge(deps: AppDeps, boss: PgBoss): Promise<void> {
  if (!(await boss.getQueue(ARCHIVE_PURGE_QUEUE))) {
    await boss.createQueue(ARCHIVE_PURGE_QUEUE).catch(async (err) => {
      if (!(await boss.getQueue(ARCHIVE_PURGE_QUEUE))) throw err;
    });
  }
  await boss.schedule(ARCHIVE_PURGE_QUEUE, SCHEDULE);
  await boss.work(ARCHIVE_PURGE_QUEUE, { pollingIntervalSeconds: 60 }, async () => {
    const deleted = await purgeExpiredSearches(deps.sql);
    if (deleted) deps.log.info({ deleted }, 'expired archived searches deleted');
  });
  await purgeExpiredSearches(deps.sql).catch((err) => deps.log.warn({ err }, 'archive purge at start-up failed'));
}
