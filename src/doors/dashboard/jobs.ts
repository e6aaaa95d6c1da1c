import type { Sql } from '../../db/client.js';
import { recentJobsOf, type JobSummary } from '../../jobs/calendar-jobs.js';

export type { JobSummary };

/** Recent calendar batches of the account, newest first (its own only). */
export function recentJobs(sql: Sql, accountId: string, limit = 25): Promise<JobSummary[]> {
  return recentJobsOf(sql, accountId, limit);
}
