import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../domain/errors.js';

/**
 * How long the database must keep answering before an outage is over. A stopping server first cuts
 * each connection (57P01) and only then refuses new ones (57P03), and a retry meanwhile may still
 * find a live pooled connection: without this, one stop would read as two or three outages.
 */
export const OUTAGE_SETTLE_MS = 3_000;

/**
 * The database as this process sees it. Every part that talks to PostgreSQL on its own (the
 * queue's workers and maintenance, the LISTEN connection, the embedded cluster's owner) reports
 * here when it meets the database unreachable and when it reaches it again: an outage is logged
 * once when it starts and once when it ends (after the database answered for OUTAGE_SETTLE_MS),
 * with how long it lasted, however many parts retry meanwhile.
 */
export class DatabaseOutage {
  #since: number | null = null;
  /** When the database answered again, while the outage settles (a failure before the end resumes it). */
  #answered: number | null = null;
  #settle: NodeJS.Timeout | null = null;
  /** The parts that met the outage (named in the closing line). */
  readonly #parts = new Set<string>();
  /** Outages this process has seen. */
  count = 0;

  constructor(
    private readonly log: Logger | null = null,
    private readonly settleMs = OUTAGE_SETTLE_MS,
  ) {}

  /** Since when the database is unreachable; null while it answers (settling included). */
  get since(): Date | null {
    return this.#since === null || this.#answered !== null ? null : new Date(this.#since);
  }

  /** `part` met the database unreachable (`err`, for the first line). */
  down(part: string, err: unknown): void {
    this.#parts.add(part);
    if (this.#settle) {
      // unreachable again before the outage settled: the same outage goes on, unlogged
      clearTimeout(this.#settle);
      this.#settle = null;
      this.#answered = null;
    }
    if (this.#since !== null) return;
    this.#since = Date.now();
    this.count += 1;
    this.log?.warn({ part, err: brief(err) }, 'database unreachable: work waits and retries with backoff until it answers again');
  }

  /** `part` reached the database again: the outage ends once it keeps answering for the settle time. */
  up(part: string): void {
    if (this.#since === null || this.#settle) return;
    this.#answered = Date.now();
    this.#settle = setTimeout(() => this.#end(part), this.settleMs).unref();
  }

  #end(part: string): void {
    if (this.#since === null || this.#answered === null) return;
    const seconds = Math.round((this.#answered - this.#since) / 100) / 10;
    this.log?.warn({ part, seconds, parts: [...this.#parts] }, 'database reachable again');
    this.#since = null;
    this.#answered = null;
    this.#settle = null;
    this.#parts.clear();
  }
}

/** A connection failure in one line (the code and the message), not its stack. */
function brief(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Backoff between attempts while the database is unreachable: 0.25 s doubling to 5 s, with jitter. */
export function outageBackoffMs(attempt: number): number {
  const base = Math.min(5_000, 250 * 2 ** Math.min(attempt, 5));
  return base / 2 + Math.random() * (base / 2);
}

/**
 * Runs `fn` until it succeeds or fails for another reason than the database being unreachable;
 * meanwhile the outage is reported (logged once) and attempts back off. `stopped` ends the waiting
 * (the process is shutting down): one last attempt is made then, and its failure thrown.
 */
export async function whileDatabaseDown<T>(fn: () => Promise<T>, o: { outage: DatabaseOutage; part: string; stopped?: () => boolean }): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await fn();
      o.outage.up(o.part);
      return value;
    } catch (err) {
      if (!isDatabaseUnavailable(err) || o.stopped?.()) throw err;
      o.outage.down(o.part, err);
      await sleep(outageBackoffMs(attempt));
      // shutting down: one last attempt rather than the failure of before the pause, which may be stale (the
      // database back meanwhile); pg-boss does not await its own complete/fail, so a rejection there is unheard
      if (o.stopped?.()) return fn();
    }
  }
}
