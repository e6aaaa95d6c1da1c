import type { Sql } from '../db/client.js';
import type { WallId } from '../config/walls.js';
import { KeyWaiters } from '../db/key-waiters.js';

/*
 * The owner of wall_clearances: the anonymous anti-bot clearance each source holds, shared by every
 * process (src/upstream/clearance.ts decides when to use, refuse and renew it). One row per source
 * and egress: the clearance now held (its cookies, the user agent it was earned with, its expiry and
 * generation) and the re-clear under way, claimed by one process while the others wait for its
 * answer, woken by NOTIFY on CHANNEL with `source|egress`.
 */

const CHANNEL = 'wall_clearance';

/** One kept cookie, as the browser held it. */
export interface KeptCookie {
  name: string;
  value: string;
  /** `.example.com` for a domain cookie, `www.example.com` for a host-only one (as Chromium reports them). */
  domain: string;
  path: string;
  /** Epoch seconds; -1 for a session cookie. */
  expires: number;
}

export interface WallClearance {
  source: string;
  egress: string;
  wall: WallId;
  userAgent: string;
  cookies: KeptCookie[];
  obtainedAt: Date;
  expiresAt: Date;
  generation: number;
}

/** What claiming a re-clear found: the claim is ours, a newer clearance is there, or another process holds the claim until `until`. */
export type ClearClaim = { claimed: true } | { claimed: false; ready: WallClearance } | { claimed: false; ready: null; until: Date | null };

/** A source's clearance as /v1/sources/status reports it (no cookie values). */
export interface ClearanceState {
  source: string;
  egress: string;
  wall: string | null;
  obtained_at: Date | null;
  expires_at: Date | null;
  refused_at: Date | null;
  generation: number;
  reclearing: boolean;
}

/** Every source's clearance (no cookie values), for the status. */
export function clearanceStates(sql: Sql): Promise<ClearanceState[]> {
  return sql<ClearanceState[]>`
    SELECT source, egress, wall, obtained_at, expires_at, refused_at, generation,
      (claim IS NOT NULL AND claim_until > now()) AS reclearing
    FROM wall_clearances ORDER BY source, egress`;
}

interface Row {
  source: string;
  egress: string;
  wall: WallId | null;
  user_agent: string | null;
  cookies: KeptCookie[] | null;
  obtained_at: Date | null;
  expires_at: Date | null;
  generation: number;
  refused_at: Date | null;
  claim: string | null;
  claim_until: Date | null;
}

function usable(r: Partial<Row> | undefined): r is Row & { wall: WallId; user_agent: string; cookies: KeptCookie[]; obtained_at: Date; expires_at: Date } {
  return !!r && !!r.wall && !!r.user_agent && !!r.cookies && !!r.obtained_at && !!r.expires_at && !r.refused_at && r.expires_at.getTime() > Date.now();
}

const toClearance = (r: Row & { wall: WallId; user_agent: string; cookies: KeptCookie[]; obtained_at: Date; expires_at: Date }): WallClearance => ({
  source: r.source,
  egress: r.egress,
  wall: r.wall,
  userAgent: r.user_agent,
  cookies: r.cookies,
  obtainedAt: r.obtained_at,
  expiresAt: r.expires_at,
  generation: r.generation,
});

export class WallClearanceStore {
  private readonly waiters = new KeyWaiters();
  private readonly watchers = new Set<(key: string) => void>();
  private listening: Promise<boolean> | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly sql: Sql) {}

  /** The usable clearance of `source` through `egress`: not expired, not refused. */
  async read(source: string, egress: string): Promise<WallClearance | null> {
    const [row] = await this.sql<Row[]>`SELECT * FROM wall_clearances WHERE source = ${source} AND egress = ${egress}`;
    return usable(row) ? toClearance(row) : null;
  }

  /**
   * Claims the re-clear of `source` for `claimS` seconds, unless a usable clearance newer than the
   * generation the caller saw refused (`seen`, -1 when it held none) is there (returned), or another
   * process's unexpired claim is (its end returned). One statement: of processes claiming at once, one gets it.
   */
  async claim(source: string, egress: string, token: string, seen: number, claimS: number): Promise<ClearClaim> {
    const [row] = await this.sql<(Partial<Row> & { claimed: boolean })[]>`
      WITH c AS (
        INSERT INTO wall_clearances (source, egress, claim, claim_until)
        VALUES (${source}, ${egress}, ${token}, now() + ${claimS}::int * interval '1 second')
        ON CONFLICT (source, egress) DO UPDATE SET claim = EXCLUDED.claim, claim_until = EXCLUDED.claim_until
        WHERE (wall_clearances.claim IS NULL OR wall_clearances.claim_until <= now())
          AND NOT (wall_clearances.generation > ${seen} AND wall_clearances.refused_at IS NULL AND wall_clearances.expires_at > now())
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM c) AS claimed, r.*
      FROM (SELECT 1) one LEFT JOIN wall_clearances r ON r.source = ${source} AND r.egress = ${egress}`;
    if (row.claimed) return { claimed: true };
    // the row as it stood when the statement began: a claim made at the same moment is not seen yet (until null: ask again)
    if (usable(row) && row.generation > seen) return { claimed: false, ready: toClearance(row) };
    const held = row.claim && row.claim_until && row.claim_until.getTime() > Date.now();
    return { claimed: false, ready: null, until: held ? row.claim_until! : null };
  }

  /** Stores a clearance the browser earned (a new generation), ends the claim and wakes every process. */
  async fill(c: Omit<WallClearance, 'generation' | 'obtainedAt'>): Promise<WallClearance> {
    const [row] = await this.sql<Row[]>`
      WITH f AS (
        INSERT INTO wall_clearances (source, egress, wall, user_agent, cookies, obtained_at, expires_at, generation)
        VALUES (${c.source}, ${c.egress}, ${c.wall}, ${c.userAgent}, ${JSON.stringify(c.cookies)}::jsonb, now(), ${c.expiresAt}, 1)
        ON CONFLICT (source, egress) DO UPDATE SET wall = EXCLUDED.wall, user_agent = EXCLUDED.user_agent, cookies = EXCLUDED.cookies,
          obtained_at = now(), expires_at = EXCLUDED.expires_at, generation = wall_clearances.generation + 1,
          refused_at = NULL, claim = NULL, claim_until = NULL
        RETURNING *)
      SELECT f.*, pg_notify(${CHANNEL}, f.source || '|' || f.egress) FROM f`;
    return toClearance(row as Parameters<typeof toClearance>[0]);
  }

  /** Gives up the claim `token` holds (the visit failed or earned nothing) and wakes the waiting processes. */
  async release(source: string, egress: string, token: string): Promise<void> {
    await this.sql`
      WITH d AS (UPDATE wall_clearances SET claim = NULL, claim_until = NULL WHERE source = ${source} AND egress = ${egress} AND claim = ${token} RETURNING source, egress)
      SELECT pg_notify(${CHANNEL}, d.source || '|' || d.egress) FROM d`;
  }

  /** A reply showed generation `generation` refused: no process uses it after. */
  async refuse(source: string, egress: string, generation: number): Promise<void> {
    await this.sql`
      WITH r AS (UPDATE wall_clearances SET refused_at = now()
        WHERE source = ${source} AND egress = ${egress} AND generation = ${generation} AND refused_at IS NULL RETURNING source, egress)
      SELECT pg_notify(${CHANNEL}, r.source || '|' || r.egress) FROM r`;
  }

  /** Resolves when `key` (`source|egress`) changes in any process, after `ms`, or when `signal` ends. */
  async waitFor(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    await this.listen();
    await this.waiters.wait(key, ms, signal);
  }

  /** Calls `fn` with the key of every change any process makes (the in-process copy of a clearance is dropped then). */
  watch(fn: (key: string) => void): void {
    this.watchers.add(fn);
    void this.listen();
  }

  /** Listens for changes (once per process); false when it cannot (waits then end on their timer). */
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
    for (const fn of this.watchers) fn(key);
    this.waiters.wake(key);
  }

  async close(): Promise<void> {
    this.waiters.wakeAll();
    await this.unlisten?.().catch(() => undefined);
  }
}
