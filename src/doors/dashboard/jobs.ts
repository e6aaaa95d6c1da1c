import type { Sql } from '../../db/client.js';

export interface JobSummary {
  id: string;
  status: string;
  items_total: number;
  items_succeeded: number;
  items_failed: number;
  created_at: Date;
}

/**
 * Recent calendar batches of the account. `calendar_jobs` arrives with the batch feature: until
 * then there is nothing to show. Rows are scoped by `account_id` and/or by `key_id` through the
 * account's keys (rotated ones included); a table with neither is not shown, rather than others' batches.
 */
export async function recentJobs(sql: Sql, accountId: string, limit = 25): Promise<JobSummary[]> {
  const [t] = await sql`
    SELECT to_regclass('calendar_jobs') IS NOT NULL AS present,
      EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'calendar_jobs' AND column_name = 'account_id'
        AND table_schema = ANY (current_schemas(false))) AS by_account,
      EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'calendar_jobs' AND column_name = 'key_id'
        AND table_schema = ANY (current_schemas(false))) AS by_key`;
  if (!t.present || (!t.by_account && !t.by_key)) return [];
  const byKey = sql`key_id IN (SELECT id FROM api_keys WHERE account_id = ${accountId})`;
  const byAccount = sql`account_id = ${accountId}`;
  const scope = t.by_account && t.by_key ? sql`(${byAccount} OR ${byKey})` : t.by_account ? byAccount : byKey;
  const rows = await sql`
    SELECT id, status, items_total, items_succeeded, items_failed, created_at FROM calendar_jobs
    WHERE ${scope} ORDER BY created_at DESC LIMIT ${limit}`;
  return rows.map((r) => ({
    id: String(r.id),
    status: String(r.status),
    items_total: Number(r.items_total),
    items_succeeded: Number(r.items_succeeded),
    items_failed: Number(r.items_failed),
    created_at: r.created_at as Date,
  }));
}
