import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { purgeExpiredSearches } from '../platform/search-archive.js';
import { startHourly } from '../jobs/hourly.js';

export const ARCHIVE_PURGE_QUEUE = 'search-archive-purge';

/** Deletes expired archived searches hourly; the reads already ignore them, so this only bounds the table's size. */
export async function startArchivePurge(deps: Pick<ServiceDeps, 'sql' | 'log'>, boss: PgBoss): Promise<void> {
  await startHourly(deps.log, boss, {
    queue: ARCHIVE_PURGE_QUEUE,
    cron: '17 * * * *',
    what: 'expired archived searches deleted',
    run: () => purgeExpiredSearches(deps.sql),
  });
}
