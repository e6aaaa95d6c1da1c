/**
 * The benchmarks' upstream, in its own process so that building its replies does not count
 * against the service: the calendar RPC on a real rate block, with injected latency.
 * Prints its URL on the first line of stdout.
 */
import { calendarRoute } from '../test/helpers/calendar-replay.js';
import { startReplayServer } from '../test/replay/server.js';

const latency = Number(process.argv[2] ?? 200);
const replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los, { delayMs: latency })]);
process.stdout.write(`${replay.url}\n`);
process.on('SIGTERM', () => void replay.close().then(() => process.exit(0)));
