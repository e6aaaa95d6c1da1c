/**
 * Callers waiting for a key that another process will write and announce with NOTIFY (the result
 * cache's claims, the wall clearances' renewals): `wait` resolves on `wake(key)`, after `ms` (a
 * notification lost to a reconnect costs at most that) or when `signal` ends.
 */
export class KeyWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  wait(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const set = this.waiting.get(key) ?? new Set();
      this.waiting.set(key, set);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        set.delete(done);
        if (!set.size && this.waiting.get(key) === set) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  wake(key: string): void {
    for (const done of [...(this.waiting.get(key) ?? [])]) done();
  }

  /** Releases every waiter (the owner is closing). */
  wakeAll(): void {
    for (const key of [...this.waiting.keys()]) this.wake(key);
  }
}
