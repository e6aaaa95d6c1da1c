/**
 * 1,000 watches due in the same minute: an API with no worker (RUN_WORKER=false) creates them
 * (each one's first check is due at its creation), then a worker process's scheduler starts on the
 * backlog. Reports how long until every watch was checked (all inside their one-hour period?),
 * checks per second, and the database rows written per check (inserted, updated, deleted, from
 * PostgreSQL's own counters; pg-boss's queue tables included).
 *
 *   npx tsx bench/watches.ts     (DATABASE_URL or an embedded PostgreSQL; BENCH_WATCHES, BENCH_UPSTREAM_LATENCY_MS, WATCH_CONCURRENCY)
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import pino from 'pino';
import { startRuntime } from '../src/app/service.js';
import { startBenchService } from './harness.js';

const WATCHES = Number(process.env.BENCH_WATCHES ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 200);
const CONCURRENCY = process.env.WATCH_CONCURRENCY ?? '16';

async function startUpstream(): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/replay-upstream.ts', String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(String(d).trim()));
    child.once('exit', () => reject(new Error('upstream process exited')));
  });
  // it ends with this process, whatever way this one ends
  process.on('exit', () => child.kill('SIGKILL'));
  return { url, close: () => child.kill('SIGKILL') };
}

async function main() {
  const replay = await startUpstream();
  const bench = await startBenchService({ UPSTREAM_METASEARCH_URL: replay.url, RUN_WORKER: 'false', WATCH_CONCURRENCY: CONCURRENCY });
  const { service, config, key } = bench;
  const sql = service.deps.sql;
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };

  // 1,000 watches of a 7-night calendar (one upstream reply each), checked hourly, created in under a minute
  const created0 = Date.now();
  for (let i = 0; i < WATCHES; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, WATCHES - i) }, async (_, j) => {
        const body = {
          target: { operation: 'calendar', property_token: `bench-watch-${i + j}`, start: '2027-03-01', days: 7, probe_min_stay: false },
          rule: { type: 'below', price: 105 },
          every_hours: 1,
        };
        const res = await fetch(`${service.url}/v1/watches`, { method: 'POST', headers, body: JSON.stringify(body) });
        if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }),
    );
  }
  const creationS = (Date.now() - created0) / 1000;
  const [{ spread }] = await sql`SELECT extract(epoch FROM max(next_check_at) - min(next_check_at))::float8 AS spread FROM watches`;

  const counters = async () => {
    // PostgreSQL publishes a backend's table counters at the end of its transactions, at most once a second
    await new Promise((r) => setTimeout(r, 1500));
    const [r] =
      await sql`SELECT coalesce(sum(n_tup_ins), 0)::float8 AS ins, coalesce(sum(n_tup_upd), 0)::float8 AS upd, coalesce(sum(n_tup_del), 0)::float8 AS del
      FROM pg_stat_all_tables WHERE schemaname IN ('public', 'pgboss')`;
    // pg-boss keeps each queue in a partition of its own: named here by its queue
    const tables =
      await sql`SELECT coalesce('pgboss job: ' || q.name, s.schemaname || '.' || s.relname) AS t, (s.n_tup_ins + s.n_tup_upd + s.n_tup_del)::float8 AS w
      FROM pg_stat_all_tables s LEFT JOIN pgboss.queue q ON s.schemaname = 'pgboss' AND s.relname = 'j' || encode(sha224(q.name::bytea), 'hex')
      WHERE s.schemaname IN ('public', 'pgboss')`;
    return { ...r, tables: new Map(tables.map((t) => [t.t as string, t.w as number])) } as {
      ins: number;
      upd: number;
      del: number;
      tables: Map<string, number>;
    };
  };
  const before = await counters();

  // the scheduler starts on the backlog: every watch is due
  const t0 = Date.now();
  const worker = await startRuntime({ ...config, RUN_WORKER: true }, { log: pino({ level: 'silent' }), worker: true });
  let done = 0;
  while (done < WATCHES) {
    await new Promise((r) => setTimeout(r, 100));
    [{ done }] = await sql`SELECT count(*)::int AS done FROM watch_checks`;
  }
  const wallS = (Date.now() - t0) / 1000;
  await worker.close();
  const after = await counters();
  const [late] =
    await sql`SELECT max(extract(epoch FROM c.created_at - (w.created_at)))::float8 AS worst, count(*) FILTER (WHERE c.created_at >= w.created_at + interval '1 hour')::int AS outside
    FROM watch_checks c JOIN watches w ON w.id = c.watch_id`;
  const [{ charged }] = await sql`SELECT count(*)::int AS charged FROM credit_ledger WHERE kind = 'charge'`;
  const rows = (k: 'ins' | 'upd' | 'del') => (after[k] - before[k]) / WATCHES;
  const top = [...after.tables.entries()]
    .map(([t, w]) => [t, (w - (before.tables.get(t) ?? 0)) / WATCHES] as const)
    .filter(([, w]) => w > 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([t, w]) => `${t.replace('public.', '')} ${w.toFixed(1)}`)
    .join(', ');
  console.log(
    [
      `## ${WATCHES} watches due in the same minute (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${config.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL, upstream latency ${LATENCY_MS} ms, WATCH_CONCURRENCY=${CONCURRENCY}, one worker process)`,
      '',
      '| measure | value |',
      '|---|---|',
      `| watches created (POST /v1/watches, 20 at a time) | ${WATCHES} in ${creationS.toFixed(1)} s; first checks due within ${Number(spread).toFixed(1)} s of each other |`,
      `| all checked (scheduler start → last check committed) | ${wallS.toFixed(1)} s |`,
      `| checks per second | ${(WATCHES / wallS).toFixed(1)} |`,
      `| checks outside their one-hour period | ${late.outside} (latest check ${Number(late.worst).toFixed(1)} s after its watch was due) |`,
      `| checks charged (ledger rows) | ${charged} |`,
      `| database rows per check: inserted / updated / deleted | ${rows('ins').toFixed(1)} / ${rows('upd').toFixed(1)} / ${rows('del').toFixed(1)} |`,
      `| rows written per check, by table | ${top} |`,
    ].join('\n'),
  );
  await bench.close();
  replay.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
