import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createKey } from '../../src/platform/keys.js';
import { page, PAGES } from '../fixtures/hotels-payloads.js';
import { fixtureSuite } from '../helpers/fixtures.js';
import { durableProcessEnv, spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';
import { shiftFrom } from '../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-04-15');

/**
 * Two API processes (the compiled build, as `npm start` runs it) on one database share the result
 * cache: an answer one fetched is a free hit on the other, and identical calls sent to both at once
 * make one upstream request (the other process waits on the first one's claim, woken by NOTIFY);
 * only the call that fetched pays.
 */
const SEARCH = '/travel/search';
const STAY = { check_in: S('2026-04-15'), nights: 7, currency: 'GBP', gl: 'gb' };

const suite = fixtureSuite('the result cache across API processes', PAGES.london);
describe(suite.title, () => {
  let db: TestDatabase;
  let sql: Sql;
  let replay: ReplayServer;
  let key: string;
  const servers: Spawned[] = [];
  const fetched = (q: string) => replay.requests.filter((r) => r.path === SEARCH && r.query.q === q).length;
  const search = async (server: Spawned, q: string) => {
    const res = await fetch(`${server.url}/v1/hotels/search`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ q, ...STAY }),
    });
    const body = (await res.json()) as Record<string, any>;
    return { status: res.status, cache: res.headers.get('x-cache'), charged: res.headers.get('x-credits-charged'), id: res.headers.get('x-request-id')!, body };
  };

  beforeAll(async () => {
    const london = page(PAGES.london);
    replay = await startReplayServer([
      // slow enough that the calls sent to both processes at once are all in flight together
      { path: SEARCH, query: { q: 'Together' }, body: london, delayMs: 400 },
      { path: SEARCH, body: london },
    ]);
    db = await createTestDatabase();
    sql = createSql(db.url, { max: 4 });
    await migrate(sql);
    key = (await createKey(sql, { name: 'cache-processes', plan: 'starter', rateLimit: 100_000 })).key;
    const env = durableProcessEnv(db.url, replay.url, { RUN_WORKER: 'false', CREDITS_MODE: 'enforce' });
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    await sql?.end();
    await db?.drop();
    await replay?.close();
  });

  it('an answer fetched by one process is a free hit on the other', async () => {
    const [a, b] = servers;
    const first = await search(a, 'Berlin');
    expect([first.status, first.cache, first.charged]).toEqual([200, 'miss', '3']);
    const second = await search(b, 'Berlin');
    expect([second.status, second.cache, second.charged]).toEqual([200, 'hit', '0']);
    expect(fetched('Berlin')).toBe(1);
    const { meta, ...answer } = second.body;
    expect(meta.cached).toBe(true);
    expect(answer).toEqual(first.body);
  });

  it('identical calls sent to both processes at once: one upstream request, one charge', async () => {
    const calls = servers.flatMap((s) => Array.from({ length: 10 }, () => search(s, 'Together')));
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(fetched('Together')).toBe(1);
    expect(answers.filter((a) => a.cache === 'miss').map((a) => a.charged)).toEqual(['3']);
    expect(answers.filter((a) => a.cache === 'hit' && a.charged === '0')).toHaveLength(19);
    const ids = answers.map((a) => a.id);
    const charges = await sql`SELECT amount FROM credit_ledger WHERE request_id = ANY(${ids}) AND kind = 'charge'`;
    expect(charges.map((c) => c.amount)).toEqual([-3]);
    const [{ hits }] = await sql<{ hits: number }[]>`SELECT count(*)::int AS hits FROM request_history WHERE id = ANY(${ids}) AND cache_hit AND credits = 0`;
    expect(hits).toBe(19);
  });
});
