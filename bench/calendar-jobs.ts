/**
 * End-to-end costs over an upstream with injected latency:
 *  - a 90-night calendar (POST /v1/calendar): total time minus the upstream's own time
 *    (three monthly RPCs run in parallel, so the upstream time is one reply's latency);
 *  - per-item queue overhead of a calendar batch and the wall time of a 50-item job, against one
 *    window's upstream time measured while the job runs (the upstream's own time drifts with the
 *    machine's load, so a figure taken earlier would bias the difference);
 *  - the CPU each side spends per calendar and per item: this process (the service, and the
 *    benchmark's own requests) and the PostgreSQL cluster it started, read from the processes
 *    (robust to a busy machine, where the wall times above stretch with other work).
 *
 *   npx tsx bench/calendar-jobs.ts      (DATABASE_URL or an embedded PostgreSQL)
 */
import os from 'node:os';
import { clusterCpuUs, median, startBenchService } from './harness.js';
import { spawn } from 'node:child_process';
import { buildCalendarRpc, calendarWindows } from '../src/sources/metasearch/calendar/rpc.js';

const LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** BENCH_ZERO_RETENTION=1: the calendars store nothing (no rates written): what the stored-rates write adds to the wall time. */
const ZERO_RETENTION = process.env.BENCH_ZERO_RETENTION === '1';

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
  const apiTimes: number[] = [];
  const loadAtStart = os.loadavg()[0];
  let nodeUs = 0;
  let pgUs = 0;
  for (let i = 0; i < RUNS + 2; i++) {
    let t = performance.now();
    await Promise.all(windows.map(direct));
    const upstream = performance.now() - t;
    const cpu = process.cpuUsage();
    const pg = clusterCpuUs();
    t = performance.now();
    const res = await fetch(`${service.url}/v1/calendar`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        token: `bench-hotel-${i}`,
        start: '2027-03-01',
        days: 90,
        probe_min_stay: false,
        ...(ZERO_RETENTION ? { zero_retention: true } : {}),
      }),
    });
    await res.arrayBuffer();
    const api = performance.now() - t;
    if (res.status !== 200) throw new Error(`calendar answered ${res.status}`);
    // the first two rounds warm both paths up
    if (i > 1) {
      upstreamTimes.push(upstream);
      apiTimes.push(api);
      const used = process.cpuUsage(cpu);
      nodeUs += used.user + used.system;
      pgUs += clusterCpuUs() - pg;
    }
  }
  const upstreamTime = median(upstreamTimes);
  const overheads = apiTimes.map((a) => a - upstreamTime);

  // 50-item batch: each item is one 31-night window (one upstream reply)
  const items = Array.from({ length: 50 }, (_, i) => ({ token: `bench-batch-${i}`, start: '2027-03-01', days: 31, probe_min_stay: false }));
  // one window asked directly, again and again while the job runs: the upstream's time meanwhile
  const windowTimes: number[] = [];
  let batchRunning = true;
  const sampler = (async () => {
    while (batchRunning) {
      const w0 = performance.now();
      await direct(windows[0]);
      windowTimes.push(performance.now() - w0);
    }
  })();
  const batchCpu = process.cpuUsage();
  const batchPg = clusterCpuUs();
  const t0 = performance.now();
  const created = await fetch(`${service.url}/v1/jobs`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': `bench-${Date.now()}` },
    body: JSON.stringify({ items }),
  });
  const job = (await created.json()) as { id: string };
  let wall: number;
  // The job's end, read straight from its row every 10 ms: polling GET /v1/jobs/{id} that often
  // (an authenticated, recorded call reading 50 items) would load the service it measures.
  for (;;) {
    const [j] = await service.deps.sql<{ finished: boolean }[]>`SELECT finished_at IS NOT NULL AS finished FROM calendar_jobs WHERE id = ${job.id}`;
    if (j?.finished) {
      wall = performance.now() - t0;
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const done = (await (await fetch(`${service.url}/v1/jobs/${job.id}`, { headers })).json()) as { status: string; items_succeeded: number };
  if (done.status !== 'succeeded' || done.items_succeeded !== 50) throw new Error(`the job ended ${done.status} with ${done.items_succeeded} items`);
  const batchUsed = process.cpuUsage(batchCpu);
  const batchPgUs = clusterCpuUs() - batchPg;
  batchRunning = false;
  await sampler;
  const windowTime = median(windowTimes);
  const concurrency = config.WORKER_CONCURRENCY;
  // items run `concurrency` at a time: the upstream alone would take one window's time per round
  const rounds = Math.ceil(50 / concurrency);
  const ideal = rounds * windowTime;
  const perItem = (wall - ideal) / rounds;

  console.log(
    [
      `## Calendar and batch over an upstream with ${LATENCY_MS} ms latency (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${config.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL, load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end)`,
      '',
      `| measure | value |`,
      `|---|---|`,
      `| upstream alone: the 90-night calendar's three RPCs in parallel (median) | ${upstreamTime.toFixed(1)} ms |`,
      `| 90-night calendar through the API, overhead over the upstream (median of ${RUNS}${ZERO_RETENTION ? ', zero_retention: nothing stored' : ''}) | ${median(overheads).toFixed(1)} ms |`,
      `| 90-night calendar, overhead, worst of ${RUNS} | ${Math.max(...overheads).toFixed(1)} ms |`,
      `| 50-item job wall time (31 nights per item), ${concurrency} items at a time | ${wall.toFixed(0)} ms (upstream alone: ${rounds} rounds × ${windowTime.toFixed(1)} ms = ${ideal.toFixed(0)} ms) |`,
      `| per-item overhead: submission, queue, result, stored rates, charge, counters (wall minus upstream, per round; items of a round run side by side) | ${perItem.toFixed(1)} ms |`,
      `| CPU per 90-night calendar: this process (service and the benchmark's request) / PostgreSQL | ${(nodeUs / RUNS / 1000).toFixed(1)} / ${(pgUs / RUNS / 1000).toFixed(1)} ms |`,
      `| CPU per batch item (whole job ÷ 50, the direct window requests meanwhile included): this process / PostgreSQL | ${((batchUsed.user + batchUsed.system) / 50 / 1000).toFixed(1)} / ${(batchPgUs / 50 / 1000).toFixed(1)} ms |`,
    ].join('\n'),
  );
  await bench.close();
  replay.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
