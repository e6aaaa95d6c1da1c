import { describe, expect, it } from 'vitest';
import type { Provenance } from '../../../src/domain/provenance.js';
import { shopGrid, type ShopCalendar } from '../../../src/domain/rate-shop.js';
import { SELLER_CSV_HEADER, sellerCsvRows, withSellers, type ShopStay, type StayOffer } from '../../../src/domain/shop-sellers.js';

const prov = (id: string) => ({ observation_id: `rateobs_${id}`, observed_at: '2027-01-01T00:00:00.000Z' }) as Provenance;
const offer = (source: string, total: number | null, over: Partial<StayOffer> = {}): StayOffer => ({
  source,
  raw_source: source.toUpperCase(),
  is_official: false,
  total,
  currency: 'EUR',
  link: null,
  provenance: prov(source),
  ...over,
});
const properties = [
  { property_token: 'own', name: 'Ours', own: true },
  { property_token: 'a', name: 'A', own: false },
];
const calendars: ShopCalendar[] = [
  { property_token: 'own', los: 1, status: 'succeeded', rates: [{ date: '2027-03-30', nights: 1, rate_total: 100, currency: 'EUR', provenance: prov('own') }] },
  { property_token: 'a', los: 1, status: 'succeeded', rates: [{ date: '2027-03-30', nights: 1, rate_total: 90, currency: 'EUR', provenance: prov('a') }] },
];

describe('per-seller cells', () => {
  const grid = shopGrid(properties, ['2027-03-30'], [1], calendars);

  it('each seller once at its cheapest all-in total, cheapest first; a seller without one last, with no price or provenance made up', () => {
    const stays: ShopStay[] = [
      {
        property_token: 'own',
        date: '2027-03-30',
        los: 1,
        status: 'succeeded',
        offers: [
          offer('expedia', 104),
          offer('booking', 101),
          offer('expedia', 99, { raw_source: 'Expedia.co.uk' }),
          offer('priceline', null),
          offer('nocurrency', 50, { currency: null }),
          offer('official', 110, { is_official: true }),
        ],
      },
      { property_token: 'a', date: '2027-03-30', los: 1, status: 'failed', offers: [] },
    ];
    const [row] = withSellers(grid, stays);
    const [own, a] = row.cells;
    expect(own.sellers_state).toBe('listed');
    expect(own.sellers.map((s) => [s.seller, s.name, s.total])).toEqual([
      ['expedia', 'Expedia.co.uk', 99],
      ['booking', 'BOOKING', 101],
      ['official', 'OFFICIAL', 110],
      ['nocurrency', 'NOCURRENCY', null],
      ['priceline', 'PRICELINE', null],
    ]);
    expect(own.sellers.filter((s) => s.total === null).every((s) => s.provenance === null)).toBe(true);
    // the calendar's fields are untouched
    expect([own.total, row.own_rank, row.competitors_median]).toEqual([100, 2, 90]);
    expect(a).toMatchObject({ sellers_state: 'failed', sellers: [], total: 90 });
  });

  it('a stay not yet run is pending; one whose page lists nobody is none; the CSV has one line per seller, one for a cell without', () => {
    const [row] = withSellers(grid, [{ property_token: 'a', date: '2027-03-30', los: 1, status: 'succeeded', offers: [] }]);
    expect(row.cells.map((c) => c.sellers_state)).toEqual(['pending', 'none']);
    const [withTwo] = withSellers(grid, [
      { property_token: 'own', date: '2027-03-30', los: 1, status: 'succeeded', offers: [offer('booking', 101), offer('agoda', 102)] },
      { property_token: 'a', date: '2027-03-30', los: 1, status: 'succeeded', offers: [] },
    ]);
    const lines = sellerCsvRows([withTwo]);
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.length === SELLER_CSV_HEADER.length)).toBe(true);
    const col = (name: (typeof SELLER_CSV_HEADER)[number]) => lines.map((l) => l[SELLER_CSV_HEADER.indexOf(name)]);
    expect(col('seller_key')).toEqual(['booking', 'agoda', null]);
    expect(col('seller_total')).toEqual([101, 102, null]);
    expect(col('sellers_state')).toEqual(['listed', 'listed', 'none']);
    expect(col('total')).toEqual([100, 100, 90]);
  });
});
