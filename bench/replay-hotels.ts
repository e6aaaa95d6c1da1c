/**
 * The result-cache benchmark's upstream, in its own process: the recorded London results page of
 * the metasearch engine, a search for `Crowd` answered after `latency` ms (argv[2]), and
 * GET /__requests?q=… counting the searches received for a query. Prints its URL on stdout.
 */
import { page, PAGES } from '../test/fixtures/hotels-payloads.js';
import { startReplayServer, type ReplayServer } from '../test/replay/server.js';

const latency = Number(process.argv[2] ?? 300);
const london = page(PAGES.london);
const replay: ReplayServer = await startReplayServer([
  { path: '/__requests', reply: (req) => ({ n: replay.requests.filter((r) => r.path === '/travel/search' && r.query.q === req.query.q).length }) },
  { path: '/travel/search', query: { q: 'Crowd' }, body: london, delayMs: latency },
  { path: '/travel/search', body: london },
]);
process.stdout.write(`${replay.url}\n`);
process.on('SIGTERM', () => void replay.close().then(() => process.exit(0)));
