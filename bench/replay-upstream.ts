/**
 * The benchmarks' upstream, in its own process so that building its replies does not count
 * against the service: the calendar RPC on a real rate block, and the property pages of the
 * recorded London page's first five hotels (built once, around their real payloads, with four
 * sellers each), with injected latency. Prints its URL on the first line of stdout.
 */
import { calendarRoute } from '../test/helpers/calendar-replay.js';
import { startReplayServer } from '../test/replay/server.js';
import { encodePropertyQs } from '../src/sources/metasearch/hotels/requests.js';
import { BENCH_PROPERTY_TOKENS, benchPropertyPage } from './bench-properties.js';

const latency = Number(process.argv[2] ?? 200);
let asked = 0;
let pages = 0;
const replay = await startReplayServer([
  // how many calendar requests it answered (the rate-shop bench counts its upstream requests)
  { method: 'GET', path: '/_bench/requests', reply: () => String(asked) },
  // how many property pages it answered (a per-seller shop's stays)
  { method: 'GET', path: '/_bench/pages', reply: () => String(pages) },
  ...BENCH_PROPERTY_TOKENS.map((token, n) => ({
    path: '/travel/search',
    query: { qs: encodePropertyQs(token) },
    body: benchPropertyPage(n),
    delayMs: latency,
    match: () => {
      pages++;
      return true;
    },
  })),
  calendarRoute((date, los) => (100 + Number(date.slice(8))) * los, {
    delayMs: latency,
    match: () => {
      asked++;
      return true;
    },
  }),
]);
process.stdout.write(`${replay.url}\n`);
process.on('SIGTERM', () => void replay.close().then(() => process.exit(0)));
