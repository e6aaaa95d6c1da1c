import type { Db, Fragment } from '../db/client.js';

/*
 * The owner of request_history: one row per /v1 request and MCP tool call, owned by the key's
 * account; never the key, never bodies or query strings (the route's template only), so
 * zero_retention calls keep nothing more. Rows are written only by the money path (credits.ts
 * `settle`, through insertHistoryFrom), so a call's history row and its charge commit together.
 */

/**
 * The method of a scheduled watch check's row (and of each failed attempt at one): the schedule,
 * not the customer, made it, so the usage aggregates count it apart (`scheduled`), never as the
 * customer's own calls or errors. A check asked for (POST /v1/watches/{watch_id}/check) is a call.
 */
export const SCHEDULED_CHECK = 'SCHEDULE';

/** What a call's history row says besides its id and account (the settlement carries those). */
export interface CallHistory {
  key_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  response_bytes: number;
  credits: number;
  rate_limited: boolean;
  /** Answered from the result cache (free); absent: no. */
  cache_hit?: boolean;
}

export interface HistoryRow extends CallHistory {
  id: string;
  created_at: Date;
}

/**
 * The history rows of a settlement, for its one statement: `source` names a relation with the
 * columns id, account_id and those of CallHistory; its rows without a key_id are not calls (batch items).
 */
export function insertHistoryFrom(db: Db, source: Fragment): Fragment {
  return db`INSERT INTO request_history (id, key_id, account_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, cache_hit)
    SELECT s.id, s.key_id, s.account_id, s.method, s.path, s.status, s.duration_ms, s.response_bytes, s.credits, s.rate_limited, coalesce(s.cache_hit, false)
    FROM ${source} s WHERE s.key_id IS NOT NULL
    ON CONFLICT (id) DO NOTHING`;
}

/** Per the contract, history is read per calling key (inside the key's account): `keyIds` from readableKeyIds. */
export async function findRequest(db: Db, keyIds: string[], id: string): Promise<HistoryRow | null> {
  const [row] = await db<HistoryRow[]>`
    SELECT id, key_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, cache_hit, created_at
    FROM request_history WHERE id = ${id} AND key_id = ANY(${keyIds})`;
  return row ?? null;
}

// ---- aggregates: GET /v1/usage (src/platform/usage.ts) and the dashboard (src/doors/dashboard/usage.ts) ----

/**
 * Which rows an aggregate reads: the calls of `keyIds` in (after, until] (a key's own reads,
 * readableKeyIds), or every call of the account since `since` (the dashboard: all its keys ever,
 * rotated ones and connected apps included).
 */
export type HistoryScope = { keyIds: string[]; after: Date; until: Date } | { accountId: string; since: Date };

function where(db: Db, scope: HistoryScope, rows: 'calls' | 'scheduled' = 'calls'): Fragment {
  const made = rows === 'calls' ? db`h.method <> ${SCHEDULED_CHECK}` : db`h.method = ${SCHEDULED_CHECK}`;
  return 'keyIds' in scope
    ? db`h.key_id = ANY(${scope.keyIds}) AND h.created_at > ${scope.after} AND h.created_at <= ${scope.until} AND ${made}`
    : db`h.account_id = ${scope.accountId} AND h.created_at >= ${scope.since} AND ${made}`;
}

/** The window of a period that ends now, by the database's clock. */
export async function windowEndingNow(db: Db, interval: string): Promise<{ start: Date; end: Date }> {
  const [w] = await db<{ start: Date; end: Date }[]>`SELECT now() - ${interval}::interval AS start, now() AS end`;
  return w;
}

/** The start of the last `count` whole UTC hours or days, the current one included, by the database's clock. */
export async function alignedWindowStart(db: Db, unit: 'hour' | 'day', count: number): Promise<Date> {
  const [w] = await db<{ start: Date }[]>`
    SELECT (date_trunc(${unit}, now() AT TIME ZONE 'UTC') - ${count - 1} * ${step(db, unit)}) AT TIME ZONE 'UTC' AS start`;
  return w.start;
}

const step = (db: Db, unit: 'hour' | 'day') => db`make_interval(${db.unsafe(unit === 'hour' ? 'hours' : 'days')} => 1)`;

/**
 * Counts and latency. avg_ms and p95_ms are null when there is no call to measure (both readers
 * get the same; the REST contract's numbers then say 0, the dashboard a dash).
 */
export interface HistoryTotals {
  requests: number;
  successful: number;
  errors: number;
  rate_limited: number;
  response_bytes: number;
  credits: number;
  avg_ms: number | null;
  p95_ms: number | null;
}

export async function historyTotals(db: Db, scope: HistoryScope): Promise<HistoryTotals> {
  const [t] = await db<HistoryTotals[]>`
    SELECT count(*)::int AS requests, coalesce(sum(h.credits), 0)::int AS credits,
      count(*) FILTER (WHERE h.status < 400)::int AS successful,
      count(*) FILTER (WHERE h.status >= 400)::int AS errors,
      count(*) FILTER (WHERE h.rate_limited)::int AS rate_limited,
      coalesce(sum(h.response_bytes), 0) AS response_bytes,
      avg(h.duration_ms) AS avg_ms,
      percentile_cont(0.95) WITHIN GROUP (ORDER BY h.duration_ms) AS p95_ms
    FROM request_history h WHERE ${where(db, scope)}`;
  return t;
}

export interface EndpointStats {
  method: string;
  path: string;
  requests: number;
  errors: number;
  credits: number;
  avg_ms: number;
  p95_ms: number;
}

/** The busiest endpoints (method and route template), most calls first. */
export async function historyByEndpoint(db: Db, scope: HistoryScope, limit = 50): Promise<EndpointStats[]> {
  return db<EndpointStats[]>`
    SELECT h.method, h.path, count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors,
      coalesce(sum(h.credits), 0)::int AS credits, avg(h.duration_ms) AS avg_ms, percentile_cont(0.95) WITHIN GROUP (ORDER BY h.duration_ms) AS p95_ms
    FROM request_history h WHERE ${where(db, scope)}
    GROUP BY h.method, h.path ORDER BY count(*) DESC, h.method, h.path LIMIT ${limit}`;
}

/** The calls of one key row: an API key, or the key row of a connected app. */
export interface KeyStats {
  key_id: string;
  requests: number;
  errors: number;
  credits: number;
}

export async function historyByKey(db: Db, scope: HistoryScope): Promise<KeyStats[]> {
  return db<KeyStats[]>`
    SELECT h.key_id, count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors, coalesce(sum(h.credits), 0)::int AS credits
    FROM request_history h WHERE ${where(db, scope)} GROUP BY h.key_id`;
}

export async function historyByStatus(db: Db, scope: HistoryScope): Promise<{ status: number; requests: number }[]> {
  return db<{ status: number; requests: number }[]>`
    SELECT h.status, count(*)::int AS requests FROM request_history h WHERE ${where(db, scope)} GROUP BY h.status ORDER BY h.status`;
}

/** Per UTC day that had calls, in order. */
export async function historyByDay(
  db: Db,
  scope: HistoryScope,
): Promise<{ date: string; requests: number; errors: number; credits: number; response_bytes: number }[]> {
  return db<{ date: string; requests: number; errors: number; credits: number; response_bytes: number }[]>`
    SELECT to_char(date_trunc('day', h.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS date,
      count(*)::int AS requests, count(*) FILTER (WHERE h.status >= 400)::int AS errors,
      coalesce(sum(h.credits), 0)::int AS credits, coalesce(sum(h.response_bytes), 0) AS response_bytes
    FROM request_history h WHERE ${where(db, scope)} GROUP BY 1 ORDER BY 1`;
}

/** The watch schedule's work in the scope: checks committed, failed attempts (charged nothing), credits. */
export async function historyScheduled(db: Db, scope: HistoryScope): Promise<{ checks: number; failed_attempts: number; credits: number }> {
  const [t] = await db<{ checks: number; failed_attempts: number; credits: number }[]>`
    SELECT count(*) FILTER (WHERE h.status < 400)::int AS checks, count(*) FILTER (WHERE h.status >= 400)::int AS failed_attempts,
      coalesce(sum(h.credits), 0)::int AS credits
    FROM request_history h WHERE ${where(db, scope, 'scheduled')}`;
  return t;
}

/** Every hour or day of the window from `since` (the empty ones too), in order. */
export async function historyByBucket(
  db: Db,
  scope: { accountId: string; since: Date },
  unit: 'hour' | 'day',
  count: number,
): Promise<{ start: Date; requests: number; errors: number }[]> {
  const s = step(db, unit);
  return db<{ start: Date; requests: number; errors: number }[]>`
    WITH b AS (
      SELECT i, ${scope.since}::timestamptz + i * ${s} AS start FROM generate_series(0, ${count - 1}::int) AS i)
    SELECT b.start, count(h.id)::int AS requests, count(h.id) FILTER (WHERE h.status >= 400)::int AS errors
    FROM b LEFT JOIN request_history h ON ${where(db, scope)} AND h.created_at >= b.start AND h.created_at < b.start + ${s}
    GROUP BY b.i, b.start ORDER BY b.i`;
}

/** Charged calls of the key in the last hour (the compatible API's `searches_this_hour`). */
export async function chargedCallsLastHour(db: Db, keyId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    SELECT count(*)::int AS n FROM request_history WHERE key_id = ${keyId} AND credits > 0 AND created_at > now() - interval '1 hour'`;
  return row.n;
}

/** Calls and credits of each key row over the last `days` days (the connected apps' page). */
export async function recentTotalsByKey(db: Db, keyIds: string[], days: number): Promise<Map<string, { calls: number; credits: number }>> {
  const rows = await db<{ key_id: string; calls: number; credits: number }[]>`
    SELECT key_id, count(*)::int AS calls, coalesce(sum(credits), 0)::int AS credits FROM request_history
    WHERE key_id = ANY(${keyIds}) AND created_at > now() - make_interval(days => ${days}) GROUP BY key_id`;
  return new Map(rows.map((r) => [r.key_id, { calls: r.calls, credits: r.credits }]));
}

/** The account's latest calls made through `keyIds`, newest first. */
export async function latestCalls(db: Db, accountId: string, keyIds: string[], limit: number): Promise<HistoryRow[]> {
  return db<HistoryRow[]>`
    SELECT id, key_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, created_at FROM request_history
    WHERE account_id = ${accountId} AND key_id = ANY(${keyIds})
    ORDER BY created_at DESC LIMIT ${limit}`;
}
