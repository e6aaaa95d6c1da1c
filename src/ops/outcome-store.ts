import type { Logger } from 'pino';
import type { Sql } from '../db/client.js';
import { ALIASES } from '../config/hosts.js';
import { OUTCOMES, type Metrics, type Outcome, type PathEvent } from './metrics.js';
import type { OutcomeEvent, OutcomeSink } from './outcomes.js';

/*
 * The owner of source_outcomes and source_marks: what each upstream source's requests came to,
 * per minute, across every process on the database (GET /v1/status, the dashboard's sources page).
 */

/** Every source whose outcomes are recorded: the upstream aliases and the careers boards (website fetcher). */
export const MONITORED_SOURCES: readonly string[] = [...ALIASES, 'careers'];

const FLUSH_DELAY_MS = 5_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Rows are kept a while past the one-hour window, then pruned. */
const KEEP = '2 hours';

interface Bucket {
  source: string;
  minute: Date;
  outcome: Outcome;
  count: number;
  latency_ms: number;
}

interface EventBucket {
  source: string;
  minute: Date;
  event: PathEvent;
  count: number;
}

interface Marks {
  last_ok_at: Date | null;
  last_contract_change_at: Date | null;
}

/**
 * Records outcomes: the metrics at once, PostgreSQL in per-minute buckets added up in memory and
 * upserted a few seconds later (one statement for all of them), so that every process on the
 * database sees the same recent history at the cost of one write per process every few seconds.
 */
export class SourceOutcomes implements OutcomeSink {
  #buckets = new Map<string, Bucket>();
  #events = new Map<string, EventBucket>();
  #marks = new Map<string, Marks>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #lastPrune = 0;

  constructor(
    private readonly sql: Sql | null,
    private readonly metrics: Metrics | null,
    private readonly log: Logger,
  ) {}

  record(events: OutcomeEvent[]): void {
    for (const e of events) {
      this.metrics?.upstream.inc({ source: e.source, outcome: e.outcome });
      this.metrics?.upstreamSeconds.observe({ source: e.source, outcome: e.outcome }, e.seconds);
      if (!this.sql) continue;
      const minute = new Date(Math.floor(e.at.getTime() / 60_000) * 60_000);
      const id = `${e.source}|${minute.getTime()}|${e.outcome}`;
      const bucket = this.#buckets.get(id) ?? { source: e.source, minute, outcome: e.outcome, count: 0, latency_ms: 0 };
      bucket.count += 1;
      bucket.latency_ms += Math.round(e.seconds * 1000);
      this.#buckets.set(id, bucket);
      if (e.outcome === 'ok' || e.outcome === 'contract_changed') {
        const marks = this.#marks.get(e.source) ?? { last_ok_at: null, last_contract_change_at: null };
        if (e.outcome === 'ok') marks.last_ok_at = e.at;
        else marks.last_contract_change_at = e.at;
        this.#marks.set(e.source, marks);
      }
    }
    this.#schedule();
  }

  /** One upstream path event (a browser visit, a plain call on a clearance …): the metrics at once, PostgreSQL per minute. */
  event(source: string, event: PathEvent, at = new Date()): void {
    this.metrics?.pathEvents.inc({ source, event });
    if (!this.sql) return;
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    const id = `${source}|${minute.getTime()}|${event}`;
    const bucket = this.#events.get(id) ?? { source, minute, event, count: 0 };
    bucket.count += 1;
    this.#events.set(id, bucket);
    this.#schedule();
  }

  #schedule(): void {
    if (this.sql && (this.#buckets.size > 0 || this.#events.size > 0) && !this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.#timer.unref();
    }
  }

  /** Writes what is pending (also before a status read, so this process's own latest outcomes count). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #write(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const sql = this.sql;
    if (!sql || (this.#buckets.size === 0 && this.#events.size === 0)) return;
    // in key order, so two processes' transactions lock the same rows in the same order (no deadlock)
    const byKey = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const buckets = byKey(this.#buckets).map(([, b]) => b);
    const marks = byKey(this.#marks).map(([source, m]) => ({ source, ...m }));
    const events = byKey(this.#events).map(([, e]) => e);
    this.#buckets = new Map();
    this.#marks = new Map();
    this.#events = new Map();
    try {
      // one statement for the calls and their path events, so a reader on another process sees both or
      // neither (not a transaction: postgres.js leaves a begin's rejection unhandled when the connection drops)
      const outcomes = sql`
        INSERT INTO source_outcomes ${sql(buckets, 'source', 'minute', 'outcome', 'count', 'latency_ms')}
        ON CONFLICT (source, minute, outcome) DO UPDATE
          SET count = source_outcomes.count + EXCLUDED.count, latency_ms = source_outcomes.latency_ms + EXCLUDED.latency_ms`;
      const pathEvents = sql`
        INSERT INTO source_events ${sql(events, 'source', 'minute', 'event', 'count')}
        ON CONFLICT (source, minute, event) DO UPDATE SET count = source_events.count + EXCLUDED.count`;
      if (buckets.length && events.length) await sql`WITH o AS (${outcomes} RETURNING 1) ${pathEvents}`;
      else if (buckets.length) await outcomes;
      else if (events.length) await pathEvents;
      if (marks.length) {
        await sql`
          INSERT INTO source_marks ${sql(marks, 'source', 'last_ok_at', 'last_contract_change_at')}
          ON CONFLICT (source) DO UPDATE SET
            last_ok_at = GREATEST(source_marks.last_ok_at, EXCLUDED.last_ok_at),
            last_contract_change_at = GREATEST(source_marks.last_contract_change_at, EXCLUDED.last_contract_change_at)`;
      }
      if (Date.now() - this.#lastPrune > PRUNE_EVERY_MS) {
        this.#lastPrune = Date.now();
        await sql`DELETE FROM source_outcomes WHERE minute < now() - ${KEEP}::interval`;
        await sql`DELETE FROM source_events WHERE minute < now() - ${KEEP}::interval`;
      }
    } catch (err) {
      // Kept for the next flush (the database may be back by then); buckets past the window are dropped.
      this.log.warn({ err: (err as Error).message }, 'could not write source outcomes');
      this.#requeue(buckets, marks, events);
    }
  }

  #requeue(buckets: Bucket[], marks: ({ source: string } & Marks)[], events: EventBucket[]): void {
    const oldest = Date.now() - 2 * 3600_000;
    for (const e of events) {
      if (e.minute.getTime() < oldest) continue;
      const id = `${e.source}|${e.minute.getTime()}|${e.event}`;
      const now = this.#events.get(id);
      this.#events.set(id, now ? { ...now, count: now.count + e.count } : e);
    }
    for (const b of buckets) {
      if (b.minute.getTime() < oldest) continue;
      const id = `${b.source}|${b.minute.getTime()}|${b.outcome}`;
      const now = this.#buckets.get(id);
      this.#buckets.set(id, now ? { ...now, count: now.count + b.count, latency_ms: now.latency_ms + b.latency_ms } : b);
    }
    for (const { source, ...m } of marks) {
      const now = this.#marks.get(source);
      this.#marks.set(source, {
        last_ok_at: latest(now?.last_ok_at, m.last_ok_at),
        last_contract_change_at: latest(now?.last_contract_change_at, m.last_contract_change_at),
      });
    }
  }
}

function latest(a: Date | null | undefined, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

// ------------------------------------------------------------------ state

export type SourceState = 'ok' | 'degraded' | 'failing' | 'unknown';

export interface SourceStatus {
  source: string;
  state: SourceState;
  last_success_at: string | null;
  last_contract_change_at: string | null;
  counts: Record<Outcome, number>;
}

export const STATUS_WINDOW_S = 3600;
/** At least this share of requests answered and parsed, and no contract change, for "ok". */
export const OK_SHARE = 0.9;

/**
 * A source's state from its outcomes of the last hour, all processes together: unknown without
 * requests, failing when none succeeded, ok when at least 90% succeeded and no reply broke its
 * contract, degraded otherwise.
 */
export function stateOf(counts: Record<Outcome, number>): SourceState {
  const total = OUTCOMES.reduce((n, o) => n + counts[o], 0);
  if (total === 0) return 'unknown';
  if (counts.ok === 0) return 'failing';
  if (counts.ok / total >= OK_SHARE && counts.contract_changed === 0) return 'ok';
  return 'degraded';
}

export async function readSourcesStatus(sql: Sql): Promise<SourceStatus[]> {
  const [rows, marks] = await Promise.all([
    sql<{ source: string; outcome: Outcome; n: number }[]>`
      SELECT source, outcome, sum(count)::int AS n FROM source_outcomes
      WHERE minute > now() - ${`${STATUS_WINDOW_S} seconds`}::interval GROUP BY source, outcome`,
    sql<
      { source: string; last_ok_at: Date | null; last_contract_change_at: Date | null }[]
    >`SELECT source, last_ok_at, last_contract_change_at FROM source_marks`,
  ]);
  return MONITORED_SOURCES.map((source) => {
    const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
    for (const r of rows) if (r.source === source) counts[r.outcome] = r.n;
    const mark = marks.find((m) => m.source === source);
    return {
      source,
      state: stateOf(counts),
      last_success_at: mark?.last_ok_at ? new Date(mark.last_ok_at).toISOString() : null,
      last_contract_change_at: mark?.last_contract_change_at ? new Date(mark.last_contract_change_at).toISOString() : null,
      counts,
    };
  });
}

/** Upstream requests (every outcome) and path events per source over the status window (ops/source-paths.ts reads them). */
export async function readPathCounts(sql: Sql): Promise<{ calls: { source: string; n: number }[]; events: { source: string; event: PathEvent; n: number }[] }> {
  const window = `${STATUS_WINDOW_S} seconds`;
  const [calls, events] = await Promise.all([
    sql<{ source: string; n: number }[]>`
      SELECT source, sum(count)::int AS n FROM source_outcomes WHERE minute > now() - ${window}::interval GROUP BY source`,
    sql<{ source: string; event: PathEvent; n: number }[]>`
      SELECT source, event, sum(count)::int AS n FROM source_events WHERE minute > now() - ${window}::interval GROUP BY source, event`,
  ]);
  return { calls, events };
}
