/**
 * The load generator of `overhead.ts`, in its own process so that it does not share the measured
 * service's event loop. Args: url, comma-separated keys ('' for none), handler delay ms.
 * Prints one JSON line: mean, p50, p99 (ms), rps, errors.
 */
import autocannon from 'autocannon';

const [url, keyList = '', delay = '0'] = process.argv.slice(2);
const keys = keyList ? keyList.split(',') : [];
const body = JSON.stringify({ items: 1, delay_ms: Number(delay) });
let n = 0;
const result = await autocannon({
  url,
  method: 'POST',
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  duration: Number(process.env.BENCH_DURATION_S ?? 10),
  requests: [
    {
      setupRequest: (req: Record<string, unknown>) => ({
        ...req,
        headers: { 'content-type': 'application/json', ...(keys.length ? { 'x-api-key': keys[n++ % keys.length] } : {}) },
        body,
      }),
    },
  ],
});
process.stdout.write(`${JSON.stringify({ mean: result.latency.average, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx })}\n`);
