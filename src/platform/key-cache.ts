import type { Sql } from '../db/client.js';
import type { AuthedKey } from './keys.js';

/** How long a looked-up key is trusted without asking PostgreSQL again. */
export const KEY_CACHE_TTL_MS = 1_000;
const CHANNEL = 'api_keys_changed';

/**
 * Live keys of this process by key hash, so a call does not look its key up every time. Entries
 * live one second at most; any change to a key or an account (a trigger notifies on every update,
 * from any process: API, dashboard, keys CLI) empties the cache at once. Until the notification
 * channel is listening, and whenever it reconnects, nothing is cached: a revoke is never missed
 * for longer than the TTL.
 */
export class KeyCache {
  private readonly entries = new Map<string, { key: AuthedKey; at: number }>();
  private listening = false;
  private clearedAt = 0;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly ttlMs = KEY_CACHE_TTL_MS) {}

  /** Starts listening for changes; failures leave the cache off (every call looks its key up). */
  async listen(sql: Sql): Promise<void> {
    try {
      const sub = await sql.listen(
        CHANNEL,
        () => this.clear(),
        () => {
          this.clear();
          this.listening = true;
        },
      );
      this.unlisten = () => sub.unlisten();
    } catch {
      this.listening = false;
    }
  }

  get(hash: string): AuthedKey | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (performance.now() - e.at > this.ttlMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.key;
  }

  set(hash: string, key: AuthedKey, lookedUpAt: number): void {
    // a lookup that started before the last change may have read the old row: not kept
    if (this.listening && lookedUpAt >= this.clearedAt) this.entries.set(hash, { key, at: lookedUpAt });
  }

  clear(): void {
    this.entries.clear();
    this.clearedAt = performance.now();
  }

  async close(): Promise<void> {
    this.listening = false;
    this.entries.clear();
    await this.unlisten?.().catch(() => undefined);
  }
}
