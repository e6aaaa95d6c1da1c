import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../src/domain/csv.js';
import { GRID_CSV_HEADER, gridCsvRows, shopDates, shopGrid, type ShopCalendar } from '../../../src/domain/rate-shop.js';
import type { Provenance } from '../../../src/domain/provenance.js';

const prov = (id: string) => ({ observation_id: `rateobs_${id}` }) as Provenance;
const properties = [
  { property_token: 'own', name: 'Ours', own: true },
  { property_token: 'a', name: 'A, "the first"', own: false },
  { property_token: 'b', name: 'B', own: false },
  { property_token: 'c', name: 'C', own: false },
];
const rate = (date: string, total: number | null, currency: string | null = 'USD', nights = 1) => ({
  date,
  nights,
  rate_total: total,
  currency,
  provenance: prov(`${date.replace(/-/g, '')}x${total}`.replace(/[^a-z2-7]/g, 'a')),
});

describe('the rate shop grid', () => {
  const dates = shopDates('2027-03-30', 3);
  it('lists the dates of the range across a month end', () => {
    expect(dates).toEqual(['2027-03-30', '2027-03-31', '2027-04-01']);
  });

  const calendars: ShopCalendar[] = [
    { property_token: 'own', los: 1, status: 'succeeded', rates: [rate('2027-03-30', 120), rate('2027-03-31', 100), rate('2027-04-01', null)] },
    // a night probed at a longer minimum stay is another stay: not this grid's price
    { property_token: 'a', los: 1, status: 'succeeded', rates: [rate('2027-03-30', 100), rate('2027-03-31', 300, 'USD', 2)] },
    { property_token: 'b', los: 1, status: 'failed', rates: [] },
    // a total in another currency counts in no rank or median
    { property_token: 'c', los: 1, status: 'succeeded', rates: [rate('2027-03-30', 90, 'EUR'), rate('2027-03-31', 110)] },
  ];
  const rows = shopGrid(properties, dates, [1, 2], calendars);

  it('ranks the own hotel among the priced properties of one currency and compares it with the competitors’ median', () => {
    expect(rows.map((r) => [r.date, r.los])).toEqual([
      ['2027-03-30', 1],
      ['2027-03-30', 2],
      ['2027-03-31', 1],
      ['2027-03-31', 2],
      ['2027-04-01', 1],
      ['2027-04-01', 2],
    ]);
    expect(rows[0]).toMatchObject({
      currency: 'USD',
      own_total: 120,
      own_rank: 2,
      priced: 2,
      competitors_median: 100,
      diff_to_median: 20,
      diff_to_median_pct: 20,
    });
    expect(rows[0].cells.map((c) => [c.state, c.total, c.currency])).toEqual([
      ['priced', 120, 'USD'],
      ['priced', 100, 'USD'],
      ['failed', null, null],
      ['priced', 90, 'EUR'],
    ]);
    expect(rows[2]).toMatchObject({ own_total: 100, own_rank: 1, competitors_median: 110, diff_to_median: -10, diff_to_median_pct: -9.1 });
    expect(rows[2].cells[1]).toMatchObject({ state: 'unavailable', total: null, provenance: null });
  });

  it('fills nothing in: no own price, no rank; a length not fetched yet is pending', () => {
    expect(rows[4]).toMatchObject({ own_total: null, own_rank: null, competitors_median: null, diff_to_median: null, currency: null });
    expect(rows[1].cells.every((c) => c.state === 'pending' && c.total === null)).toBe(true);
  });

  it('writes CSV that a parser reads back, quoting what needs it and leaving unstated values empty', () => {
    const text = toCsv(GRID_CSV_HEADER, gridCsvRows(rows));
    const lines = parse(text, { columns: true }) as Record<string, string>[];
    expect(lines).toHaveLength(rows.length * properties.length);
    expect(lines[1]).toMatchObject({ name: 'A, "the first"', total: '100', own_rank: '2', state: 'priced' });
    expect(lines[2]).toMatchObject({ state: 'failed', total: '', currency: '', observation_id: '' });
    expect(text.split('\r\n')[0]).toBe(GRID_CSV_HEADER.join(','));
  });
});
