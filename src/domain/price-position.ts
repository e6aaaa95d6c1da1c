/**
 * Price position (pure): where a night's price sits within its calendar window (its percentile
 * among the window's priced nights) and against the earlier prices the account saw for that same
 * property-night (`low | typical | high`, with how many; null below MIN_OBSERVATIONS). Nothing is
 * guessed: a night without a price has no position, and too few earlier prices say null.
 */

/** Earlier prices a night needs before it is called low, typical or high. */
export const MIN_OBSERVATIONS = 3;

export interface PricePosition {
  /** 0-100: the share of the window's priced nights cheaper than this one (ties count half). */
  window_percentile: number;
  /** Against the account's earlier prices of this property-night; null under MIN_OBSERVATIONS of them. */
  history: 'low' | 'typical' | 'high' | null;
  /** Earlier prices of this property-night the account holds (each change it saw counts once). */
  observations: number;
}

function percentileOf(value: number, among: number[]): number {
  const below = among.filter((v) => v < value).length;
  const equal = among.filter((v) => v === value).length;
  return Math.round(((below + (equal - 1) / 2) / Math.max(among.length - 1, 1)) * 100);
}

/** Low: under the earlier prices' lower quartile; high: over their upper quartile; else typical. */
function againstHistory(value: number, earlier: number[]): PricePosition['history'] {
  if (earlier.length < MIN_OBSERVATIONS) return null;
  const s = [...earlier].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
  return value < q(0.25) ? 'low' : value > q(0.75) ? 'high' : 'typical';
}

/** Each night's position, by date; nights without a price are left out. */
export function pricePositions(nights: { date: string; total: number | null }[], earlier: Map<string, number[]>): Map<string, PricePosition> {
  const priced = nights.filter((n): n is { date: string; total: number } => typeof n.total === 'number');
  const totals = priced.map((n) => n.total);
  return new Map(
    priced.map((n) => {
      const before = earlier.get(n.date) ?? [];
      return [n.date, { window_percentile: percentileOf(n.total, totals), history: againstHistory(n.total, before), observations: before.length }];
    }),
  );
}
