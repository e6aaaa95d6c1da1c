import type { Sql } from '../db/client.js';
import { CallWriter } from './call-writer.js';
import type { Credits } from './credits.js';
import { KeyCache } from './key-cache.js';
import { authenticate, hashKey, type AuthedKey } from './keys.js';
import { RateLimiter } from './rate-limit.js';

/**
 * What every call pays before and after its handler, made cheap: its key from a per-process cache
 * (emptied across processes on any key change), its rate-limit slot and its outcome (history,
 * charge, ledger) written together with those of concurrent calls. Every write still commits
 * before the answer it belongs to leaves.
 */
export class PlatformPath {
  readonly keys = new KeyCache();
  readonly limiter: RateLimiter;
  readonly calls: CallWriter;

  constructor(
    private readonly sql: Sql,
    credits: Credits,
  ) {
    this.limiter = new RateLimiter(sql);
    this.calls = new CallWriter(sql, credits);
  }

  start(): Promise<void> {
    return this.keys.listen(this.sql);
  }

  /** The live key, and with `admit` a slot of its rate limit (`admitted`). */
  async authenticate(presented: string | undefined, admit: boolean): Promise<AuthedKey | null> {
    if (!presented) return null;
    const cacheKey = hashKey(presented).toString('base64');
    let key = this.keys.get(cacheKey);
    if (!key) {
      const lookedUpAt = performance.now();
      const found = await authenticate(this.sql, presented);
      if (!found) return null;
      this.keys.set(cacheKey, found, lookedUpAt);
      key = found;
    }
    return admit ? { ...key, admitted: await this.limiter.take(key.rateBucket ?? key.id, key.rate_limit_per_min) } : key;
  }

  async close(): Promise<void> {
    await this.limiter.close();
    await this.keys.close();
  }
}
