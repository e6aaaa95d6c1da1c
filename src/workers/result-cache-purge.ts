import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { startHourly } from '../jobs/hourly.js';

export const RESULT_CACHE_PURGE_QUEUE = 'result-cache-purge';

/**
 * Hourly: deletes the result cache's expired answers and abandoned claims, and keeps what is left
 * within RESULT_CACHE_MAX_MB. Reads already ignore expired answers and writers check the cap as they
 * go; this bounds the table between them.
 */
export async function startResultCachePurge(deps: Pick<ServiceDeps, 'results' | 'log'>, boss: PgBoss): Promise<void> {
  await startHourly(deps.log, boss, {
    queue: RESULT_CACHE_PURGE_QUEUE,
    cron: '27 * * * *',
    what: 'expired or evicted result cache entries deleted',
    run: () => deps.results.purge(),
  });
}
