import type { Db } from '../db/client.js';
import {
  historyByDay,
  historyByEndpoint,
  historyByKey,
  historyByStatus,
  historyScheduled,
  historyTotals,
  windowEndingNow,
  type HistoryScope,
} from './history.js';

export const USAGE_PERIODS = { '24h': '24 hours', '7d': '7 days', '30d': '30 days', '90d': '90 days' } as const;
export type UsagePeriod = keyof typeof USAGE_PERIODS;

/** The contract's durations are numbers: a period without calls reports 0 ms (history.ts answers null there). */
const ms = (n: number | null) => (n === null ? 0 : Math.round(n * 10) / 10);

/**
 * Aggregates of the request history of `keyIds` (the calling key, and the apps connected to its
 * account: readableKeyIds); never another key's. `by_key` splits the calls per key.
 */
export async function usageFor(db: Db, keyIds: string[], period: UsagePeriod) {
  const { start, end } = await windowEndingNow(db, USAGE_PERIODS[period]);
  const scope: HistoryScope = { keyIds, after: start, until: end };
  const [t, byStatus, byEndpoint, byDay, byKey, scheduled] = await Promise.all([
    historyTotals(db, scope),
    historyByStatus(db, scope),
    historyByEndpoint(db, scope),
    historyByDay(db, scope),
    historyByKey(db, scope),
    historyScheduled(db, scope),
  ]);
  return {
    period: { name: period, start: start.toISOString(), end: end.toISOString() },
    totals: {
      requests: t.requests,
      successful: t.successful,
      errors: t.errors,
      rate_limited: t.rate_limited,
      response_bytes: t.response_bytes,
      credits: t.credits,
      avg_duration_ms: ms(t.avg_ms),
      p95_duration_ms: ms(t.p95_ms),
    },
    by_status: byStatus,
    by_endpoint: byEndpoint.map((e) => ({
      method: e.method,
      path: e.path,
      requests: e.requests,
      errors: e.errors,
      credits: e.credits,
      avg_duration_ms: ms(e.avg_ms),
      p95_duration_ms: ms(e.p95_ms),
    })),
    by_day: byDay,
    scheduled,
    by_key: byKey,
  };
}
