/**
 * The hotels of the rate-shop benchmark's per-seller shop: the recorded London page's first five
 * results (real property tokens and payloads), each with its own page as the property lookup
 * answers it (test/fixtures/hotels-payloads.ts), listing four sellers.
 */
import { detailData, page, PAGES, propertyPayload, withData } from '../test/fixtures/hotels-payloads.js';

const london = page(PAGES.london);

export const BENCH_PROPERTY_TOKENS = [0, 1, 2, 3, 4].map((n) => propertyPayload(london, n)[20] as string);

const seller = (name: string, id: number, total: number, official = false) => ({
  name,
  id,
  official,
  link: `/travel/lodging/clk?pc=${id}`,
  nightly: [`£${total}`],
  total: [`£${total}`],
});

/** The n-th hotel's page: the same four sellers at every stay. */
export function benchPropertyPage(n: number): string {
  const base = 120 + 10 * n;
  return withData(
    london,
    detailData(london, propertyPayload(london, 0), {
      all: [
        seller('Booking.com', 184, base),
        seller('Expedia.com', 89, base + 4),
        seller('Agoda', 100337601, base + 6),
        seller('Own Site', 226982928, base + 9, true),
      ],
    }),
  );
}
