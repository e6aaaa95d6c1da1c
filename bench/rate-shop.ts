/**
 * The rate shop of issue 42 over an upstream with injected latency: a competitor set of 5 hotels ×
 * 30 check-in dates × 3 lengths of stay (15 calendars, one upstream window each) run by one worker
 * process and then by two (separate `npm run worker` processes beside an API process that runs
 * none); then a per-seller shop (sellers: true) of 5 hotels × 10 dates × 2 lengths (10 calendars and
 * 100 stays, each one property page of ~3 MB) the same way. Each row: wall time from submission to
 * the shop's end, upstream requests, credits charged against the credits_max the shop stated, peak
 * RSS (VmHWM) of the worker processes.
 *
 *   npx tsx bench/rate-shop.ts      (embedded PostgreSQL; BENCH_UPSTREAM_LATENCY_MS, default 200)
 */
import os from 'node:os';
import { spawn } from 'node:child_process';
import { startBenchService } from './harness.js';
import { field } from './process-memory.js';
import { entryArgs } from '../test/helpers/spawn-service.js';
import { addDays, todayUtc } from '../src/domain/dates.js';
import { BENCH_PROPERTY_TOKENS } from './bench-properties.js';

const LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 200);
const CONCURRENCY = process.env.WORKER_CONCURRENCY ?? '4';

async function startUpstream(): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/replay-upstream.ts', String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(String(d).trim()));
    child.once('exit', () => reject(new Error('upstream process exited')));
  });
  return { url, close: () => child.kill('SIGTERM') };
}

const upstreamRequests = async (url: string) =>
  Number(await (await fetch(`${url}/_bench/requests`)).text()) + Number(await (await fetch(`${url}/_bench/pages`)).text());

/** The two shops measured: the default one (calendars) and a per-seller one (calendars and each stay's offers). */
const SHOPS = [
  { name: 'calendars', body: { days: 30, los: [1, 2, 3] } },
  { name: 'sellers', body: { days: 10, los: [1, 2], sellers: true } },
] as const;

async function main() {
  const replay = await startUpstream();
  const bench = await startBenchService({ UPSTREAM_METASEARCH_URL: replay.url, RUN_WORKER: 'false' });
  const { service, key } = bench;
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const databaseUrl = service.embedded?.url ?? bench.config.DATABASE_URL!;
  const rows: Record<(typeof SHOPS)[number]['name'], string[]> = { calendars: [], sellers: [] };

  for (const kind of SHOPS)
    for (const workers of [1, 2]) {
      // the per-seller shop's hotels have real tokens (their pages are looked up by them); each run fetches live (no cache)
      const [own, ...rivals] =
        kind.name === 'sellers' ? BENCH_PROPERTY_TOKENS : [`bench-own-${workers}`, ...[1, 2, 3, 4].map((i) => `bench-rival-${workers}-${i}`)];
      const set = (await (
        await fetch(`${service.url}/v1/compsets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: `bench ${kind.name} ${workers}`,
            own: { property_token: own, name: 'Own' },
            competitors: rivals.map((t, i) => ({ property_token: t, name: `Rival ${i + 1}` })),
          }),
        })
      ).json()) as { id: string };
      const procs = Array.from({ length: workers }, () =>
        spawn(process.execPath, entryArgs('src/worker.ts'), {
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            WORKER_PORT: '0',
            HOST: '127.0.0.1',
            LOG_LEVEL: 'warn',
            UPSTREAM_METASEARCH_URL: replay.url,
            WORKER_CONCURRENCY: CONCURRENCY,
            RESULT_CACHE_ENABLED: 'false',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        }),
      );
      // the workers are up once they have each taken part in the queue: give them their start
      await new Promise((r) => setTimeout(r, 8000));
      const before = await upstreamRequests(replay.url);
      const t0 = performance.now();
      const shop = (await (
        await fetch(`${service.url}/v1/compsets/${set.id}/shops`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ start: addDays(todayUtc(), 30), ...kind.body }),
        })
      ).json()) as { id: string; job_id: string; items_total: number; credits_max: number };
      let wall: number;
      for (;;) {
        const [j] = await service.deps.sql<{ finished: boolean }[]>`SELECT finished_at IS NOT NULL AS finished FROM calendar_jobs WHERE id = ${shop.job_id}`;
        if (j?.finished) {
          wall = performance.now() - t0;
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      const requests = (await upstreamRequests(replay.url)) - before;
      const [{ credits, succeeded }] = await service.deps.sql<{ credits: number; succeeded: number }[]>`
      SELECT coalesce(-sum(l.amount), 0)::int AS credits, (SELECT items_succeeded FROM calendar_jobs WHERE id = ${shop.job_id}) AS succeeded
      FROM credit_ledger l JOIN calendar_job_items i ON i.id = l.request_id WHERE i.job_id = ${shop.job_id} AND l.kind = 'charge'`;
      const peak = procs.map((p) => field(p.pid!, 'status', 'VmHWM'));
      for (const p of procs) p.kill('SIGTERM');
      await Promise.all(procs.map((p) => new Promise((r) => p.once('exit', r))));
      rows[kind.name].push(
        `| ${workers} | ${(wall / 1000).toFixed(2)} s | ${requests} | ${credits} of ${shop.credits_max} | ${succeeded}/${shop.items_total} | ${peak.map((m) => m.toFixed(0)).join(' + ')} MB |`,
      );
    }

  console.log(
    [
      `## Rate shop: 5 hotels × 30 dates × 3 lengths of stay over an upstream with ${LATENCY_MS} ms latency (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, embedded PostgreSQL, ${CONCURRENCY} items at a time per worker, load average ${os.loadavg()[0].toFixed(1)} at the end)`,
      '',
      '| worker processes | wall time (submission to end) | upstream requests | credits charged of credits_max | calendars succeeded | peak RSS per worker (VmHWM) |',
      '|---|---|---|---|---|---|',
      ...rows.calendars,
      '',
      `Per-seller shop (sellers: true): 5 hotels × 10 dates × 2 lengths of stay = 10 calendars + 100 stays' offers (one property page each)`,
      '',
      '| worker processes | wall time (submission to end) | upstream requests | credits charged of credits_max | items succeeded | peak RSS per worker (VmHWM) |',
      '|---|---|---|---|---|---|',
      ...rows.sellers,
    ].join('\n'),
  );
  await bench.close();
  replay.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
