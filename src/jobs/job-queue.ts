import type PgBoss from 'pg-boss';
import { DependencyDown } from '../domain/errors.js';

/**
 * The batch queue as the doors and descriptors use it (calendar jobs, MCP tasks). A process that
 * runs no queue (the stdio server, unless it runs the worker) gets `NO_QUEUE`, which answers a
 * submission with a 503 rather than leaving the queue undefined for each caller to check.
 */
export interface JobQueue {
  /** Whether this process can queue work (an MCP call that would run as a task runs blocking otherwise). */
  readonly running: boolean;
  /** pg-boss, to write queue entries in the caller's transaction; a DependencyDown (503) where no queue runs. */
  boss(): PgBoss;
  /** Wakes this process's workers after a submission, so that they need not wait for their next poll. */
  wake(): void;
}

export const NO_QUEUE: JobQueue = {
  running: false,
  boss() {
    throw new DependencyDown('boss unavailable');
  },
  wake() {},
};

/** The queue of a process that runs pg-boss; the workers it starts afterwards join with `addWorker`. */
export class BossQueue implements JobQueue {
  readonly running = true;
  readonly #boss: PgBoss;
  readonly #workers: { wake(): void }[] = [];

  constructor(boss: PgBoss) {
    this.#boss = boss;
  }

  boss(): PgBoss {
    return this.#boss;
  }

  /** A worker of this process, woken at each submission (without one, submissions wait for another process's poll). */
  addWorker(worker: { wake(): void }): void {
    this.#workers.push(worker);
  }

  wake(): void {
    for (const w of this.#workers) w.wake();
  }
}
