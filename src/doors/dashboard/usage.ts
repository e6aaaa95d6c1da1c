import type { Sql } from '../../db/client.js';
import { alignedWindowStart, historyByBucket, historyByEndpoint, historyByKey, historyTotals } from '../../platform/history.js';
import type { AppLabel } from '../../platform/oauth-store.js';

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

interface EndpointUsage {
  method: string;
  path: string;
  requests: number;
  errors: number;
  p95_ms: number | null;
}

/** The calls of one key row in the period: an API key, or the key row of a connected app. */
interface KeyUsage {
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
  const since = await alignedWindowStart(sql, unit, count);
  const scope = { accountId, since };
  const [t, byBucket, byEndpoint, byKey] = await Promise.all([
    historyTotals(sql, scope),
    historyByBucket(sql, scope, unit, count),
    historyByEndpoint(sql, scope),
    historyByKey(sql, scope),
  ]);
  return {
    period,
    start: since.toISOString(),
    totals: { requests: t.requests, errors: t.errors, p95_ms: round1(t.p95_ms), avg_ms: round1(t.avg_ms) },
    by_bucket: byBucket.map((r) => ({ start: r.start.toISOString(), unit, requests: r.requests, errors: r.errors })),
    by_endpoint: byEndpoint.map((r) => ({ method: r.method, path: r.path, requests: r.requests, errors: r.errors, p95_ms: round1(r.p95_ms) })),
    by_key: byKey,
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
    const into = app
      ? (byApp.get(app.client_id) ?? byApp.set(app.client_id, { label: app.name, app: true, requests: 0, errors: 0, credits: 0 }).get(app.client_id)!)
      : keys;
    into.requests += k.requests;
    into.errors += k.errors;
    into.credits += k.credits;
  }
  return [keys, ...[...byApp.values()].sort((a, b) => b.requests - a.requests)];
}
