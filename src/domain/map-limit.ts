/**
 * The one bounded-concurrency helper: runs `fn` over `items` with at most `limit` in flight,
 * results in input order. Sources use it to fan out detail and quote requests without opening
 * more upstream connections than the source allows at once.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
