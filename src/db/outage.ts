import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../domain/errors.js';

/**
 * The database as this process sees it. Every part that talks to PostgreSQL on its own (the
 * queue's workers and maintenance, the LISTEN connection, the embedded cluster's owner) reports
 * here when it meets the database unreachable and when it reaches it again: an outage is logged
 * once when it starts and once when it ends, with how long it lasted, however many parts retry
 * meanwhile. `/healthz` reads `down` (besides its own ping).
 */
export class DatabaseOutage {
  #since: number | null = null;
  /** The parts that met the outage (named in the closing line). */
  readonly #parts = new Set<string>();
  /** Outages this process has seen (for /metrics). */
  count = 0;

  constructor(private readonly log: Logger | null = null) {}

  /** Since when the database is unreachable; null while it answers. */
  get since(): Date | null {
    return this.#since === null ? null : new Date(this.#since);
  }

  /** `part` met the database unreachable (`err`, for the first line). */
  down(part: string, err: unknown): void {
    this.#parts.add(part);
    if (this.#since !== null) return;
    this.#since = Date.now();
    this.count += 1;
    this.log?.warn({ part, err: brief(err) }, 'database unreachable: work waits and retries with backoff until it answers again');
  }

  /** `part` reached the database again. */
  up(part: string): void {
    if (this.#since === null) return;
    const seconds = Math.round((Date.now() - this.#since) / 100) / 10;
    this.log?.warn({ part, seconds, parts: [...this.#parts] }, 'database reachable again');
    this.#since = null;
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
 * (the process is shutting down): the last failure is thrown then.
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
      if (o.stopped?.()) throw err;
    }
  }
}
