import type { Sql } from '../db/client.js';

export const USAGE_PERIODS = { '24h': '24 hours', '7d': '7 days', '30d': '30 days', '90d': '90 days' } as const;
export type UsagePeriod = keyof typeof USAGE_PERIODS;

const round1 = (n: number | null) => (n === null ? 0 : Math.round(n * 10) / 10);

/**
 * Aggregates of the request history of `keyIds` (the calling key, and the apps connected to its
 * account: readableKeyIds); never another key's. `by_key` splits the calls per key.
 */
export async function usageFor(sql: Sql, keyIds: string[], period: UsagePeriod) {
  const interval = USAGE_PERIODS[period];
  const [bounds] = await sql`SELECT now() AS end, now() - ${interval}::interval AS start`;
  const scope = sql`key_id = ANY(${keyIds}) AND created_at > ${bounds.start} AND created_at <= ${bounds.end}`;
  const [totals, byStatus, byEndpoint, byDay, byKey] = await Promise.all([
    sql`SELECT count(*) AS requests,
          count(*) FILTER (WHERE status < 400) AS successful,
          count(*) FILTER (WHERE status >= 400) AS errors,
          count(*) FILTER (WHERE rate_limited) AS rate_limited,
          coalesce(sum(response_bytes), 0) AS response_bytes,
          avg(duration_ms) AS avg_ms,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95_ms
        FROM request_history WHERE ${scope}`,
    sql`SELECT status, count(*) AS requests FROM request_history WHERE ${scope} GROUP BY status ORDER BY status`,
    sql`SELECT method, path, count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors,
          avg(duration_ms) AS avg_ms, percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95_ms
        FROM request_history WHERE ${scope}
        GROUP BY method, path ORDER BY count(*) DESC, method, path LIMIT 50`,
    sql`SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS date,
          count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors,
          coalesce(sum(response_bytes), 0) AS response_bytes
        FROM request_history WHERE ${scope} GROUP BY 1 ORDER BY 1`,
    sql`SELECT key_id, count(*)::int AS requests, count(*) FILTER (WHERE status >= 400)::int AS errors, coalesce(sum(credits), 0)::int AS credits
        FROM request_history WHERE ${scope} GROUP BY key_id`,
  ]);
  const t = totals[0];
  return {
    period: { name: period, start: (bounds.start as Date).toISOString(), end: (bounds.end as Date).toISOString() },
    totals: {
      requests: t.requests,
      successful: t.successful,
      errors: t.errors,
      rate_limited: t.rate_limited,
      response_bytes: t.response_bytes,
      avg_duration_ms: round1(t.avg_ms),
      p95_duration_ms: round1(t.p95_ms),
    },
    by_status: byStatus.map((r) => ({ status: r.status as number, requests: r.requests as number })),
    by_endpoint: byEndpoint.map((r) => ({
      method: r.method as string,
      path: r.path as string,
      requests: r.requests as number,
      errors: r.errors as number,
      avg_duration_ms: round1(r.avg_ms),
      p95_duration_ms: round1(r.p95_ms),
    })),
    by_day: byDay.map((r) => ({ date: r.date as string, requests: r.requests as number, errors: r.errors as number, response_bytes: r.response_bytes as number })),
    by_key: byKey.map((r) => ({ key_id: r.key_id as string, requests: r.requests as number, errors: r.errors as number, credits: r.credits as number })),
  };
}

/** Charged calls of the key in the last hour (the compatible API's `searches_this_hour`). */
export async function chargedCallsLastHour(sql: Sql, keyId: string): Promise<number> {
  const [row] = await sql`SELECT count(*)::int AS n FROM request_history WHERE key_id = ${keyId} AND credits > 0 AND created_at > now() - interval '1 hour'`;
  return row.n as number;
}
