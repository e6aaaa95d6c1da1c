import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../tools/index.js';
import { once } from '../../../src/platform/idempotency.js';
import { newId } from '../../../src/domain/ids.js';
import { PROBES } from '../../helpers/probe-tools.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

/*
 * Metering as the REST door does it: what the headers say, rate limits, reservations under
 * enforcement, usage and the ledger pages. The ledger rules themselves (charge, ledger row,
 * reservation release and history in one statement; batches; requireFunds) are tested once
 * against the money path in settlement.test.ts.
 */

const tools = [...TOOLS, ...PROBES];

describe('shadow mode (default)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({}, { tools });
  });
  afterAll(() => svc?.close());

  it('200 parallel metered calls: ledger charges equal the sum of x-credits-charged, 200 history rows', async () => {
    const k = await svc.key({ plan: 'scale' });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => svc.call('/v1/test/metered', { key: k.key, body: { items: i % 4 } })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const charged = answers.map((a) => Number(a.headers.get('x-credits-charged')));
    // items 0 is an empty result: free; else 3 + items
    expect(charged.reduce((a, b) => a + b, 0)).toBe(50 * (0 + 4 + 5 + 6));
    const [{ sum }] = await svc.deps.sql`SELECT -sum(amount)::int AS sum FROM credit_ledger WHERE account_id = ${k.account_id} AND kind = 'charge'`;
    expect(sum).toBe(750);
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM request_history WHERE key_id = ${k.id}`;
    expect(n).toBe(200);
    const remaining = answers.map((a) => Number(a.headers.get('x-credits-remaining')));
    expect(Math.min(...remaining)).toBe(1_000_000 - 750);
    const billing = (await (await svc.call('/v1/billing', { key: k.key })).json()) as any;
    expect(billing.credits).toMatchObject({ granted: 1_000_000, used: 750, remaining: 999_250 });
  });

  it('failures and empty results charge 0 and write no charge', async () => {
    const k = await svc.key();
    const failed = await svc.call('/v1/test/metered', { key: k.key, body: { fail: true } });
    expect(failed.status).toBe(502);
    // a 502 names where it came from (no upstream request was made: the operation's family) and whether to retry
    expect(failed.headers.get('retry-after')).toBe('5');
    expect((await failed.json()) as any).toEqual({
      detail: 'ProbeFailure',
      source: 'test',
      failure: 'upstream_error',
      retryable: true,
      retry: 'retry with exponential backoff; nothing was charged',
    });
    expect(failed.headers.get('x-credits-charged')).toBe('0');
    const empty = await svc.call('/v1/test/metered', { key: k.key, body: { items: 0 } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-credits-charged')).toBe('0');
    expect(empty.headers.get('x-credits-remaining')).toBe('1000');
    const invalid = await svc.call('/v1/test/metered', { key: k.key, body: { items: -1 } });
    expect(invalid.status).toBe(422);
    // (that a charge of 0 writes no ledger row is a rule of the money path: settlement.test.ts)
    const history = await svc.deps.sql`SELECT status, credits FROM request_history WHERE key_id = ${k.id} ORDER BY created_at`;
    expect(history.map((h) => [h.status, h.credits])).toEqual([
      [502, 0],
      [200, 0],
      [422, 0],
    ]);
  });

  it('a key with limit N hit by N+k parallel calls: exactly k answers 429, not charged, counted as rate_limited', async () => {
    const k = await svc.key({ rateLimit: 20 });
    const answers = await Promise.all(Array.from({ length: 27 }, () => svc.call('/v1/test/metered', { key: k.key, body: { items: 1 } })));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBe(7);
    expect(answers.filter((a) => a.status === 200).length).toBe(20);
    const body = (await limited[0].json()) as any;
    expect(body).toEqual({ detail: 'rate limit 20/min exceeded' });
    expect(limited[0].headers.get('retry-after')).toBeNull();
    expect([...limited[0].headers.keys()].some((h) => h.startsWith('x-ratelimit'))).toBe(false);
    expect(limited[0].headers.get('x-credits-charged')).toBe('0');
    // another key is not affected
    const other = await svc.key({ rateLimit: 20 });
    expect((await svc.call('/v1/billing', { key: other.key })).status).toBe(200);
    // usage reports them as rate_limited, from the key's own history
    const usage = (await (await svc.call('/v1/usage?period=24h', { key: other.key })).json()) as any;
    expect(usage.totals.requests).toBe(1);
    const [{ rl }] = await svc.deps.sql`SELECT count(*)::int AS rl FROM request_history WHERE key_id = ${k.id} AND rate_limited`;
    expect(rl).toBe(7);
  });

  it('/v1/usage aggregates equal what the history holds, isolated to the key', async () => {
    const k = await svc.key();
    const calls = [
      svc.call('/v1/test/metered', { key: k.key, body: { items: 2 } }),
      svc.call('/v1/test/metered', { key: k.key, body: { items: 3 } }),
      svc.call('/v1/test/metered', { key: k.key, body: { fail: true } }),
      svc.call('/v1/markets', { key: k.key }),
      svc.call('/v1/test/metered', { key: k.key, body: { bogus: 1 } }),
    ];
    await Promise.all(calls);
    const res = await svc.call('/v1/usage?period=7d', { key: k.key });
    const u = (await res.json()) as any;
    // the usage call itself is recorded after it answered
    const rows = await svc.deps.sql`SELECT * FROM request_history WHERE key_id = ${k.id} AND path <> '/v1/usage'`;
    expect(u.key).toMatchObject({ name: k.name, prefix: k.prefix, rate_limit_per_min: k.rate_limit_per_min, role: 'user' });
    expect(u.period.name).toBe('7d');
    expect(u.totals.requests).toBe(rows.length);
    expect(u.totals.successful).toBe(rows.filter((r) => r.status < 400).length);
    expect(u.totals.errors).toBe(rows.filter((r) => r.status >= 400).length);
    expect(u.totals.response_bytes).toBe(rows.reduce((a, r) => a + r.response_bytes, 0));
    const sorted = rows.map((r) => r.duration_ms).sort((a, b) => a - b);
    expect(u.totals.avg_duration_ms).toBeCloseTo(sorted.reduce((a, b) => a + b, 0) / sorted.length, 0);
    expect(u.by_status).toEqual([
      { status: 200, requests: 3 },
      { status: 422, requests: 1 },
      { status: 502, requests: 1 },
    ]);
    expect(u.by_endpoint[0]).toMatchObject({ method: 'POST', path: '/v1/test/metered', requests: 4, errors: 2 });
    expect(u.by_day).toHaveLength(1);
    expect(u.by_day[0]).toMatchObject({ requests: 5, errors: 2 });
    const bad = await svc.call('/v1/usage?period=1y', { key: k.key });
    expect(bad.status).toBe(422);
  });

  it("key A reading key B's request record is a 404", async () => {
    const a = await svc.key();
    const b = await svc.key();
    const res = await svc.call('/v1/markets', { key: b.key });
    const id = res.headers.get('x-request-id')!;
    expect((await svc.call(`/v1/requests/${id}`, { key: b.key })).status).toBe(200);
    const other = await svc.call(`/v1/requests/${id}`, { key: a.key });
    expect(other.status).toBe(404);
    expect((await other.json()) as any).toEqual({ detail: 'request not found' });
  });

  it('the ledger pages newest first; a bad cursor is a 400', async () => {
    const k = await svc.key();
    for (let i = 0; i < 3; i++) await svc.call('/v1/test/metered', { key: k.key, body: { items: 1 } });
    const first = (await (await svc.call('/v1/billing/ledger?limit=2', { key: k.key })).json()) as any;
    expect(first.entries.map((e: { kind: string }) => e.kind)).toEqual(['charge', 'charge']);
    expect(first.entries.map((e: { id: string }) => e.id)).toEqual([expect.stringMatching(/^led_[0-9a-f]{32}$/), expect.stringMatching(/^led_[0-9a-f]{32}$/)]);
    expect(first.entries[0].amount).toBe(-4);
    const second = (await (await svc.call(`/v1/billing/ledger?limit=2&cursor=${first.next_cursor}`, { key: k.key })).json()) as any;
    expect(second.entries.map((e: { kind: string }) => e.kind)).toEqual(['charge', 'grant']);
    expect(second.entries[1].amount).toBe(1000);
    expect(second.next_cursor).toBeNull();
    const bad = await svc.call('/v1/billing/ledger?cursor=garbage', { key: k.key });
    expect(bad.status).toBe(400);
    expect((await bad.json()) as any).toEqual({ detail: 'invalid cursor' });
    // another account's cursor names none of this account's entries
    const other = await svc.key();
    const foreign = await svc.call(`/v1/billing/ledger?limit=2&cursor=${first.next_cursor}`, { key: other.key });
    expect(foreign.status).toBe(400);
  });

  it('two accounts charged in turn: their ledger ids and cursors reveal nothing of each other or of any sequence', async () => {
    const [a, b] = [await svc.key(), await svc.key()];
    for (let i = 0; i < 4; i++) for (const k of [a, b]) await svc.call('/v1/test/metered', { key: k.key, body: { items: 1 } });
    type Entry = { id: string; kind: string; created_at: string };
    const read = async (k: { key: string }) => ((await (await svc.call('/v1/billing/ledger?limit=50', { key: k.key })).json()) as { entries: Entry[] }).entries;
    const [la, lb] = [await read(a), await read(b)];
    expect(la.filter((e) => e.kind === 'charge')).toHaveLength(4);
    expect(lb.filter((e) => e.kind === 'charge')).toHaveLength(4);
    for (const e of [...la, ...lb]) expect(e.id).toMatch(/^led_[0-9a-f]{32}$/);
    // newest first by time (the internal order), whatever the random ids would sort to
    for (const l of [la, lb]) {
      const times = l.map((e) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(l.at(-1)!.kind).toBe('grant');
    }
    // random and unique; the page cursor names an entry by that id, not by the internal sequence
    const ids = [...la, ...lb].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const page = ((await (await svc.call('/v1/billing/ledger?limit=1', { key: a.key })).json()) as { next_cursor: string }).next_cursor;
    const decoded = Buffer.from(page, 'base64url').toString('utf8');
    expect(decoded).toBe(`ledger:${la[0].id}`);
  });

  it('20 parallel submissions with one Idempotency-Key produce one effect; another body is a 409', async () => {
    const k = await svc.key();
    await svc.deps.sql`CREATE TABLE IF NOT EXISTS idem_effects (id text PRIMARY KEY)`;
    const submit = (body: unknown) =>
      once(svc.deps.sql, { keyId: k.id, accountId: k.account_id, scope: 'test', idempotencyKey: 'abc', body }, async (tx) => {
        const id = newId('effect');
        await tx`INSERT INTO idem_effects (id) VALUES (${id})`;
        return id;
      });
    const results = await Promise.all(Array.from({ length: 20 }, () => submit({ a: 1, b: [1, 2] })));
    expect(new Set(results.map((r) => r.resourceId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM idem_effects`;
    expect(n).toBe(1);
    expect((await submit({ b: [1, 2], a: 1 })).resourceId).toBe(results[0].resourceId);
    await expect(submit({ a: 2 })).rejects.toMatchObject({ status: 409 });
  });
});

describe('enforce mode', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ CREDITS_MODE: 'enforce' }, { tools });
  });
  afterAll(() => svc?.close());

  it('reports its mode in the plan catalogue', async () => {
    const k = await svc.key();
    expect(((await (await svc.call('/v1/billing/plans', { key: k.key })).json()) as any).mode).toBe('enforce');
  });

  it('50 parallel calls on a balance that covers 10: exactly 10 succeed, the rest 402, never negative', async () => {
    const k = await svc.key({ plan: 'scale' });
    await svc.deps.credits.adjust(k.account_id!, 'scale', -(1_000_000 - 50), 'test: leave 50');
    const answers = await Promise.all(Array.from({ length: 50 }, () => svc.call('/v1/test/metered', { key: k.key, body: { items: 2, delay_ms: 30 } })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    const refused = (await answers.find((a) => a.status === 402)!.json()) as any;
    expect(refused.detail).toMatch(/^insufficient credits: this request costs 5, \d+ available\. Credits renew \d{4}-\d{2}-01\.$/);
    const b = (await (await svc.call('/v1/billing', { key: k.key })).json()) as any;
    expect(b.credits).toMatchObject({ remaining: 0, reserved: 0 });
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM credit_reservations`;
    expect(n).toBe(0);
  });

  it('a reservation is released on failure and settles to the actual cost', async () => {
    const k = await svc.key({ plan: 'scale' });
    await svc.deps.credits.adjust(k.account_id!, 'scale', -(1_000_000 - 8), 'test: leave 8');
    expect((await svc.call('/v1/test/metered', { key: k.key, body: { items: 5, fail: true } })).status).toBe(502);
    // max is 8: admitted; actual 0 for an empty result
    const empty = await svc.call('/v1/test/metered', { key: k.key, body: { items: 0 } });
    expect(empty.headers.get('x-credits-charged')).toBe('0');
    expect(empty.headers.get('x-credits-remaining')).toBe('8');
    const full = await svc.call('/v1/test/metered', { key: k.key, body: { items: 5 } });
    expect(full.status).toBe(200);
    expect(full.headers.get('x-credits-remaining')).toBe('0');
  });

  it('plan concurrency: metered calls beyond it get 429; free operations are never counted', async () => {
    const k = await svc.key({ plan: 'free' });
    // the three calls past the limit are refused at once; when they have answered, the other two hold the plan's slots
    let answered = 0;
    let refusalsIn!: () => void;
    const refused = new Promise<void>((resolve) => (refusalsIn = resolve));
    const metered = Array.from({ length: 5 }, () =>
      svc.call('/v1/test/metered', { key: k.key, body: { items: 1, delay_ms: 400 } }).then((res) => {
        if (++answered === 3) refusalsIn();
        return res;
      }),
    );
    await refused;
    const free = await Promise.all(Array.from({ length: 4 }, () => svc.call('/v1/billing', { key: k.key })));
    expect(free.map((f) => f.status)).toEqual([200, 200, 200, 200]);
    const answers = await Promise.all(metered);
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(limited).toHaveLength(3);
    expect((await limited[0].json()) as any).toEqual({ detail: 'concurrency limit 2 reached for the free plan' });
  });
});
