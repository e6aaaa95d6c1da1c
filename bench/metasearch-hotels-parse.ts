/**
 * Parse cost of the metasearch hotel results page: the largest recorded page parsed 20 times.
 *
 *   npx tsx bench/metasearch-hotels-parse.ts
 *   node --expose-gc --import tsx bench/metasearch-hotels-parse.ts   (heap delta after a forced GC)
 */
import fs from 'node:fs';
import { fixturePath, readFixture } from '../test/helpers/fixtures.js';
import { parseSearchPage } from '../src/sources/metasearch/hotels/parse-search.js';
import { toCompatSearch } from '../src/sources/metasearch/hotels/to-compat.js';

const RUNS = 20;
const PAGES = ['london-long-stay', 'paris-budget', 'tokyo-5star', 'tokyo-standard'].map((n) => `google-hotels/travel-search-${n}.html`);

const gc = (globalThis as { gc?: () => void }).gc;
const largest = PAGES.filter((p) => fs.existsSync(fixturePath(p))).sort((a, b) => fs.statSync(fixturePath(b)).size - fs.statSync(fixturePath(a)).size)[0];
if (!largest) {
  console.log('metasearch-hotels-parse: SKIPPED, no recorded search page found');
  process.exit(0);
}

const html = readFixture(largest);
parseSearchPage(html); // warm-up: JIT and lazy module init stay out of the numbers

gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const times: number[] = [];
let properties = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const page = parseSearchPage(html);
  toCompatSearch(page, page.query ?? '');
  times.push(performance.now() - t0);
  properties = page.properties.length;
}
const heapAfterRuns = process.memoryUsage().heapUsed;
gc?.();
const heapAfterGc = process.memoryUsage().heapUsed;

const mean = times.reduce((a, b) => a + b, 0) / times.length;
const sorted = [...times].sort((a, b) => a - b);
const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
console.log(`page: ${largest} (${mb(Buffer.byteLength(html))} MB, ${properties} properties)`);
console.log(`runs: ${RUNS}, parse + compat mapping`);
console.log(
  `ms/page: mean ${mean.toFixed(2)}, median ${sorted[Math.floor(RUNS / 2)].toFixed(2)}, min ${sorted[0].toFixed(2)}, max ${sorted[RUNS - 1].toFixed(2)}`,
);
console.log(`heap delta over the runs: ${mb(heapAfterRuns - heapBefore)} MB`);
console.log(gc ? `heap delta after GC: ${mb(heapAfterGc - heapBefore)} MB` : 'heap delta after GC: n/a (run with --expose-gc)');
