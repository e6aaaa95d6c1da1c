/**
 * Group commit: calls that arrive while a statement is in flight wait and then go together in the
 * next one, so N concurrent calls cost about one round trip instead of N. A lone call goes at once
 * (no timer, no added latency). Each caller's promise settles only after the statement carrying
 * its item has committed: nothing is written behind an answer.
 */
export class GroupCommit<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  /**
   * `write` gets the batch and returns one result per item, in order. When a batch fails, each of
   * its items is written again alone, so one bad item (or a deadlock between batches) fails only itself.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 64,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // one statement in flight at a time: a second lane was measured slower (smaller batches, more round trips)
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        if (batch.length === 1) batch[0].reject(err);
        else await Promise.all(batch.map((b) => this.write([b.item]).then(([r]) => b.resolve(r), b.reject)));
      }
    }
    this.running = false;
  }
}
