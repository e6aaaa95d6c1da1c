import postgres from 'postgres';
import { outageBackoffMs, type DatabaseOutage } from './outage.js';

type Listen = postgres.Sql['listen'];
type ListenMeta = Awaited<ReturnType<Listen>>;

interface Listener {
  fn: (payload: string) => void;
  onlisten?: () => void;
}

const quoted = (channel: string) => '"' + channel.replace(/"/g, '""') + '"';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * LISTEN that survives the database going away, for every `sql.listen` of the process (the key
 * cache's invalidations, the result cache's wake-ups, the MCP tasks' cancellations). postgres.js
 * re-issues a LISTEN when its listening connection closes, but once: if the database is still down
 * then, the channel is dropped for good and its listener never hears again. Here the channels live
 * on a one-connection client of their own; each time it closes they are listened to again, with
 * backoff, until the database answers, and each listener's `onlisten` runs again (postgres.js's own
 * "listening again" signal, which the key cache waits for before it trusts its entries).
 */
export class ResilientListener {
  readonly #channels = new Map<string, Set<Listener>>();
  readonly #sql: postgres.Sql;
  #relistening: Promise<void> | null = null;
  /** A close seen while listening again: the pass under way may have listened on the closed connection. */
  #lostAgain = false;
  #closed = false;

  constructor(
    url: string,
    options: postgres.Options<Record<string, postgres.PostgresType>>,
    private readonly outage: DatabaseOutage | null,
  ) {
    // `onnotify` is how postgres.js's own listen hears its channels (src/index.js); its types leave it out
    const notified = { onnotify: (channel: string, payload: string) => this.#channels.get(channel)?.forEach((l) => l.fn(payload)) };
    this.#sql = postgres(url, {
      ...options,
      ...notified,
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      onclose: () => this.#lost(),
    } as postgres.Options<Record<string, postgres.PostgresType>>);
  }

  /** `sql.listen`'s contract: resolves once listening; `unlisten` stops this listener. */
  readonly listen = async (channel: string, fn: (payload: string) => void, onlisten?: () => void): Promise<ListenMeta> => {
    const listener: Listener = { fn, onlisten };
    let listeners = this.#channels.get(channel);
    const first = !listeners;
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    let result: postgres.RowList<postgres.Row[]> | null = null;
    try {
      // a channel already listened to is heard at once (its LISTEN went out before, or goes out again now)
      if (first) result = await this.#sql.unsafe(`LISTEN ${quoted(channel)}`);
    } catch (err) {
      listeners.delete(listener);
      if (!listeners.size) this.#channels.delete(channel);
      throw err;
    }
    onlisten?.();
    const unlisten = async () => {
      const set = this.#channels.get(channel);
      if (!set?.delete(listener) || set.size) return;
      this.#channels.delete(channel);
      await this.#sql.unsafe(`UNLISTEN ${quoted(channel)}`).catch(() => undefined);
    };
    return { count: null, command: 'LISTEN', statement: result?.statement, state: result?.state, unlisten } as ListenMeta;
  };

  #lost(): void {
    if (this.#closed || !this.#channels.size) return;
    if (this.#relistening) {
      this.#lostAgain = true;
      return;
    }
    this.#relistening = this.#relisten().finally(() => (this.#relistening = null));
  }

  /** Listens to every channel again, until the database answers; then tells each listener. */
  async #relisten(): Promise<void> {
    for (let attempt = 0; !this.#closed; attempt++) {
      this.#lostAgain = false;
      try {
        for (const channel of this.#channels.keys()) await this.#sql.unsafe(`LISTEN ${quoted(channel)}`);
      } catch (err) {
        this.outage?.down('listen', err);
        await sleep(outageBackoffMs(attempt));
        continue;
      }
      if (this.#lostAgain) continue;
      this.outage?.up('listen');
      for (const listeners of this.#channels.values()) for (const l of listeners) l.onlisten?.();
      return;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    await this.#sql.end({ timeout: 1 }).catch(() => undefined);
  }
}
