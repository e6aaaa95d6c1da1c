/**
 * The benchmarks' upstream, in its own process so that building its replies does not count
 * against the service: the calendar RPC on a real rate block, with injected latency.
 * Prints its URL on the first line of stdout.
 */
import { calendarRoute } from '../test/helpers/calendar-replay.js';
import { startReplayServer } from '../test/replay/server.js';

const latency = Number(process.argv[2] ?? 200);
let asked = 0;
const replay = await startReplayServer([
  // how many calendar requests it answered (the rate-shop bench counts its upstream requests)
  { method: 'GET', path: '/_bench/requests', reply: () => String(asked) },
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
