import type { KeyOutcome } from './api-key.js';

export interface KeyFlash {
  outcome: KeyOutcome;
  rotated: boolean;
}

const TTL_MS = 5 * 60_000;

/**
 * Carries a key action's outcome across POST → 303 → GET, so that a reload shows the page
 * again instead of repeating the action. It lives in this process's memory only, for one
 * read and at most five minutes: a new key is never written to the database, a cookie or a
 * URL. (Behind several processes without sticky sessions the GET may miss it: the page then
 * lists the key by its new prefix without showing it, and rotating again makes one to copy.)
 */
export class KeyFlashes {
  readonly #byToken = new Map<string, KeyFlash & { expires: number }>();

  put(sessionToken: string, flash: KeyFlash): void {
    const now = Date.now();
    for (const [token, f] of this.#byToken) if (f.expires < now) this.#byToken.delete(token);
    this.#byToken.set(sessionToken, { ...flash, expires: now + TTL_MS });
  }

  take(sessionToken: string): KeyFlash | undefined {
    const f = this.#byToken.get(sessionToken);
    this.#byToken.delete(sessionToken);
    return f && f.expires >= Date.now() ? f : undefined;
  }
}
