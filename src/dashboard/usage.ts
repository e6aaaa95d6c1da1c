import type { Sql } from '../db/client.js';

/** Usage windows of the dashboard, in whole UTC days ending today. */
export const DASHBOARD_PERIODS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type DashboardPeriod = keyof typeof DASHBOARD_PERIODS;

export interface DayUsage {
  date: string;
  requests: number;
  errors: number;
}

export interface EndpointUsage {
  method: string;
  path: string;
  requests: number;
  errors: number;
  p95_ms: number | null;
}

export interface AccountUsage {
  period: DashboardPeriod;
  start: string;
  totals: { requests: number; errors: number; p95_ms: number | null; avg_ms: number | null };
  by_day: DayUsage[];
  by_endpoint: EndpointUsage[];
}

const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

/** The account's request history (every key it ever had, rotated ones included), per day and per endpoint. */
export async function accountUsage(sql: Sql, accountId: string, period: DashboardPeriod): Promise<AccountUsage> {
  const days = DASHBOARD_PERIODS[period];
  const [bounds] = await sql`
    SELECT (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => ${days - 1})) AT TIME ZONE 'UTC' AS start`;
  const scope = sql`h.key_id IN (SELECT id FROM api_keys WHERE account_id = ${accountId}) AND h.created_at >= ${bounds.start}`;
  const [totals, byDay, byEndpoint] = await Promise.all([
    sql`SELECT count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY h.duration_ms) AS p95_ms, avg(h.duration_ms) AS avg_ms
        FROM request_history h WHERE ${scope}`,
    sql`WITH d AS (
          SELECT generate_series(0, ${days - 1}::int) AS i)
        SELECT to_char((${bounds.start}::timestamptz AT TIME ZONE 'UTC') + make_interval(days => d.i), 'YYYY-MM-DD') AS date,
          count(h.id)::int AS requests, count(h.id) FILTER (WHERE h.status >= 400)::int AS errors
        FROM d LEFT JOIN request_history h
          ON ${scope} AND h.created_at >= ${bounds.start}::timestamptz + make_interval(days => d.i)
          AND h.created_at < ${bounds.start}::timestamptz + make_interval(days => d.i + 1)
        GROUP BY d.i ORDER BY d.i`,
    sql`SELECT h.method, h.path, count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY h.duration_ms) AS p95_ms
        FROM request_history h WHERE ${scope}
        GROUP BY h.method, h.path ORDER BY count(*) DESC, h.method, h.path LIMIT 50`,
  ]);
  const t = totals[0];
  return {
    period,
    start: (bounds.start as Date).toISOString(),
    totals: { requests: t.requests, errors: t.errors, p95_ms: round1(t.p95_ms), avg_ms: round1(t.avg_ms) },
    by_day: byDay.map((r) => ({ date: r.date as string, requests: r.requests as number, errors: r.errors as number })),
    by_endpoint: byEndpoint.map((r) => ({
      method: r.method as string,
      path: r.path as string,
      requests: r.requests as number,
      errors: r.errors as number,
      p95_ms: round1(r.p95_ms as number | null),
    })),
  };
}
