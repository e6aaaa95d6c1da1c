import type { ChildProcess } from 'node:child_process';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createKey } from '../../src/platform/keys.js';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { envelope, rawRequest, tasksRequester } from '../helpers/mcp-tasks-client.js';
import { durableProcessEnv, exited, spawnEntry, spawnServer } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { waitFor } from '../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

/**
 * An MCP task outlives its processes like a batch item: the API that created it and the worker
 * running it are both killed with SIGKILL mid-task; after a restart it completes once, charged once.
 */
let replay: ReplayServer;
let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  // each calendar window answers after 2 s, so the task is surely mid-run when its worker dies
  replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los, { delayMs: 2000 })]);
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
  await migrate(sql);
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
  await replay?.close();
});

// A 181-night calendar's expected run is ~23 s, so its queue entry would expire after ~46 s: the
// killed run is handed out again after 10 s here (this replay's run takes ~4 s).
const env = () => durableProcessEnv(db.url, replay.url, { JOB_MAX_EXPIRY_S: '10' });

/** Every process a test started is gone before the next test (none is left behind). */
async function killAll(children: ChildProcess[]): Promise<void> {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(children.map(exited));
}

describe('an MCP task across process deaths', () => {
  it('API and worker killed with SIGKILL mid-task: after the restart the task completes once, charged once', async () => {
    const { key, account_id } = await createKey(sql, { name: 'task-durable', plan: 'starter', rateLimit: 1000 });
    const children: ChildProcess[] = [];
    try {
      const api = await spawnServer({ ...env(), RUN_WORKER: 'false' });
      children.push(api.child);
      const firstWorker = spawnEntry('src/worker.ts', [], env());
      children.push(firstWorker);
      const args = { token: 'durable-task-hotel', start: '2027-05-01', days: 181, probe_min_stay: false };
      const created = await rawRequest(`${api.url}/mcp`, key, {
        method: 'tools/call',
        params: { name: 'get_hotel_calendar', arguments: args, _meta: envelope(true) },
      });
      expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId: string = created.body.result.taskId;
      await waitFor(async () => (await sql`SELECT 1 FROM mcp_tasks WHERE id = ${taskId} AND attempts = 1`).length > 0, {
        timeoutMs: 60_000,
        what: 'the worker to take the task',
      });

      firstWorker.kill('SIGKILL');
      api.child.kill('SIGKILL');
      await Promise.all([exited(firstWorker), exited(api.child)]);
      const [mid] = await sql`SELECT status FROM mcp_tasks WHERE id = ${taskId}`;
      expect(mid.status).toBe('working');

      const restarted = await spawnServer({ ...env(), RUN_WORKER: 'false' });
      children.push(restarted.child);
      children.push(spawnEntry('src/worker.ts', [], env()));
      // the requester resumes polling the task through the new API process
      const requester = await tasksRequester(`${restarted.url}/mcp`, key);
      try {
        const outcome = await requester.session.task(taskId as never).result();
        const result = resultFromTaskOutcome(outcome) as unknown as { structuredContent: { priced: number }; _meta: { request_id: string } };
        expect(result.structuredContent.priced).toBe(181); // the calendar's summary (mcp view): every night priced
        const requestId = result._meta.request_id;
        const [task] = await sql`SELECT status, attempts, request_id FROM mcp_tasks WHERE id = ${taskId}`;
        expect(task).toMatchObject({ status: 'completed', request_id: requestId });
        expect(task.attempts).toBeGreaterThanOrEqual(2);
        const charges = await sql`SELECT amount FROM credit_ledger WHERE account_id = ${account_id} AND kind = 'charge'`;
        expect(charges.map((c) => c.amount)).toEqual([-5]);
        const history = await sql`SELECT status, credits FROM request_history WHERE id = ${requestId}`;
        expect(history).toEqual([{ status: 200, credits: 5 }]);
        const [{ runs }] = await sql`SELECT count(*)::int AS runs FROM scrape_runs WHERE collection_key = ${requestId}`;
        expect(runs).toBe(1);
        const got = await rawRequest(`${restarted.url}/mcp`, key, { method: 'tasks/get', params: { taskId, _meta: envelope(true) } });
        expect(got.body.result).toMatchObject({ status: 'completed', result: { structuredContent: result.structuredContent } });
      } finally {
        await requester.close();
      }
    } finally {
      await killAll(children);
    }
  }, 240_000);

  it('an API (with its worker) stopped with SIGTERM mid-task leaves the task working; restarted, it completes once', async () => {
    const { key, account_id } = await createKey(sql, { name: 'task-graceful', plan: 'starter', rateLimit: 1000 });
    const children: ChildProcess[] = [];
    try {
      const api = await spawnServer(env());
      children.push(api.child);
      const args = { token: 'graceful-task-hotel', start: '2027-05-01', days: 181, probe_min_stay: false };
      const created = await rawRequest(`${api.url}/mcp`, key, {
        method: 'tools/call',
        params: { name: 'get_hotel_calendar', arguments: args, _meta: envelope(true) },
      });
      const taskId: string = created.body.result.taskId;
      await waitFor(async () => (await sql`SELECT 1 FROM mcp_tasks WHERE id = ${taskId} AND attempts = 1`).length > 0, {
        timeoutMs: 60_000,
        what: 'the worker to take the task',
      });
      api.child.kill('SIGTERM');
      await exited(api.child);
      const [mid] = await sql`SELECT status, result FROM mcp_tasks WHERE id = ${taskId}`;
      expect(mid).toMatchObject({ status: 'working', result: null });

      const restarted = await spawnServer(env());
      children.push(restarted.child);
      const requester = await tasksRequester(`${restarted.url}/mcp`, key);
      try {
        const outcome = await requester.session.task(taskId as never).result();
        const result = resultFromTaskOutcome(outcome) as unknown as { isError?: boolean; structuredContent: { priced: number } };
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent.priced).toBe(181); // the calendar's summary (mcp view): every night priced
        const charges = await sql`SELECT amount FROM credit_ledger WHERE account_id = ${account_id} AND kind = 'charge'`;
        expect(charges.map((c) => c.amount)).toEqual([-5]);
      } finally {
        await requester.close();
      }
    } finally {
      await killAll(children);
    }
  }, 240_000);
});
