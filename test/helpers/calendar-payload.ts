import { at } from '../../src/domain/json.js';
import { extractInitData } from '../../src/sources/metasearch/hotels/af-init-data.js';
import { EXTENSIONS, SEARCH_PATHS } from '../../src/sources/metasearch/hotels/parse-search.js';
import { PROPERTY_PATHS, parseRate } from '../../src/sources/metasearch/hotels/parse-property.js';
import { addDays } from '../../src/domain/dates.js';
import { readFixture } from './fixtures.js';

/**
 * No recorded reply of the calendar RPC (yY52ce) exists. Its entries are the search page's
 * rate block; so the test reply is built from a REAL rate block taken out of a recorded search
 * page, re-dated per check-in and priced per date by the test, inside the batchexecute envelope
 * (`)]}'`, length-prefixed `wrb.fr` frames). See test/fixtures/README.md.
 */
export function realRateBlock(fixture = 'google-hotels/travel-search-paris-budget.html'): unknown[] {
  for (const blob of extractInitData(readFixture(fixture))) {
    const list = at(blob.data, ...SEARCH_PATHS.list);
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const ext = at(item, 1) as Record<string, unknown> | null;
      if (!ext || !(EXTENSIONS.property in ext)) continue;
      const block = at(at(ext[EXTENSIONS.property], 0), ...PROPERTY_PATHS.rate);
      const rate = parseRate(block);
      if (rate?.total_exact && rate.before_taxes_total !== null && rate.nights) return block as unknown[];
    }
  }
  throw new Error('no priced rate block in the fixture');
}

export interface DayPrice {
  /** All-in stay total; base, taxes and fees keep the template's proportions. */
  total: number;
}

const ymd = (d: string) => d.split('-').map(Number);

/** One rate block for a check-in, priced at `price` for a stay of `los` nights. */
export function rateEntry(template: unknown[], date: string, los: number, price: DayPrice): unknown[] {
  const block = structuredClone(template) as any[];
  const [base, taxes, fees, total] = block[44] as number[];
  const k = price.total / total;
  const r2 = (n: number) => Math.round(n * 100) / 100;
  block[44] = [r2(base * k), r2(taxes * k), r2(fees * k), price.total];
  const nightly = Math.round(price.total / los);
  const cur = String(block[15]);
  const sym = (block[1][0] as string).replace(/[\d.,\s]+/g, '');
  block[1] = [`${sym}${nightly}`, block[1][1], r2(price.total / los), block[1][3], nightly, ...(block[1] as unknown[]).slice(5)];
  block[9] = [`${sym}${Math.round(price.total)}`, ...(block[9] as unknown[]).slice(1)];
  block[8] = [ymd(date), ymd(addDays(date, los)), los];
  block[15] = cur;
  return block;
}

/** A batchexecute reply of the calendar RPC carrying `entries`. */
export function calendarReply(entries: unknown[] | null): string {
  const inner = JSON.stringify([null, entries]);
  const frame = JSON.stringify([
    ['wrb.fr', 'yY52ce', inner, null, null, null, 'generic'],
    ['di', 97],
    ['af.httprm', 96, '-1', 12],
  ]);
  return `)]}'\n\n${frame.length}\n${frame}\n25\n[["e",4,null,null,${frame.length + 30}]]\n`;
}

/** The check-in window and length of stay a calendar RPC request asks for. */
export function askedWindow(body: string): { first: string; last: string; los: number; token: string; currency: string } {
  const freq = JSON.parse(new URLSearchParams(body).get('f.req')!);
  const args = JSON.parse(freq[0][0][1]);
  const d = (a: number[]) => `${a[0]}-${String(a[1]).padStart(2, '0')}-${String(a[2]).padStart(2, '0')}`;
  return { first: d(args[1][0]), last: d(args[1][1]), los: args[1][2], token: args[3], currency: args[4] };
}
