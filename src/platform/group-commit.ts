/**
 * Group commit: calls that arrive while a statement is in flight wait for it to finish and then
 * go together in the next one, so N concurrent calls cost about one round trip instead of N. A
 * lone call goes at once (no timer, no added latency). Each caller's promise settles only after
 * the statement carrying its item has committed: nothing is written behind an answer.
 */
export class GroupCommit<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  /**
   * `write` gets the batch and returns one result per item, in order. When it fails, each item is
   * retried alone through `single` so one bad item (or a deadlock between batches) fails only itself.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly single: (item: T) => Promise<R>,
    private readonly maxBatch = 64,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      if (batch.length === 1) {
        const [one] = batch;
        await this.single(one.item).then(one.resolve, one.reject);
        continue;
      }
      try {
        const results = await this.write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch {
        await Promise.all(batch.map((b) => this.single(b.item).then(b.resolve, b.reject)));
      }
    }
    this.running = false;
  }
}
