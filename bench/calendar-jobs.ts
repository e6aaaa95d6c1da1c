/**
 * End-to-end costs over an upstream with injected latency:
 *  - a 90-night calendar (POST /v1/calendar): total time minus the upstream's own time
 *    (three monthly RPCs run in parallel, so the upstream time is one reply's latency);
 *  - per-item queue overhead of a calendar batch and the wall time of a 50-item job.
 *
 *   npx tsx bench/calendar-jobs.ts      (DATABASE_URL or an embedded PostgreSQL)
 */
import os from 'node:os';
import { median, startBenchService } from './harness.js';
import { spawn } from 'node:child_process';
import { buildCalendarRpc, calendarWindows } from '../src/sources/metasearch/calendar/rpc.js';

const LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

/** The replayed upstream runs in its own process: its work is not the service's overhead. */
async function startUpstream(): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/replay-upstream.ts', String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(String(d).trim()));
    child.once('exit', () => reject(new Error('upstream process exited')));
  });
  return { url, close: () => child.kill('SIGTERM') };
}

async function main() {
  const replay = await startUpstream();
  const bench = await startBenchService({ UPSTREAM_METASEARCH_URL: replay.url, WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? '8' });
  const { service, config, key } = bench;
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };

  // The upstream's own time for a 90-night calendar (its three monthly RPCs, in parallel, asked
  // directly) and the same calendar through the API, taken in turns so that both see the same
  // machine: the overhead is the difference of their medians.
  const windows = calendarWindows('2027-03-01', 90).map((w) =>
    buildCalendarRpc({ token: 'bench-direct', window: w, los: 1, adults: 2, currency: 'USD', gl: 'us', hl: 'en' }),
  );
  const direct = (w: (typeof windows)[number]) =>
    fetch(`${replay.url}${w.path}?${new URLSearchParams(w.query)}`, { method: 'POST', headers: w.headers, body: w.body }).then((r) => r.arrayBuffer());
  const upstreamTimes: number[] = [];
  const windowTimes: number[] = [];
  const apiTimes: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    let t = performance.now();
    await Promise.all(windows.map(direct));
    const upstream = performance.now() - t;
    t = performance.now();
    await direct(windows[0]);
    const oneWindow = performance.now() - t;
    t = performance.now();
    const res = await fetch(`${service.url}/v1/calendar`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ token: `bench-hotel-${i}`, start: '2027-03-01', days: 90, probe_min_stay: false }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`calendar answered ${res.status}`);
    // the first two rounds warm both paths up
    if (i > 1) {
      upstreamTimes.push(upstream);
      windowTimes.push(oneWindow);
      apiTimes.push(performance.now() - t);
    }
  }
  const upstreamTime = median(upstreamTimes);
  const windowTime = median(windowTimes);
  const overheads = apiTimes.map((a) => a - upstreamTime);

  // 50-item batch: each item is one 31-night window (one upstream reply)
  const items = Array.from({ length: 50 }, (_, i) => ({ token: `bench-batch-${i}`, start: '2027-03-01', days: 31, probe_min_stay: false }));
  const t0 = performance.now();
  const created = await fetch(`${service.url}/v1/jobs`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': `bench-${Date.now()}` },
    body: JSON.stringify({ items }),
  });
  const job = (await created.json()) as { id: string };
  let wall: number;
  for (;;) {
    const j = (await (await fetch(`${service.url}/v1/jobs/${job.id}`, { headers })).json()) as { finished_at: string | null; status: string };
    if (j.finished_at) {
      wall = performance.now() - t0;
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const concurrency = config.WORKER_CONCURRENCY;
  // items run `concurrency` at a time: the upstream alone would take one window's time per round
  const rounds = Math.ceil(50 / concurrency);
  const ideal = rounds * windowTime;
  const perItem = (wall - ideal) / rounds;

  console.log(
    [
      `## Calendar and batch over an upstream with ${LATENCY_MS} ms latency (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${config.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL)`,
      '',
      `| measure | value |`,
      `|---|---|`,
      `| upstream alone: the 90-night calendar's three RPCs in parallel (median) | ${upstreamTime.toFixed(1)} ms |`,
      `| 90-night calendar through the API, overhead over the upstream (median of ${RUNS}) | ${median(overheads).toFixed(1)} ms |`,
      `| 90-night calendar, overhead, worst of ${RUNS} | ${Math.max(...overheads).toFixed(1)} ms |`,
      `| 50-item job wall time (31 nights per item), ${concurrency} items at a time | ${wall.toFixed(0)} ms (upstream alone: ${rounds} rounds × ${windowTime.toFixed(1)} ms = ${ideal.toFixed(0)} ms) |`,
      `| per-item overhead: submission, queue, result, stored rates, charge, counters (wall minus upstream, per round; items of a round run side by side) | ${perItem.toFixed(1)} ms |`,
    ].join('\n'),
  );
  await bench.close();
  replay.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
