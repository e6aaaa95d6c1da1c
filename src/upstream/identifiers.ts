import type { Logger } from 'pino';
import type { Alias } from '../config/hosts.js';
import type { KeptIdentifier, UpstreamIdentifierStore } from '../platform/upstream-identifiers.js';

/*
 * Self-repair of moved build-time identifiers (a persisted GraphQL query's hash): a source sends the
 * identifier kept for every process (platform/upstream-identifiers.ts), else the one built into its
 * code. When a reply says the identifier is unknown, `repair` finds the current one once (the
 * source's own finder scans the site's JS chunks, bounded), keeps it, and the source retries once.
 * A process that meets a refusal another process already repaired takes the kept value without
 * scanning; in a process, concurrent repairs of one identifier share one scan.
 */

/** What sources see of the identifiers (Upstream.identifiers). */
export interface Identifiers {
  /** The identifier `name` of `source` to send now: the one found again last, else `builtIn`. */
  current(source: Alias, name: string, builtIn: string): Promise<string>;
  /**
   * `stale` was refused: the current identifier (found by `find`, or kept meanwhile by another
   * process), or null when none other than `stale` is found.
   */
  repair(source: Alias, name: string, stale: string, find: () => Promise<string | null>): Promise<string | null>;
}

/** Where a repair is counted (ops/outcome-store.ts, as the client's path events). */
interface RepairEvents {
  event(source: string, name: 'identifier_repair'): void;
}

/** A process re-reads the kept identifiers at least this often (a rotation another process repaired reaches it by its own refusal first). */
const CACHE_MS = 60_000;

export class IdentifierKeeper implements Identifiers {
  readonly #cache = new Map<string, { kept: KeptIdentifier | null; readAt: number }>();
  readonly #repairs = new Map<string, Promise<string | null>>();

  /** `store` null: what is found is kept by this process only (no database, e.g. `npm run check:sources` without one). */
  constructor(
    private readonly store: UpstreamIdentifierStore | null,
    private readonly log: Logger | null = null,
    private readonly events: RepairEvents | null = null,
  ) {}

  async current(source: Alias, name: string, builtIn: string): Promise<string> {
    return (await this.#kept(source, name, false))?.value ?? builtIn;
  }

  repair(source: Alias, name: string, stale: string, find: () => Promise<string | null>): Promise<string | null> {
    const key = `${source}|${name}`;
    const running = this.#repairs.get(key);
    if (running) return running;
    const repair = this.#repair(source, name, stale, find).finally(() => this.#repairs.delete(key));
    this.#repairs.set(key, repair);
    return repair;
  }

  async #repair(source: Alias, name: string, stale: string, find: () => Promise<string | null>): Promise<string | null> {
    const kept = await this.#kept(source, name, true);
    if (kept && kept.value !== stale) return kept.value;
    const found = await find();
    if (!found || found === stale) {
      this.log?.warn({ source, name, stale }, "identifier refused and no other found in the site's scripts");
      return null;
    }
    const now: KeptIdentifier = { source, name, value: found, replaced: stale, foundAt: new Date() };
    const stored = this.store
      ? await this.store.write(source, name, found, stale).catch((err: unknown) => {
          this.log?.warn({ source, name, err: (err as Error).message }, 'identifier found but not stored; kept by this process');
          return now;
        })
      : now;
    this.#cache.set(`${source}|${name}`, { kept: stored, readAt: Date.now() });
    this.events?.event(source, 'identifier_repair');
    this.log?.info({ source, name, replaced: stale, value: found }, 'moved identifier found again');
    return found;
  }

  async #kept(source: string, name: string, fresh: boolean): Promise<KeptIdentifier | null> {
    const key = `${source}|${name}`;
    const cached = this.#cache.get(key);
    if (cached && (!this.store || (!fresh && Date.now() - cached.readAt < CACHE_MS))) return cached.kept;
    if (!this.store) return null;
    const kept = await this.store.read(source, name).catch((err: unknown) => {
      this.log?.warn({ source, name, err: (err as Error).message }, 'identifier: could not read the kept one');
      return cached?.kept ?? null;
    });
    this.#cache.set(key, { kept, readAt: Date.now() });
    return kept;
  }
}
