/**
 * The deployment recipe's shape (docs/operating.md, "Deployment"), from the build as the units and
 * the container run it: two API processes (RUN_WORKER=false) and one worker (`dist/src/worker.js`)
 * on one PostgreSQL. Each process's /metrics is scraped and its /healthz answers; a batch submitted
 * through one API is run by the worker alone, and the archive it wrote is fetched through either API.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/platform/keys.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { freePort } from '../helpers/free-port.js';
import { durableProcessEnv, printed, spawnEntry, spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { waitFor } from '../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

let replay: ReplayServer;
let db: TestDatabase;
let sql: Sql;
const children: Spawned['child'][] = [];

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los)]);
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  await migrate(sql);
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sql?.end();
  await db?.drop();
  await replay?.close();
});

async function scrape(base: string, key: string): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('two API processes and one worker on one PostgreSQL', () => {
  it('every process is scraped and healthy; the worker runs the batch; either API serves its archive', async () => {
    const admin = await createKey(sql, { name: 'prometheus', role: 'admin', plan: 'starter', rateLimit: 1000 });
    const user = await createKey(sql, { name: 'batch', plan: 'starter', rateLimit: 1000 });
    const apiEnv = durableProcessEnv(db.url, replay.url, { RUN_WORKER: 'false', DB_POOL_MAX: '5' });
    const [api1, api2] = await Promise.all([spawnServer(apiEnv, 180_000), spawnServer(apiEnv, 180_000)]);
    children.push(api1.child, api2.child);
    const workerPort = await freePort();
    const worker = spawnEntry(
      'src/worker.ts',
      [],
      durableProcessEnv(db.url, replay.url, { LOG_LEVEL: 'info', WORKER_PORT: String(workerPort), DB_POOL_MAX: '5' }),
    );
    children.push(worker);
    // the worker says it runs once its queue, its workers and its /metrics listener are up
    await printed(worker, 'calendar worker running');
    const workerUrl = `http://127.0.0.1:${workerPort}`;

    for (const base of [api1.url, api2.url, workerUrl]) {
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'up', queue: 'up' });
      expect((await fetch(`${base}/metrics`, { headers: { 'x-api-key': user.key } })).status).toBe(403);
    }
    // the worker serves nothing else
    expect((await fetch(`${workerUrl}/v1/billing`, { headers: { 'x-api-key': user.key } })).status).toBe(404);

    const submitted = await fetch(`${api1.url}/v1/jobs`, {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json', 'idempotency-key': 'recipe' },
      body: JSON.stringify({ items: [0, 1, 2].map((i) => ({ token: `recipe-hotel-${i}`, start: '2027-05-01', days: 2, probe_min_stay: false })) }),
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    const job = await waitFor(
      async () => {
        const j = (await (await fetch(`${api2.url}/v1/jobs/${id}`, { headers: { 'x-api-key': user.key } })).json()) as any;
        return j.finished_at ? j : null;
      },
      { timeoutMs: 180_000, what: 'the worker to finish the batch' },
    );
    expect(job).toMatchObject({ status: 'succeeded', items_succeeded: 3, artifact_uri: `/v1/jobs/${id}/artifact` });

    // the same archive through either API: the bytes the worker wrote, with the hash the job states
    const bodies = await Promise.all(
      [api1.url, api2.url].map(async (base) => {
        const res = await fetch(`${base}${job.artifact_uri}`, { headers: { 'x-api-key': user.key } });
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    expect(bodies[0].equals(bodies[1])).toBe(true);
    expect(createHash('sha256').update(bodies[0]).digest('hex')).toBe(job.artifact_sha256);
    expect(JSON.parse(gunzipSync(bodies[0]).toString()).items).toHaveLength(3);
    // and never to another account
    expect((await fetch(`${api1.url}${job.artifact_uri}`, { headers: { 'x-api-key': admin.key } })).status).toBe(404);

    // each process's own registry: the worker counted the items, the APIs the calls they answered
    const [m1, m2, mw] = await Promise.all([scrape(api1.url, admin.key), scrape(api2.url, admin.key), scrape(workerUrl, admin.key)]);
    expect(mw).toMatch(/^hotelrates_batch_items_total\{outcome="succeeded"\} 3$/m);
    for (const m of [m1, m2]) expect(m).not.toMatch(/^hotelrates_batch_items_total\{outcome="succeeded"\} [1-9]/m);
    expect(m1).toMatch(/^hotelrates_requests_total\{operation="create_calendar_job",transport="rest",status="202"\} 1$/m);
    expect(m2).toMatch(/^hotelrates_requests_total\{operation="get_calendar_job_artifact",transport="rest",status="200"\} 1$/m);
    for (const m of [m1, m2, mw]) expect(m).toMatch(/^hotelrates_db_pool_max 5$/m);

    // SIGTERM: each process closes within the recipe's bound (TimeoutStopSec=30) and exits 0
    const codes = await Promise.all(
      [api1.child, api2.child, worker].map(
        (c) =>
          new Promise<number | null>((resolve) => {
            c.once('exit', (code) => resolve(code));
            c.kill('SIGTERM');
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
  }, 600_000);
});
