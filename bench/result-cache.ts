/**
 * The result cache, side by side in one run on the same service and database (issue 28):
 *  - a repeated search_hotels answered from the cache (a hit) against the same search fetched live
 *    (`cache: false`: the replayed page fetched and parsed, the answer charged), p50 and p99;
 *  - fifty identical searches sent at once: with the cache, one upstream request and one charge
 *    (the others wait for it); asked live, fifty of each.
 * The upstream is replayed in its own process (bench/replay-hotels.ts); the client runs in this
 * process, one call at a time for the latencies.
 *
 *   npx tsx bench/result-cache.ts      (DATABASE_URL or an embedded PostgreSQL)
 */
import os from 'node:os';
import { spawn } from 'node:child_process';
import { startBenchService } from './harness.js';

const HITS = Number(process.env.BENCH_HITS ?? 300);
const LIVE = Number(process.env.BENCH_LIVE ?? 60);
const CROWD = 50;
const CROWD_LATENCY_MS = 300;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function main() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/replay-hotels.ts', String(CROWD_LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const upstream = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  const bench = await startBenchService({ UPSTREAM_METASEARCH_URL: upstream, RESULT_CACHE_ENABLED: 'true', RUN_WORKER: 'false' });
  const { service, key } = bench;
  const search = async (body: Record<string, unknown>) => {
    const t = performance.now();
    const res = await fetch(`${service.url}/v1/hotels/search`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${text.slice(0, 300)}`);
    return { ms: performance.now() - t, cache: res.headers.get('x-cache'), charged: Number(res.headers.get('x-credits-charged')), bytes: text.length };
  };
  const upstreamRequests = async (q: string) => ((await (await fetch(`${upstream}/__requests?q=${q}`)).json()) as { n: number }).n;
  const stay = { check_in: '2027-04-15', nights: 7, currency: 'GBP', gl: 'gb' };

  // warm both paths (the first call of each compiles its code), then time them in turns
  const first = await search({ q: 'London', ...stay });
  await search({ q: 'London', ...stay, cache: false });
  const hits: number[] = [];
  const live: number[] = [];
  for (let i = 0; i < Math.max(HITS, LIVE); i++) {
    if (i < HITS) {
      const h = await search({ q: 'London', ...stay });
      if (h.cache !== 'hit' || h.charged !== 0) throw new Error(`expected a free hit, got ${h.cache} charged ${h.charged}`);
      hits.push(h.ms);
    }
    if (i < LIVE) live.push((await search({ q: 'London', ...stay, cache: false })).ms);
  }

  const crowd = async (q: string, asked: Record<string, unknown>) => {
    const before = await upstreamRequests(q);
    const t = performance.now();
    const answers = await Promise.all(Array.from({ length: CROWD }, () => search({ q, ...stay, ...asked })));
    return {
      wall: performance.now() - t,
      upstream: (await upstreamRequests(q)) - before,
      charged: answers.reduce((s, a) => s + a.charged, 0),
      worst: Math.max(...answers.map((a) => a.ms)),
    };
  };
  const coalesced = await crowd('Crowd', {});
  const uncached = await crowd('Crowd', { cache: false });

  console.log(
    [
      `## Result cache (\`bench/result-cache.ts\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores)`,
      '',
      `search_hotels on the recorded London page (${(first.bytes / 1024).toFixed(0)} KB answer), the upstream replayed in its own process without added latency: "live" is the service's own work (fetch, parse, charge); a real upstream adds its seconds to it. One call at a time, the client in the benchmark's process.`,
      '',
      '| call | p50 | p99 | calls | credits |',
      '|---|---|---|---|---|',
      `| repeated search, cache hit | ${ms(pct(hits, 50))} | ${ms(pct(hits, 99))} | ${HITS} | 0 |`,
      `| the same search live (\`cache: false\`) | ${ms(pct(live, 50))} | ${ms(pct(live, 99))} | ${LIVE} | 3 each |`,
      `| hit as a share of live, p50 | ${((pct(hits, 50) / pct(live, 50)) * 100).toFixed(1)} % | | | |`,
      '',
      `${CROWD} identical searches sent at once, upstream latency ${CROWD_LATENCY_MS} ms:`,
      '',
      '| run | upstream requests | credits charged | wall time | slowest answer |',
      '|---|---|---|---|---|',
      `| coalesced (cache on) | ${coalesced.upstream} | ${coalesced.charged} | ${ms(coalesced.wall)} | ${ms(coalesced.worst)} |`,
      `| each live (\`cache: false\`) | ${uncached.upstream} | ${uncached.charged} | ${ms(uncached.wall)} | ${ms(uncached.worst)} |`,
    ].join('\n'),
  );
  await bench.close();
  child.kill('SIGTERM');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
