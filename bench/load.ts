/**
 * The load generator of the benchmarks, in its own process so that it does not share the measured
 * service's event loop. Arg: one JSON object (LoadSpec). Prints one JSON line: mean, p50, p99 (ms),
 * rps, errors (transport errors and non-2xx answers), requests.
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Each request takes the next of these keys as `x-api-key` (none: no key header). */
  keys?: string[];
}

const spec = JSON.parse(process.argv[2]) as LoadSpec;
const keys = spec.keys ?? [];
let n = 0;
const result = await autocannon({
  url: spec.url,
  method: spec.method,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  duration: Number(process.env.BENCH_DURATION_S ?? 10),
  requests: [
    {
      setupRequest: (req: Record<string, unknown>) => ({
        ...req,
        headers: { ...spec.headers, ...(keys.length ? { 'x-api-key': keys[n++ % keys.length] } : {}) },
        ...(spec.body !== undefined ? { body: spec.body } : {}),
      }),
    },
  ],
});
const out = {
  mean: result.latency.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  rps: result.requests.average,
  errors: result.errors + result.non2xx,
  requests: result.requests.total,
};
process.stdout.write(`${JSON.stringify(out)}\n`);
