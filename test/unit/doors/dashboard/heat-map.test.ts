import { describe, expect, it } from 'vitest';
import { heatMap, heatSummary } from '../../../../src/doors/dashboard/heat-map.js';
import { shopGrid, type ShopCalendar, type ShopProperty } from '../../../../src/domain/rate-shop.js';
import type { Provenance } from '../../../../src/domain/provenance.js';

/** The comp-set heat-map (issue 42), read back from its HTML, over grids made by the rate shop's own shopGrid. */
const PROPS: ShopProperty[] = [
  { property_token: 'own-000001', name: 'Casa <Nossa>', own: true },
  { property_token: 'rival-0001', name: 'Rival A', own: false },
  { property_token: 'rival-0002', name: 'Rival B', own: false },
];
const provenance = { observation_id: 'rateobs_x' } as unknown as Provenance;

function calendar(
  token: string,
  los: number,
  totals: Record<string, number | null>,
  status: ShopCalendar['status'] = 'succeeded',
  currency = 'EUR',
): ShopCalendar {
  return {
    property_token: token,
    los,
    status,
    rates: Object.entries(totals).map(([date, total]) => ({ date, nights: los, rate_total: total, currency, provenance })),
  };
}

/** The cells of the rendered table: class and text lines, row by row. */
function cells(html: string) {
  return [...html.matchAll(/<td class="([^"]+)" data-label="([^"]+)"[^>]*>(.*?)<\/td>/g)].map((m) => ({
    band: m[1],
    label: m[2],
    lines: [...m[3]!.matchAll(/<span[^>]*>([^<]*)<\/span>/g)].map((s) => s[1]),
  }));
}

describe('the comp-set heat-map', () => {
  const dates = ['2027-05-07', '2027-05-08', '2027-05-09', '2027-05-10', '2027-05-11'];
  const grid = shopGrid(
    PROPS,
    dates,
    [1, 2],
    [
      // own: well below, a little below, even, above, sold out
      calendar('own-000001', 1, { '2027-05-07': 80, '2027-05-08': 95, '2027-05-09': 100, '2027-05-10': 120, '2027-05-11': null }),
      calendar('rival-0001', 1, { '2027-05-07': 100, '2027-05-08': 100, '2027-05-09': 98, '2027-05-10': 100, '2027-05-11': 100 }),
      calendar('rival-0002', 1, { '2027-05-07': 100, '2027-05-08': 100, '2027-05-09': 102, '2027-05-10': 100, '2027-05-11': 110 }),
      // two nights: the own calendar failed, one rival still running
      calendar('own-000001', 2, {}, 'failed'),
      calendar('rival-0001', 2, { '2027-05-07': 200 }),
      calendar('rival-0002', 2, {}, 'running'),
    ],
  );
  const html = String(heatMap(grid, [1, 2]));

  it('writes each cell’s price, median, rank and signed difference, tinted by the band of the difference', () => {
    const c = cells(html);
    expect(c).toHaveLength(10);
    const oneNight = c.filter((x) => x.label === '1 night');
    expect(oneNight.map((x) => x.band)).toEqual(['h-n3', 'h-n2', 'h-0', 'h-p3', 'h-none']);
    expect(oneNight[0]!.lines).toEqual(['80 EUR', 'median 100', 'rank 1 of 3', '−20 (−20 %)']);
    expect(oneNight[2]!.lines).toEqual(['100 EUR', 'median 100', 'rank 2 of 3', '±0 (±0 %)']);
    expect(oneNight[3]!.lines).toEqual(['120 EUR', 'median 100', 'rank 3 of 3', '+20 (+20 %)']);
  });

  it('says why the own price is missing, and states no number the upstream did not', () => {
    const c = cells(html);
    expect(c.find((x) => x.label === '1 night' && x.lines.includes('no price stated'))!.lines).toEqual(['—', 'no price stated', 'median 105']);
    const twoNights = c.filter((x) => x.label === '2 nights');
    expect(twoNights.every((x) => x.band === 'h-none' && x.lines[1] === 'calendar failed')).toBe(true);
    expect(twoNights[0]!.lines).toEqual(['—', 'calendar failed', 'median 200']);
    expect(twoNights[1]!.lines).toEqual(['—', 'calendar failed', 'no competitor priced']);
  });

  it('escapes the names it lists, labels rows with their weekday and columns with their nights', () => {
    expect(html).toContain('Casa &lt;Nossa&gt; (yours): 80 EUR');
    expect(html).not.toContain('<Nossa>');
    expect(html).toContain('<th scope="row"><span class="dow">Fri</span> 2027-05-07</th>');
    expect(html).toContain('<th scope="col">1 night</th><th scope="col">2 nights</th>');
  });

  it('sums up how often the own hotel is priced, below or above the median, and its average rank', () => {
    expect(heatSummary(grid)).toEqual({ stays: 10, ownPriced: 4, below: 2, above: 1, averageRank: 1.8 });
  });
});
