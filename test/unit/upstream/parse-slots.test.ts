import { describe, expect, it } from 'vitest';
import { inLargeReplySlot } from '../../../src/upstream/parse-slots.js';

describe('large-reply parse slots', () => {
  it('parses at most two large replies at once, in arrival order, and frees a slot when a parse throws', async () => {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const parse = (i: number) =>
      inLargeReplySlot(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise((r) => setImmediate(r)); // the others queue meanwhile
        running--;
        if (i === 3) throw new Error('unreadable');
        return i;
      });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => parse(i)));
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    expect(await parse(9)).toBe(9);
  });
});
