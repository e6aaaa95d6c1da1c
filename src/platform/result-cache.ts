import type { Sql } from '../db/client.js';
import { KeyWaiters } from '../db/key-waiters.js';

/*
 * The owner of result_cache: answers of public web data shared by every process, keyed by the
 * operation and its normalised input (the kernel's src/core/result-cache.ts makes the key and
 * decides when to read and write). A row is `pending` while one process fetches its answer (the
 * others wait for it instead of fetching too) and `ready` once the answer is in. Writers notify
 * CHANNEL with the key, so that processes waiting on it read it at once.
 */

const CHANNEL = 'result_cache_ready';

export interface CachedAnswer {
  /** The answer's JSON as first sent. */
  answer: string;
  facts: Record<string, unknown> | null;
  /** The request that fetched it. */
  requestId: string;
  observedAt: Date;
}

/** What claiming a fetch found: the claim is ours, an answer is ready, or another fetch holds it until `until`. */
export type Claim = { claimed: true } | { claimed: false; ready: CachedAnswer } | { claimed: false; ready: null; until: Date | null };

export interface CacheSize {
  entries: number;
  bytes: number;
  /** Fetches under way (their answers not in yet). */
  pending: number;
  oldest_observed_at: Date | null;
}

/** The cache's size across processes (/metrics, /v1/storage for admins). */
export async function resultCacheSize(sql: Sql): Promise<CacheSize> {
  const [r] = await sql<CacheSize[]>`
    SELECT count(*) FILTER (WHERE state = 'ready')::int AS entries, coalesce(sum(bytes), 0)::int8 AS bytes,
      count(*) FILTER (WHERE state = 'pending')::int AS pending, min(observed_at) FILTER (WHERE state = 'ready') AS oldest_observed_at
    FROM result_cache`;
  return r;
}

type Row = { answer: string; facts: Record<string, unknown> | null; request_id: string; observed_at: Date };
const toAnswer = (r: Row): CachedAnswer => ({ answer: r.answer, facts: r.facts, requestId: r.request_id, observedAt: r.observed_at });

export class ResultCacheStore {
  private readonly waiters = new KeyWaiters();
  private listening: Promise<boolean> | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly sql: Sql) {}

  /** The answer under `key`, if one is ready and younger than `freshS` seconds. */
  async read(key: string, freshS: number): Promise<CachedAnswer | null> {
    const [row] = await this.sql<Row[]>`
      SELECT answer, facts, request_id, observed_at FROM result_cache
      WHERE key = ${key} AND state = 'ready' AND expires_at > now() AND observed_at > now() - ${freshS}::int * interval '1 second'`;
    return row ? toAnswer(row) : null;
  }

  /**
   * Claims the fetch of `key` for `claimS` seconds, unless a fresh answer is there (returned) or
   * another fetch holds an unexpired claim (its end returned). One statement: of processes claiming
   * at once, one gets it.
   */
  async claim(key: string, operation: string, token: string, freshS: number, claimS: number): Promise<Claim> {
    const [row] = await this.sql<(Partial<Row> & { claimed: boolean; state: string | null; expires_at: Date | null })[]>`
      WITH c AS (
        INSERT INTO result_cache (key, operation, state, claim, observed_at, expires_at)
        VALUES (${key}, ${operation}, 'pending', ${token}, now(), now() + ${claimS}::int * interval '1 second')
        ON CONFLICT (key) DO UPDATE SET state = 'pending', claim = EXCLUDED.claim, answer = NULL, facts = NULL, bytes = 0,
          request_id = NULL, observed_at = EXCLUDED.observed_at, expires_at = EXCLUDED.expires_at
        WHERE result_cache.expires_at <= now() OR (result_cache.state = 'ready' AND result_cache.observed_at <= now() - ${freshS}::int * interval '1 second')
        RETURNING key)
      SELECT EXISTS (SELECT 1 FROM c) AS claimed, r.state, r.answer, r.facts, r.request_id, r.observed_at, r.expires_at
      FROM (SELECT 1) one LEFT JOIN result_cache r ON r.key = ${key}`;
    if (row.claimed) return { claimed: true };
    // the row as it stood when the statement began: a claim made at the same moment is not seen yet (until null: ask again)
    if (row.state === 'ready' && row.answer != null) return { claimed: false, ready: toAnswer(row as Row) };
    return { claimed: false, ready: null, until: row.state === 'pending' ? row.expires_at : null };
  }

  /**
   * Stores the answer under `key`, fresh for `freshS` seconds from `observedAt` (when its fetch began),
   * whoever held the claim, and wakes the processes waiting on it.
   */
  async fill(
    key: string,
    operation: string,
    a: { answer: string; facts: Record<string, unknown> | null; requestId: string; observedAt: Date },
    freshS: number,
  ): Promise<void> {
    const bytes = Buffer.byteLength(a.answer);
    await this.sql`
      WITH f AS (
        INSERT INTO result_cache (key, operation, state, answer, facts, bytes, request_id, observed_at, expires_at)
        VALUES (${key}, ${operation}, 'ready', ${a.answer}, ${a.facts === null ? null : JSON.stringify(a.facts)}::jsonb, ${bytes}, ${a.requestId}, ${a.observedAt}, ${a.observedAt}::timestamptz + ${freshS}::int * interval '1 second')
        ON CONFLICT (key) DO UPDATE SET state = 'ready', claim = NULL, answer = EXCLUDED.answer, facts = EXCLUDED.facts, bytes = EXCLUDED.bytes,
          request_id = EXCLUDED.request_id, observed_at = EXCLUDED.observed_at, expires_at = EXCLUDED.expires_at
        RETURNING key)
      SELECT pg_notify(${CHANNEL}, key) FROM f`;
  }

  /** Gives up the claim `token` holds on `key` (the fetch failed or its answer is not kept) and wakes the waiting processes. */
  async release(key: string, token: string): Promise<void> {
    await this.sql`
      WITH d AS (DELETE FROM result_cache WHERE key = ${key} AND state = 'pending' AND claim = ${token} RETURNING key)
      SELECT pg_notify(${CHANNEL}, key) FROM d`;
  }

  /**
   * Resolves when `key` is written or released by any process, or after `ms` (a notification lost
   * to a reconnect costs at most that), or when `signal` ends.
   */
  async waitFor(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    await this.listen();
    await this.waiters.wait(key, ms, signal);
  }

  /** Listens for written keys (once per process); false when it cannot (waits then end on their timer). */
  listen(): Promise<boolean> {
    this.listening ??= (async () => {
      try {
        const sub = await this.sql.listen(CHANNEL, (key) => this.wake(key));
        this.unlisten = () => sub.unlisten();
        return true;
      } catch {
        return false;
      }
    })();
    return this.listening;
  }

  private wake(key: string): void {
    this.waiters.wake(key);
  }

  /** Deletes expired answers and abandoned claims; returns how many. */
  async purgeExpired(): Promise<number> {
    const rows = await this.sql`DELETE FROM result_cache WHERE expires_at <= now() RETURNING 1`;
    return rows.length;
  }

  /**
   * Keeps the answers within `maxBytes`: past it, those nearest their expiry go first (they have
   * the least time left to serve). Returns how many were deleted.
   */
  async evict(maxBytes: number): Promise<number> {
    const rows = await this.sql`
      DELETE FROM result_cache c USING (
        SELECT key FROM (SELECT key, sum(bytes) OVER (ORDER BY expires_at DESC, key) AS kept FROM result_cache WHERE state = 'ready') r
        WHERE r.kept > ${maxBytes}) x
      WHERE c.key = x.key AND c.state = 'ready'
      RETURNING 1`;
    return rows.length;
  }

  /** Whether an entry is stored under `key` (tests and the operator's checks). */
  async has(key: string): Promise<boolean> {
    const [r] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM result_cache WHERE key = ${key}`;
    return r.n > 0;
  }

  async close(): Promise<void> {
    this.waiters.wakeAll();
    await this.unlisten?.().catch(() => undefined);
  }
}
