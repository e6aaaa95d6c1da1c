import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createKey } from '../../src/platform/keys.js';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { durableProcessEnv, exited, printed, spawnEntry, spawnServer } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { waitFor } from '../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

/**
 * The watch scheduler across processes: an API (RUN_WORKER=false) and three `npm run worker`
 * processes share the queue; the workers holding checks in flight (the slot records its holder)
 * are killed with SIGKILL, and the API too; the worker left takes the slots over once their holds
 * run out, and a fresh API and worker join. Every period of every watch is checked exactly once,
 * charged once, none missed. A watch hour is 20 s here (WATCH_HOUR_S), so periods are 20 s apart;
 * a killed check's hold (11 s for this calendar) runs out well inside its period.
 */
const HOUR_S = 20;
const PERIODS = 4;

let replay: ReplayServer;
/** While set, calendar replies are held (up to the replay's 30 s): a check in flight stays in flight until its worker is killed. */
let holding = false;
let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  // every calendar reply takes 1.5 s, and period 1's are held until its holders are killed, so a check is surely mid-flight when its worker dies
  replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los, { delayMs: 1500, holdUntil: () => !holding })]);
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
  await migrate(sql);
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
  await replay?.close();
});

const env = (extra: Record<string, string> = {}) =>
  durableProcessEnv(db.url, replay.url, { WATCH_HOUR_S: String(HOUR_S), WATCH_SWEEP_S: '2', WATCH_CONCURRENCY: '2', ...extra });

const worker = async (children: ChildProcess[]) => {
  const w = spawnEntry('src/worker.ts', [], env({ LOG_LEVEL: 'info' }));
  children.push(w);
  await printed(w, 'calendar worker running');
  return w;
};

describe('watch checks across process deaths', () => {
  it('three workers; those holding checks in flight killed with SIGKILL, and the API too: each period checked once, charged once, none missed', async () => {
    const { key, account_id } = await createKey(sql, { name: 'watch-durable', plan: 'starter', rateLimit: 1000 });
    const children: ChildProcess[] = [];
    try {
      const api = await spawnServer(env({ RUN_WORKER: 'false' }));
      children.push(api.child);
      // three workers for two watches: whichever hold the in-flight checks, one is left to take them over
      const workers = await Promise.all([worker(children), worker(children), worker(children)]);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${api.url}/v1/watches`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({
            target: { operation: 'calendar', property_token: `durable-watch-${i}`, start: '2027-05-01', days: 2, probe_min_stay: false },
            rule: { type: 'any_change' },
            every_hours: 1,
          }),
        });
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      }

      // period 1: the workers holding its checks are killed while the upstream reply is pending, and so is the API
      await waitFor(async () => (await sql`SELECT count(*)::int AS n FROM watch_checks WHERE watch_id = ANY(${ids})`)[0].n === ids.length, {
        timeoutMs: 60_000,
        what: 'the first checks',
      });
      holding = true;
      const calendarCalls = () => replay.requests.filter((r) => r.path.endsWith('/batchexecute')).length;
      const holders = await waitFor(
        async () => {
          if (calendarCalls() <= ids.length) return null; // no period-1 request has reached the upstream yet
          const rows = await sql`SELECT claimed_by FROM watches WHERE id = ANY(${ids}) AND seq = 1 AND claimed_until > now()`;
          return rows.length ? rows.map((r) => Number(String(r.claimed_by).split('/').pop())) : null;
        },
        { timeoutMs: 60_000, what: 'a period-1 check in flight' },
      );
      const doomed = workers.filter((w) => holders.includes(w.pid!));
      expect(doomed.length).toBeGreaterThan(0);
      expect(doomed.length).toBeLessThan(workers.length);
      for (const c of [...doomed, api.child]) c.kill('SIGKILL');
      await Promise.all([...doomed, api.child].map(exited));
      holding = false;
      const [{ done }] = await sql`SELECT count(*)::int AS done FROM watch_checks WHERE watch_id = ANY(${ids}) AND period = 1`;
      expect(done).toBeLessThan(ids.length);

      // a fresh API and worker join; the killed checks' holds run out and a live worker checks their slots, inside the period
      const restarted = await spawnServer(env({ RUN_WORKER: 'false' }));
      children.push(restarted.child);
      await worker(children);
      const rows = await waitFor(
        async () => {
          const r = await sql`SELECT watch_id, period, id, created_at, credits FROM watch_checks WHERE watch_id = ANY(${ids}) ORDER BY watch_id, period`;
          return r.filter((c) => c.period < PERIODS).length === ids.length * PERIODS ? r : null;
        },
        { timeoutMs: (PERIODS + 2) * HOUR_S * 1000, what: `${PERIODS} periods of ${ids.length} watches` },
      );
      const periodMs = HOUR_S * 1000;
      for (const id of ids) {
        const mine = rows.filter((r) => r.watch_id === id && r.period < PERIODS);
        expect(mine.map((r) => r.period)).toEqual([0, 1, 2, 3]);
        const [w] = await sql`SELECT created_at, periods_missed FROM watches WHERE id = ${id}`;
        expect(w.periods_missed).toBe(0);
        // each check inside its own period
        for (const r of mine) {
          const start = w.created_at.getTime() + r.period * periodMs;
          expect(r.created_at.getTime()).toBeGreaterThanOrEqual(start);
          expect(r.created_at.getTime()).toBeLessThan(start + periodMs);
        }
      }
      // charged once per check, and nothing else
      const checkIds = rows.map((r) => r.id);
      const charges = await sql`SELECT request_id, amount FROM credit_ledger WHERE account_id = ${account_id} AND kind = 'charge'`;
      expect(charges.every((c) => c.amount === -5)).toBe(true);
      expect(charges.map((c) => c.request_id).sort()).toEqual([...checkIds].sort());
      const history = await sql`SELECT id, status, credits FROM request_history WHERE id = ANY(${checkIds})`;
      expect(history).toHaveLength(checkIds.length);
      expect(history.every((h) => h.status === 200 && h.credits === 5)).toBe(true);
      // one stored-rates run per check
      const [{ runs }] = await sql`SELECT count(*)::int AS runs FROM scrape_runs WHERE collection_key = ANY(${checkIds})`;
      expect(runs).toBe(checkIds.length);
      // the killed checks were attempted again: more calendar requests reached the upstream than checks committed
      expect(calendarCalls()).toBeGreaterThan(checkIds.length);
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await Promise.all(children.map(exited));
    }
  }, 300_000);
});
