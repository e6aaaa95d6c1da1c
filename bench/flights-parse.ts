/**
 * Parses the largest recorded flight results page 10 times and prints the time per page and
 * the heap growth. Run: `npx tsx bench/flights-parse.ts` (add `--expose-gc` for a settled heap).
 */
import { fixturePath, hasFixture, readFixture } from '../test/helpers/fixtures.js';
import { parseFlightResults } from '../src/sources/metasearch/flights/parse-results.js';
import { toCompatFlights } from '../src/sources/metasearch/flights/to-compat.js';
import { normalizeFlightSearch } from '../src/sources/metasearch/flights/params.js';
import { statSync } from 'node:fs';

const PAGES = [
  'google-flights/results-domestic_business-lax_ord.html.zst',
  'google-flights/results-layover-mad_nrt.html.zst',
  'google-flights/results-nonstop-sfo_jfk_economy.html.zst',
  'google-flights/results-overnight_1day-sfo_lhr_economy.html.zst',
];
const RUNS = 10;

const available = PAGES.filter(hasFixture);
if (!available.length) {
  console.log('no flight fixtures found; nothing to measure');
  process.exit(0);
}
const pages = available.map((rel) => ({ rel, html: readFixture(rel) }));
const largest = pages.reduce((a, b) => (b.html.length > a.html.length ? b : a));
const gc = (globalThis as { gc?: () => void }).gc;
const search = normalizeFlightSearch({ departure_id: 'LAX', arrival_id: 'ORD', outbound_date: '2026-07-01', flight_type: 'one_way' });

parseFlightResults(largest.html); // warm-up
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const times: number[] = [];
let itineraries = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const page = parseFlightResults(largest.html);
  times.push(performance.now() - t0);
  itineraries = page.best_flights.length + page.other_flights.length;
  if (i === RUNS - 1) toCompatFlights(page, { search });
}
gc?.();
const heapAfter = process.memoryUsage().heapUsed;
const mean = times.reduce((a, b) => a + b, 0) / times.length;
const sorted = [...times].sort((a, b) => a - b);

console.log(
  `page: ${largest.rel} (${(largest.html.length / 1e6).toFixed(1)} M chars, ${(statSync(fixturePath(largest.rel)).size / 1e3).toFixed(0)} kB zstd), ${itineraries} itineraries`,
);
console.log(`runs: ${RUNS}  mean ${mean.toFixed(1)} ms/page  min ${sorted[0].toFixed(1)}  max ${sorted[sorted.length - 1].toFixed(1)}`);
console.log(`heap: ${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB delta over ${RUNS} parses (${gc ? 'after gc' : 'no --expose-gc, unsettled'})`);
