import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../../src/db/client.js';
import { migrate } from '../../../src/db/migrate.js';
import { RateLimiter } from '../../../src/platform/rate-limit.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Rate-limit leases on the real database: limiters with pools of their own stand for API
 * processes sharing it. Each leases slots of a busy key ahead and hands them out without a round
 * trip; together they never admit more than the limit, and slots not handed out go back.
 */
let db: TestDatabase;
const pools: Sql[] = [];
const limiters: RateLimiter[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = createSql(db.url, { max: 2 });
  pools.push(sql);
  await migrate(sql);
});
afterAll(async () => {
  for (const l of limiters) await l.close();
  for (const s of pools) await s.end();
  await db?.drop();
});

function limiter(): { limiter: RateLimiter; statements: () => number } {
  let n = 0;
  const sql = createSql(db.url, { max: 4 });
  (sql as unknown as { options: { debug: unknown } }).options.debug = () => void n++;
  pools.push(sql);
  const l = new RateLimiter(sql);
  limiters.push(l);
  return { limiter: l, statements: () => n };
}

const counted = async (bucket: string) => Number((await pools[0]`SELECT coalesce(sum(n), 0)::int AS n FROM rate_buckets WHERE key_id = ${bucket}`)[0].n);

describe('rate-limit leases', () => {
  it('a busy key: calls are admitted from the lease, far fewer statements than calls', async () => {
    const { limiter: l, statements } = limiter();
    let admitted = 0;
    for (let i = 0; i < 400; i++) if (await l.take('busy', 100_000)) admitted++;
    expect(admitted).toBe(400);
    expect(statements()).toBeLessThan(40);
  });

  it('N + k concurrent calls on a key that leases ahead: exactly N admitted', async () => {
    const { limiter: l } = limiter();
    // warm the demand so that the limiter leases ahead (limit 500: up to 5 slots ahead)
    for (let i = 0; i < 20; i++) expect(await l.take('exact', 500)).toBe(true);
    const answers = await Promise.all(Array.from({ length: 600 }, () => l.take('exact', 500)));
    expect(answers.filter(Boolean).length).toBe(480);
  });

  it('two processes on one key never admit more than the limit together', async () => {
    const a = limiter().limiter;
    const b = limiter().limiter;
    const limit = 1_000;
    const rounds = await Promise.all(
      [a, b].map(async (l) => {
        let ok = 0;
        for (let i = 0; i < 12; i++) ok += (await Promise.all(Array.from({ length: 50 }, () => l.take('shared', limit)))).filter(Boolean).length;
        return ok;
      }),
    );
    const total = rounds[0] + rounds[1];
    expect(total).toBeLessThanOrEqual(limit);
    // held back at most by what the other process leased ahead and did not use (1 % of the limit each)
    expect(total).toBeGreaterThanOrEqual(limit - 2 * 10);
  });

  it('slots leased ahead and not used go back to their second: the window counts only admitted calls', async () => {
    const { limiter: l } = limiter();
    let admitted = 0;
    for (let i = 0; i < 150; i++) if (await l.take('giveback', 100_000)) admitted++;
    expect(admitted).toBe(150);
    // the lease may be ahead of the calls (more counted than admitted) until its second ends, never behind
    expect(await counted('giveback')).toBeGreaterThanOrEqual(150);
    await waitFor(async () => (await counted('giveback')) === 150, { timeoutMs: 5_000, what: 'unused slots to go back' });
  });

  it('a key under 100 a minute leases nothing ahead', async () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 30; i++) await l.take('small', 60);
    expect(await counted('small')).toBe(30);
  });
});
