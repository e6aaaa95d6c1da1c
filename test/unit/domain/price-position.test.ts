import { describe, expect, it } from 'vitest';
import { MIN_OBSERVATIONS, pricePositions } from '../../../src/domain/price-position.js';

describe('price position', () => {
  const nights = [
    { date: 'd1', total: 100 },
    { date: 'd2', total: 200 },
    { date: 'd3', total: 300 },
    { date: 'd4', total: null },
    { date: 'd5', total: 200 },
  ];

  it('ranks each priced night in its window (cheapest 0, dearest 100, ties half) and leaves unpriced nights out', () => {
    const p = pricePositions(nights, new Map());
    expect([...p.entries()].map(([d, x]) => [d, x.window_percentile])).toEqual([
      ['d1', 0],
      ['d2', 50],
      ['d3', 100],
      ['d5', 50],
    ]);
    expect(p.has('d4')).toBe(false);
  });

  it(`judges a night against its earlier prices only from ${MIN_OBSERVATIONS} of them`, () => {
    const earlier = new Map([
      ['d1', [150, 160, 170, 180]],
      ['d2', [150, 200, 250]],
      ['d3', [100, 120, 140]],
      ['d5', [100, 300]],
    ]);
    const p = pricePositions(nights, earlier);
    expect(['d1', 'd2', 'd3', 'd5'].map((d) => [p.get(d)!.history, p.get(d)!.observations])).toEqual([
      ['low', 4],
      ['typical', 3],
      ['high', 3],
      [null, 2],
    ]);
  });
});
