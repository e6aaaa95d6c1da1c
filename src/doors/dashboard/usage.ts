import type { Sql } from '../../db/client.js';
import type { AppLabel } from '../../platform/oauth-grants.js';

/** Usage windows of the dashboard (the same names as GET /v1/usage): whole UTC hours or days ending now. */
export const DASHBOARD_PERIODS = {
  '24h': { unit: 'hour', count: 24, label: 'Last 24 hours' },
  '7d': { unit: 'day', count: 7, label: 'Last 7 days' },
  '30d': { unit: 'day', count: 30, label: 'Last 30 days' },
  '90d': { unit: 'day', count: 90, label: 'Last 90 days' },
} as const;
export type DashboardPeriod = keyof typeof DASHBOARD_PERIODS;

export const isDashboardPeriod = (p: unknown): p is DashboardPeriod => typeof p === 'string' && Object.hasOwn(DASHBOARD_PERIODS, p);

/** One bar of the chart: an hour (24h) or a UTC day. */
export interface BucketUsage {
  /** ISO start of the hour or day, UTC. */
  start: string;
  unit: 'hour' | 'day';
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

/** The calls of one key row in the period: an API key, or the key row of a connected app. */
export interface KeyUsage {
  key_id: string;
  requests: number;
  errors: number;
  credits: number;
}

export interface AccountUsage {
  period: DashboardPeriod;
  start: string;
  totals: { requests: number; errors: number; p95_ms: number | null; avg_ms: number | null };
  by_bucket: BucketUsage[];
  by_endpoint: EndpointUsage[];
  by_key: KeyUsage[];
}

const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

/** The account's request history (every key it ever had, rotated ones included), per hour or day and per endpoint. */
export async function accountUsage(sql: Sql, accountId: string, period: DashboardPeriod): Promise<AccountUsage> {
  const { unit, count } = DASHBOARD_PERIODS[period];
  const step = sql`make_interval(${sql.unsafe(unit === 'hour' ? 'hours' : 'days')} => 1)`;
  const [bounds] = await sql`
    SELECT (date_trunc(${unit}, now() AT TIME ZONE 'UTC') - ${count - 1} * ${step}) AT TIME ZONE 'UTC' AS start`;
  const scope = sql`h.key_id IN (SELECT id FROM api_keys WHERE account_id = ${accountId}) AND h.created_at >= ${bounds.start}`;
  const [totals, byBucket, byEndpoint, byKey] = await Promise.all([
    sql`SELECT count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY h.duration_ms) AS p95_ms, avg(h.duration_ms) AS avg_ms
        FROM request_history h WHERE ${scope}`,
    sql`WITH b AS (
          SELECT i, ${bounds.start}::timestamptz + i * ${step} AS start FROM generate_series(0, ${count - 1}::int) AS i)
        SELECT b.start, count(h.id)::int AS requests, count(h.id) FILTER (WHERE h.status >= 400)::int AS errors
        FROM b LEFT JOIN request_history h ON ${scope} AND h.created_at >= b.start AND h.created_at < b.start + ${step}
        GROUP BY b.i, b.start ORDER BY b.i`,
    sql`SELECT h.method, h.path, count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY h.duration_ms) AS p95_ms
        FROM request_history h WHERE ${scope}
        GROUP BY h.method, h.path ORDER BY count(*) DESC, h.method, h.path LIMIT 50`,
    sql`SELECT h.key_id, count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors, coalesce(sum(h.credits), 0)::int AS credits
        FROM request_history h WHERE ${scope} GROUP BY h.key_id`,
  ]);
  const t = totals[0];
  return {
    period,
    start: (bounds.start as Date).toISOString(),
    totals: { requests: t.requests, errors: t.errors, p95_ms: round1(t.p95_ms), avg_ms: round1(t.avg_ms) },
    by_bucket: byBucket.map((r) => ({ start: (r.start as Date).toISOString(), unit, requests: r.requests as number, errors: r.errors as number })),
    by_endpoint: byEndpoint.map((r) => ({
      method: r.method as string,
      path: r.path as string,
      requests: r.requests as number,
      errors: r.errors as number,
      p95_ms: round1(r.p95_ms as number | null),
    })),
    by_key: byKey.map((r) => ({ key_id: r.key_id as string, requests: r.requests as number, errors: r.errors as number, credits: r.credits as number })),
  };
}

/** Who made the calls: the account's API keys together, and each connected app by name. */
export interface CallerUsage {
  label: string;
  app: boolean;
  requests: number;
  errors: number;
  credits: number;
}

/** The period's calls by caller: the API keys together first, then each connected app, busiest first. */
export function callerUsage(usage: AccountUsage, apps: Map<string, AppLabel>): CallerUsage[] {
  const keys: CallerUsage = { label: 'API keys', app: false, requests: 0, errors: 0, credits: 0 };
  const byApp = new Map<string, CallerUsage>();
  for (const k of usage.by_key) {
    const app = apps.get(k.key_id);
    const into = app ? (byApp.get(app.client_id) ?? byApp.set(app.client_id, { label: app.name, app: true, requests: 0, errors: 0, credits: 0 }).get(app.client_id)!) : keys;
    into.requests += k.requests;
    into.errors += k.errors;
    into.credits += k.credits;
  }
  return [keys, ...[...byApp.values()].sort((a, b) => b.requests - a.requests)];
}
