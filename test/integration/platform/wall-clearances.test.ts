import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../../src/db/client.js';
import { migrate } from '../../../src/db/migrate.js';
import { clearanceStates, WallClearanceStore, type KeptCookie } from '../../../src/platform/wall-clearances.js';
import { ClearanceKeeper, type Harvest } from '../../../src/upstream/clearance.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';

/**
 * The kept clearance on a real PostgreSQL, with two keepers standing for two processes (each its own
 * pool, store and LISTEN connection): one visit renews it for every caller, newer clearances are
 * handed to callers that saw an older one refused, and the lifetime is the wall's own cookie's, capped.
 */
const log = pino({ level: 'silent' });
const token = (expires: number): KeptCookie => ({ name: 'aws-waf-token', value: `t${expires}`, domain: '.booking.com', path: '/', expires });
const harvest = (expires = -1): Harvest => ({ wall: 'aws_waf', userAgent: 'UA/1', cookies: [token(expires)] });

describe('wall clearances kept in PostgreSQL, shared by processes', () => {
  let db: TestDatabase;
  const pools: Sql[] = [];
  const stores: WallClearanceStore[] = [];
  const keeper = (i: number, maxAgeS = 3600) => new ClearanceKeeper(stores[i], { maxAgeS, waitMs: 10_000 }, log);

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const sql = createSql(db.url, { max: 4 });
      if (i === 0) await migrate(sql);
      pools.push(sql);
      stores.push(new WallClearanceStore(sql));
    }
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const p of pools) await p.end();
    await db?.drop();
  });

  it('20 callers on two processes need a clearance at once: one visit, every other caller gets the clearance it left', async () => {
    const [a, b] = [keeper(0), keeper(1)];
    let visits = 0;
    const visit = async (keep: (h: Harvest) => void) => {
      visits++;
      await new Promise((r) => setTimeout(r, 300));
      keep(harvest());
      return 'browser answer';
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reclear('otaone', 'direct', -1, visit)));
    expect(visits).toBe(1);
    expect(results.filter((r) => 'response' in r)).toEqual([{ response: 'browser answer' }]);
    const others = results.filter((r) => 'clearance' in r);
    expect(others).toHaveLength(19);
    for (const r of others) expect(r).toMatchObject({ clearance: { wall: 'aws_waf', userAgent: 'UA/1', generation: 1, cookies: [token(-1)] } });
    expect(await a.current('otaone', 'direct')).toMatchObject({ generation: 1 });
  });

  it('a refused clearance is not used by any process after; a caller that saw an older one refused gets the newer one', async () => {
    const [a, b] = [keeper(0), keeper(1)];
    const held = (await a.current('otaone', 'direct'))!;
    await a.refused(held);
    expect(await b.current('otaone', 'direct')).toBeNull();
    const [state] = (await clearanceStates(pools[0])).filter((s) => s.source === 'otaone');
    expect(state.refused_at).not.toBeNull();

    const renewed = await b.reclear('otaone', 'direct', held.generation, async (keep) => (keep(harvest()), 'answer'));
    expect(renewed).toEqual({ response: 'answer' });
    // a caller still holding generation 1 as refused finds generation 2 without a visit
    const late = await a.reclear('otaone', 'direct', held.generation, async () => {
      throw new Error('no visit expected');
    });
    expect(late).toMatchObject({ clearance: { generation: 2 } });
  });

  it("the lifetime is the wall's cookie's own, capped by the setting; a visit that earned no clearance cookie keeps nothing and frees the claim", async () => {
    const soon = Math.floor(Date.now() / 1000) + 120;
    const got = await keeper(0).reclear('otatwo', 'direct', -1, async (keep) => (keep(harvest(soon)), 'ok'));
    expect(got).toEqual({ response: 'ok' });
    const own = (await keeper(1).current('otatwo', 'direct'))!;
    expect(own.expiresAt.getTime()).toBe(soon * 1000);
    const capped = await keeper(0, 60).reclear('otatwo', 'direct', own.generation, async (keep) => (keep(harvest(soon + 86_400)), 'ok'));
    expect(capped).toEqual({ response: 'ok' });
    const held = (await keeper(1).current('otatwo', 'direct'))!;
    expect(Math.abs(held.expiresAt.getTime() - (Date.now() + 60_000))).toBeLessThan(5_000);

    const none = await keeper(0).reclear('rentalone', 'direct', -1, async (keep) => (keep({ wall: 'akamai', userAgent: 'UA', cookies: [] }), 'answer'));
    expect(none).toEqual({ response: 'answer' });
    const [state] = (await clearanceStates(pools[0])).filter((s) => s.source === 'rentalone');
    expect(state).toMatchObject({ wall: null, reclearing: false });
  });
});
