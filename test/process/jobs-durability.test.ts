import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { createKey } from '../../src/platform/keys.js';
import { startRuntime } from '../../src/app/service.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { durableProcessEnv, printed, spawnEntry, spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { startTestService } from '../helpers/test-service.js';
import { waitFor } from '../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

/**
 * Batches survive their process: a server killed with SIGKILL mid-batch is restarted and
 * every item completes exactly once in effect; separate worker processes share the queue;
 * higher priority runs first.
 */
let replay: ReplayServer;
let db: TestDatabase;
let sql: Sql;
const children: Spawned['child'][] = [];

beforeAll(async () => {
  // each calendar reply takes 1.5 s, so a batch is surely mid-run when the process dies
  replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los, { delayMs: 1500 })]);
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
  await migrate(sql);
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sql?.end();
  await db?.drop();
  await replay?.close();
});

const env = () => durableProcessEnv(db.url, replay.url, { WORKER_CONCURRENCY: '2' });

async function submit(url: string, key: string, items: unknown[], priority = 5, idem = `k-${Math.random()}`) {
  const res = await fetch(`${url}/v1/jobs`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': idem },
    body: JSON.stringify({ items, priority }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as any).id as string;
}

describe('calendar batches across process deaths', () => {
  it('a SIGKILL mid-batch: after restart every item completes exactly once (no duplicate rows, no double charge)', async () => {
    const { key, account_id } = await createKey(sql, { name: 'durable', plan: 'starter', rateLimit: 1000 });
    const first = await spawnServer(env());
    children.push(first.child);
    const items = Array.from({ length: 6 }, (_, i) => ({ token: `durable-hotel-${i}`, start: '2027-05-01', days: 2, probe_min_stay: false }));
    const jobId = await submit(first.url, key, items);
    await waitFor(async () => (await sql`SELECT 1 FROM calendar_job_items WHERE job_id = ${jobId} AND status = 'running'`).length > 0, {
      what: 'an item to run',
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const before = await sql`SELECT count(*)::int AS n FROM calendar_job_items WHERE job_id = ${jobId} AND status = 'succeeded'`;
    expect(before[0].n).toBeLessThan(6);

    const second = await spawnServer(env());
    children.push(second.child);
    const job = await waitFor(
      async () => {
        const j = (await (await fetch(`${second.url}/v1/jobs/${jobId}`, { headers: { 'x-api-key': key } })).json()) as any;
        return j.finished_at ? j : null;
      },
      { timeoutMs: 90_000, what: 'the batch to finish after the restart' },
    );
    expect(job).toMatchObject({ status: 'succeeded', items_succeeded: 6, items_failed: 0 });
    expect(job.items.every((i: any) => i.status === 'succeeded')).toBe(true);
    expect(job.items.some((i: any) => i.attempts >= 2)).toBe(true); // the interrupted ones ran again
    const charges = await sql`SELECT request_id, amount FROM credit_ledger WHERE account_id = ${account_id} AND kind = 'charge'`;
    expect(charges).toHaveLength(6);
    expect(new Set(charges.map((c) => c.request_id)).size).toBe(6);
    const [{ rows, obs }] =
      await sql`SELECT count(*)::int AS rows, count(DISTINCT observation_id)::int AS obs FROM stored_rates WHERE token LIKE 'durable-hotel-%'`;
    expect(rows).toBe(12);
    expect(obs).toBe(12);
    const [{ runs }] = await sql`SELECT count(*)::int AS runs FROM scrape_runs WHERE token LIKE 'durable-hotel-%'`;
    expect(runs).toBe(6);
    expect(job.result_summary).toMatchObject({ rates: 12, database: { rows_written: 12 } });
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('separate worker processes (npm run worker) share the queue of an API started with RUN_WORKER=false', async () => {
    const { key } = await createKey(sql, { name: 'scale-out', plan: 'starter', rateLimit: 1000 });
    const api = await spawnServer({ ...env(), RUN_WORKER: 'false' });
    children.push(api.child);
    const workers = [spawnEntry('src/worker.ts', [], { ...env(), LOG_LEVEL: 'info' }), spawnEntry('src/worker.ts', [], { ...env(), LOG_LEVEL: 'info' })];
    children.push(...workers);
    try {
      // both workers are polling the queue before anything is submitted
      await Promise.all(workers.map((w) => printed(w, 'calendar worker running')));
      const items = Array.from({ length: 8 }, (_, i) => ({ token: `scaled-hotel-${i}`, start: '2027-06-01', days: 1, probe_min_stay: false }));
      const jobId = await submit(api.url, key, items);
      const job = await waitFor(
        async () => {
          const j = (await (await fetch(`${api.url}/v1/jobs/${jobId}`, { headers: { 'x-api-key': key } })).json()) as any;
          return j.finished_at ? j : null;
        },
        { timeoutMs: 120_000, what: 'the batch on two workers' },
      );
      expect(job.status).toBe('succeeded');
      // Each process runs at most 2 items at once (WORKER_CONCURRENCY), so more than 2 items
      // running at one moment proves that both processes took items from the one queue.
      const spans = await sql`SELECT started_at, finished_at FROM calendar_job_items WHERE job_id = ${jobId}`;
      expect(maxOverlap(spans.map((r) => [r.started_at.getTime(), r.finished_at.getTime()] as [number, number]))).toBeGreaterThan(2);
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      api.child.kill('SIGTERM');
      await Promise.all([
        api.exited,
        ...workers.map((w) => new Promise((resolve) => (w.exitCode !== null || w.signalCode !== null ? resolve(null) : w.once('exit', resolve)))),
      ]);
    }
  });
});

/** The largest number of [start, end] intervals that are open at one moment. */
function maxOverlap(spans: Array<[number, number]>): number {
  const edges = spans
    .flatMap(
      ([s, e]) =>
        [
          [s, 1],
          [e, -1],
        ] as Array<[number, number]>,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (open += d));
  return most;
}

describe('priority', () => {
  it('higher priority first, FIFO among equals', async () => {
    const svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, RUN_WORKER: 'false' }, { databaseUrl: db.url });
    const { key } = await svc.key();
    const body = (token: string, priority: number) => ({ items: [{ token, start: '2027-07-01', days: 1, probe_min_stay: false }], priority });
    const ids: string[] = [];
    for (const [token, priority] of [
      ['prio-low-1', 1],
      ['prio-mid-1', 5],
      ['prio-high-1', 9],
      ['prio-mid-2', 5],
    ] as const) {
      const res = await svc.call('/v1/jobs', { key, body: body(token, priority), headers: { 'idempotency-key': token } });
      ids.push(((await res.json()) as any).id);
    }
    const config = loadConfig({ ...env(), WORKER_CONCURRENCY: '1' });
    const worker = await startRuntime(config, { log: pino({ level: 'silent' }), worker: true });
    try {
      await waitFor(
        async () => {
          const [{ n }] = await sql`SELECT count(*)::int AS n FROM calendar_jobs WHERE id = ANY(${ids}) AND finished_at IS NOT NULL`;
          return n === 4;
        },
        { timeoutMs: 60_000, what: 'four jobs' },
      );
      const order = await sql`SELECT token FROM calendar_job_items WHERE job_id = ANY(${ids}) ORDER BY started_at`;
      expect(order.map((r) => r.token)).toEqual(['prio-high-1', 'prio-mid-1', 'prio-mid-2', 'prio-low-1']);
    } finally {
      await worker.close();
      await svc.close();
    }
  });
});
