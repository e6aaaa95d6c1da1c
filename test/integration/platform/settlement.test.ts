/**
 * The ledger rules, tested once against the one money path (src/platform/credits.ts `settle`, with
 * CallWriter's group commit in front of it): every door (REST, MCP, MCP tasks) and the batch worker
 * settle through it, so their own tests check only their wiring (headers, task and job states).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../../src/db/client.js';
import { migrate } from '../../../src/db/migrate.js';
import { CallWriter } from '../../../src/platform/call-writer.js';
import { Credits, settle } from '../../../src/platform/credits.js';
import type { CallHistory } from '../../../src/platform/history.js';
import { createKey, type CreatedKey } from '../../../src/platform/keys.js';
import { newId } from '../../../src/domain/ids.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';

let db: TestDatabase;
let sql: Sql;
let credits: Credits;
let calls: CallWriter;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 6 });
  await migrate(sql);
  credits = new Credits(sql);
  calls = new CallWriter(sql, credits);
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

const call = (key: CreatedKey, over: Partial<CallHistory> = {}): CallHistory => ({
  key_id: key.id,
  method: 'POST',
  path: '/v1/test/metered',
  status: 200,
  duration_ms: 1.5,
  response_bytes: 10,
  credits: 0,
  rate_limited: false,
  ...over,
});

/** The account's state as the rules speak of it. */
async function state(accountId: string) {
  const [period] = await sql<{ granted: number; used: number }[]>`SELECT granted, used FROM credit_periods WHERE account_id = ${accountId}`;
  const ledger = await sql<{ kind: string; amount: number; request_id: string | null; note: string | null }[]>`
    SELECT kind, amount, request_id, note FROM credit_ledger WHERE account_id = ${accountId} AND kind = 'charge' ORDER BY id`;
  const history = await sql<{ id: string; status: number; credits: number; account_id: string }[]>`
    SELECT id, status, credits, account_id FROM request_history WHERE account_id = ${accountId} ORDER BY created_at, id`;
  const [{ reserved }] = await sql<{ reserved: number }[]>`SELECT count(*)::int AS reserved FROM credit_reservations WHERE account_id = ${accountId}`;
  return { ...period, ledger, history, reserved };
}

describe('one call', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(sql, { name: `k-${newId('t')}`, plan: 'free' });
  });

  it('a metered call: charge, ledger row, reservation released and history row, in one statement; answers what is left', async () => {
    const id = newId('req');
    await credits.reserve(key.account_id, 'free', id, 8);
    expect((await state(key.account_id)).reserved).toBe(1);
    const left = await calls.write({
      id,
      accountId: key.account_id,
      history: call(key, { credits: 5 }),
      charge: { plan: 'free', amount: 5, note: 'POST /v1/test/metered' },
    });
    expect(left).toBe(995);
    const s = await state(key.account_id);
    expect(s).toMatchObject({ granted: 1000, used: 5, reserved: 0 });
    expect(s.ledger).toEqual([{ kind: 'charge', amount: -5, request_id: id, note: 'POST /v1/test/metered' }]);
    expect(s.history).toEqual([{ id, status: 200, credits: 5, account_id: key.account_id }]);
  });

  it('a charge of 0 (a failure, an empty result) writes no ledger row and releases the reservation; the history row says 0', async () => {
    const id = newId('req');
    await credits.reserve(key.account_id, 'free', id, 8);
    const left = await calls.write({ id, accountId: key.account_id, history: call(key, { status: 502 }), charge: { plan: 'free', amount: 0, note: 'x' } });
    expect(left).toBe(1000);
    const s = await state(key.account_id);
    expect(s).toMatchObject({ used: 0, ledger: [], reserved: 0 });
    expect(s.history.map((h) => [h.status, h.credits])).toEqual([[502, 0]]);
  });

  it('a call that is not metered writes its history row only, answers null, and still gives back a reservation it held', async () => {
    const id = newId('req');
    await credits.reserve(key.account_id, 'free', id, 8);
    expect(await calls.write({ id, accountId: key.account_id, history: call(key, { status: 500 }), charge: null })).toBeNull();
    const s = await state(key.account_id);
    expect(s).toMatchObject({ used: 0, ledger: [], reserved: 0 });
    expect(s.history).toHaveLength(1);
  });

  it('a batch item is charged without a history row of its own', async () => {
    const id = newId('refreshitem');
    expect(await calls.write({ id, accountId: key.account_id, history: null, charge: { plan: 'free', amount: 3, note: 'POST /v1/jobs item' } })).toBe(997);
    const s = await state(key.account_id);
    expect(s).toMatchObject({ used: 3, history: [] });
    expect(s.ledger).toEqual([{ kind: 'charge', amount: -3, request_id: id, note: 'POST /v1/jobs item' }]);
  });

  it('requireFunds: a charge the balance does not cover writes nothing and answers null; one it covers is charged to zero', async () => {
    await credits.adjust(key.account_id, 'free', -990, 'test: leave 10');
    const refused = await calls.write({
      id: newId('i'),
      accountId: key.account_id,
      history: null,
      charge: { plan: 'free', amount: 11, note: 'item', requireFunds: true },
    });
    expect(refused).toBeNull();
    expect(await state(key.account_id)).toMatchObject({ used: 0, ledger: [] });
    const paid = await calls.write({
      id: newId('i'),
      accountId: key.account_id,
      history: null,
      charge: { plan: 'free', amount: 10, note: 'item', requireFunds: true },
    });
    expect(paid).toBe(0);
    // without requireFunds (a reservation already vouched for the call) the charge is applied as it comes
    expect(await calls.write({ id: newId('i'), accountId: key.account_id, history: null, charge: { plan: 'free', amount: 1, note: 'item' } })).toBe(-1);
  });

  it("in the caller's transaction a call is a batch of one: it commits or rolls back with the caller's work", async () => {
    const rolledBack = newId('req');
    await expect(
      sql.begin(async (tx) => {
        expect(
          await calls.write(
            { id: rolledBack, accountId: key.account_id, history: call(key, { credits: 2 }), charge: { plan: 'free', amount: 2, note: 'n' } },
            tx,
          ),
        ).toBe(998);
        throw new Error('the task result could not be stored');
      }),
    ).rejects.toThrow(/could not be stored/);
    expect(await state(key.account_id)).toMatchObject({ used: 0, ledger: [], history: [] });
    const committed = newId('req');
    await sql.begin((tx) =>
      calls.write({ id: committed, accountId: key.account_id, history: call(key, { credits: 2 }), charge: { plan: 'free', amount: 2, note: 'n' } }, tx),
    );
    expect(await state(key.account_id)).toMatchObject({ used: 2, ledger: [{ request_id: committed }], history: [{ id: committed }] });
  });

  it('one charge per request id: settling it again fails and changes nothing; a history row written twice stays the first', async () => {
    const id = newId('req');
    await calls.write({ id, accountId: key.account_id, history: call(key, { credits: 4 }), charge: { plan: 'free', amount: 4, note: 'n' } });
    await expect(
      calls.write({ id, accountId: key.account_id, history: call(key, { credits: 4 }), charge: { plan: 'free', amount: 4, note: 'n' } }),
    ).rejects.toThrow(/credit_ledger_one_charge/);
    await calls.write({ id, accountId: key.account_id, history: call(key, { status: 499 }), charge: null });
    const s = await state(key.account_id);
    expect(s).toMatchObject({ used: 4, history: [{ id, status: 200, credits: 4 }] });
    expect(s.ledger).toHaveLength(1);
  });
});

describe('the ledger', () => {
  it('is append-only: an entry is never changed or removed', async () => {
    const key = await createKey(sql, { name: `append-${newId('t')}`, plan: 'free' });
    await calls.write({ id: newId('req'), accountId: key.account_id, history: null, charge: { plan: 'free', amount: 1, note: 'n' } });
    await expect(sql`UPDATE credit_ledger SET amount = 0`).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM credit_ledger`).rejects.toThrow(/append-only/);
  });
});

describe('calls settled together', () => {
  it('200 concurrent calls of three accounts share statements; per account the ledger sums to the period total and every call has its row', async () => {
    const keys = await Promise.all(
      ['free', 'starter', 'free'].map((plan, i) => createKey(sql, { name: `many-${i}-${newId('t')}`, plan: plan as 'free' | 'starter' })),
    );
    let statements = 0;
    (sql as unknown as { options: { debug: unknown } }).options.debug = () => void statements++;
    const outcomes = Array.from({ length: 200 }, (_, i) => {
      const key = keys[i % 3];
      const amount = i % 4;
      return {
        id: newId('req'),
        accountId: key.account_id,
        history: call(key, { credits: amount }),
        charge: i % 5 === 0 ? null : { plan: key.account_id === keys[1].account_id ? 'starter' : 'free', amount, note: 'n' },
      };
    });
    const left = await Promise.all(outcomes.map((o) => calls.write(o)));
    (sql as unknown as { options: { debug: unknown } }).options.debug = undefined;
    // group commit: far fewer statements than calls (a lone call still goes at once)
    expect(statements).toBeLessThan(100);
    for (const key of keys) {
      const mine = outcomes.filter((o) => o.accountId === key.account_id);
      const charged = mine.reduce((n, o) => n + (o.charge?.amount ?? 0), 0);
      const s = await state(key.account_id);
      expect(s.used).toBe(charged);
      expect(-s.ledger.reduce((n, l) => n + l.amount, 0)).toBe(charged);
      expect(s.ledger).toHaveLength(mine.filter((o) => (o.charge?.amount ?? 0) > 0).length);
      expect(s.history).toHaveLength(mine.length);
      // what each call was told is left never exceeds what was left before it and is never below the end state
      for (const [i, o] of outcomes.entries()) {
        if (o.accountId !== key.account_id) continue;
        if (o.charge) expect(left[i]).toBeGreaterThanOrEqual(s.granted - s.used);
        else expect(left[i]).toBeNull();
      }
    }
  });

  it('a batch with one bad item: the others are written, the bad one alone fails', async () => {
    const key = await createKey(sql, { name: `bad-${newId('t')}`, plan: 'free' });
    const spent = newId('req');
    await calls.write({ id: spent, accountId: key.account_id, history: call(key), charge: { plan: 'free', amount: 1, note: 'n' } });
    const batch = Array.from({ length: 10 }, (_, i) => ({
      id: i === 5 ? spent : newId('req'),
      accountId: key.account_id,
      history: call(key),
      charge: { plan: 'free', amount: 1, note: 'n' },
    }));
    const settled = await Promise.allSettled(batch.map((o) => calls.write(o)));
    expect(settled.map((r) => r.status)).toEqual(batch.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    expect(await state(key.account_id)).toMatchObject({ used: 10 });
  });

  it('settle() itself, many settlements in one statement: remaining per account and period, null for the uncharged', async () => {
    const [a, b] = await Promise.all([createKey(sql, { name: `sa-${newId('t')}`, plan: 'free' }), createKey(sql, { name: `sb-${newId('t')}`, plan: 'free' })]);
    const [pa, pb] = await Promise.all([credits.ensurePeriod(a.account_id, 'free'), credits.ensurePeriod(b.account_id, 'free')]);
    const left = await settle(sql, [
      { id: newId('req'), accountId: a.account_id, history: call(a), charge: { periodStart: pa.start, amount: 2, note: 'n' } },
      { id: newId('req'), accountId: b.account_id, history: call(b), charge: { periodStart: pb.start, amount: 7, note: 'n' } },
      { id: newId('req'), accountId: a.account_id, history: call(a), charge: { periodStart: pa.start, amount: 3, note: 'n' } },
      { id: newId('req'), accountId: b.account_id, history: call(b), charge: null },
    ]);
    expect(left).toEqual([995, 993, 995, null]);
  });
});
