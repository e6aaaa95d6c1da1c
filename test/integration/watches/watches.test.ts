import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { newWebhookSecret, startHookReceiver, startWatchService } from '../../helpers/watch-scene.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * Watches on the real database, the real pg-boss queue and the replayed calendar RPC: creation
 * (its first check runs at once), a check asked for, the rule firing, the signed watch.triggered
 * event verified with the `standardwebhooks` library, what the account stores, and that another
 * account sees none of it.
 */
const SECRET = newWebhookSecret();

let svc: TestService;
let replay: ReplayServer;
let key: string;
let accountId: string;
/** Night prices the replayed upstream answers: a base per night, lowered by `discount` on the 5th and 6th. */
let discount = 0;

beforeAll(async () => {
  replay = await startReplayServer([
    calendarRoute((date) => {
      const day = Number(date.slice(8));
      return 120 + day - (day === 5 || day === 6 ? discount : 0);
    }),
  ]);
  svc = await startWatchService(replay, SECRET);
  const created = await svc.key({ plan: 'starter' });
  key = created.key;
  accountId = created.account_id;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any, headers: res.headers });
const calendarTarget = { operation: 'calendar', property_token: 'watch-hotel-0001', start: '2027-05-01', days: 7, probe_min_stay: false };

async function checks(id: string, k = key, n = 1) {
  return waitFor(
    async () => {
      const w = (await json(await svc.call(`/v1/watches/${id}?checks=20`, { key: k }))).body;
      return w.checks_total >= n ? w : null;
    },
    { what: `${n} checks of ${id}` },
  );
}

describe('a watch of a calendar', () => {
  let watchId: string;

  it('is created (201) with its next check and the cost of one; its first check runs at once and fires nothing above the price', async () => {
    const hook = await startHookReceiver();
    try {
      const res = await json(
        await svc.call('/v1/watches', {
          key,
          body: { target: calendarTarget, rule: { type: 'below', price: 120 }, every_hours: 12, callback_url: hook.url, name: 'May nights' },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'May nights',
        status: 'active',
        paused_reason: null,
        every_hours: 12,
        credits_per_check: 5,
        target: calendarTarget,
        rule: { type: 'below', price: 120 },
        checks_total: 0,
      });
      expect(Date.parse(res.body.next_check_at)).toBeLessThanOrEqual(Date.now());
      watchId = res.body.id;
      expect(watchId).toMatch(/^watch_/);

      // the replayed rate blocks are the recorded Paris page's: the upstream states EUR, and the check says so
      const w = await checks(watchId);
      expect(w.checks).toHaveLength(1);
      const [first] = w.checks;
      expect(first).toMatchObject({
        trigger: 'schedule',
        period: 0,
        credits: 5,
        currency: 'EUR',
        fired: false,
        changed: 0,
        cheapest: { key: '2027-05-01', total: 121, currency: 'EUR' },
      });
      expect(first.cheapest.provenance.observation_id).toMatch(/^rateobs_/);
      expect(first.stored).toMatchObject({ rows_written: 7, rows_changed: 0, rows_removed: 0 });
      expect(w).toMatchObject({ last_price: { total: 121 }, credits_spent: 5, events_total: 0, periods_missed: 0 });
      // one period later, not before
      expect(Date.parse(w.next_check_at) - Date.parse(first.checked_at)).toBeGreaterThan(11.9 * 3600_000);
      // the check is an account record like a call: history row, ledger charge, stored rates
      const request = await json(await svc.call(`/v1/requests/${first.request_id}`, { key }));
      // made by the schedule, not by the customer: its method says so (defect 9)
      expect(request.body).toMatchObject({ method: 'SCHEDULE', path: '/v1/watches/{watch_id}/check', status: 200, credits: 5 });
      const [charge] = await svc.deps.sql`SELECT amount, note FROM credit_ledger WHERE request_id = ${first.request_id}`;
      expect(charge.amount).toBe(-5);
      const rates = await json(await svc.call('/v1/rates?property_token=watch-hotel-0001&from=2027-05-01&to=2027-05-07', { key }));
      expect(rates.body.rates.map((r: any) => r.rate_total)).toEqual([121, 122, 123, 124, 125, 126, 127]);
      expect(hook.received).toHaveLength(0);
    } finally {
      await hook.close();
    }
  });

  it('a check asked for fires the rule when nights go below the price: signed event verified with standardwebhooks, listed at /events', async () => {
    const hook = await startHookReceiver();
    try {
      expect((await json(await svc.call(`/v1/watches/${watchId}`, { key, method: 'PATCH', body: { callback_url: hook.url } }))).status).toBe(200);
      discount = 20;
      const res = await json(await svc.call(`/v1/watches/${watchId}/check`, { key, method: 'POST' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-credits-charged')).toBe('5');
      expect(res.headers.get('x-credits-remaining')).toBe(String(50_000 - 10));
      const requestId = res.headers.get('x-request-id');
      expect(res.body.check).toMatchObject({
        id: requestId,
        trigger: 'request',
        period: null,
        fired: true,
        credits: 5,
        changed: 2,
        cheapest: { key: '2027-05-05', total: 105 },
      });
      expect(res.body.check.changes.map((c: any) => [c.key, c.before.total, c.after.total, c.delta])).toEqual([
        ['2027-05-05', 125, 105, -20],
        ['2027-05-06', 126, 106, -20],
      ]);
      expect(res.body.check.stored).toMatchObject({ rows_written: 0, rows_changed: 2, rows_removed: 0 });
      expect(res.body.event).toMatchObject({ type: 'watch.triggered', check_id: requestId, request_id: requestId, callback_status: 'pending' });

      const delivered = await waitFor(async () => (hook.received.length ? hook.received : null), { what: 'the watch.triggered delivery' });
      const event = new Webhook(SECRET).verify(delivered[0].body, delivered[0].headers as Record<string, string>) as any;
      expect(delivered[0].headers['webhook-id']).toBe(res.body.event.id);
      expect(event).toMatchObject({ id: res.body.event.id, type: 'watch.triggered' });
      expect(event.data).toMatchObject({
        request_id: requestId,
        watch: { id: watchId, name: 'May nights', rule: { type: 'below', price: 120 } },
        check: { id: requestId, credits: 5 },
        reason: '2 nights now below 120 EUR',
        before: { cheapest: { key: '2027-05-01', total: 121 } },
        after: { check_id: requestId, cheapest: { key: '2027-05-05', total: 105 } },
        changes_total: 2,
      });
      expect(event.data.changes[0]).toMatchObject({ key: '2027-05-05', before: { total: 125 }, after: { total: 105, currency: 'EUR' } });
      expect(event.data.changes[0].after.provenance.observation_id).toMatch(/^rateobs_/);
      expect(() => new Webhook(newWebhookSecret()).verify(delivered[0].body, delivered[0].headers as Record<string, string>)).toThrow();

      await waitFor(async () => (await json(await svc.call(`/v1/watches/${watchId}/events`, { key }))).body.events[0]?.callback_status === 'delivered', {
        what: 'delivered state',
      });
      const events = (await json(await svc.call(`/v1/watches/${watchId}/events`, { key }))).body;
      expect(events.events).toHaveLength(1);
      expect(events.events[0]).toMatchObject({
        id: event.id,
        callback_status: 'delivered',
        callback_attempts: 1,
        data: { request_id: requestId, reason: event.data.reason },
      });
      // the same state again fires nothing (the nights were already below)
      const again = await json(await svc.call(`/v1/watches/${watchId}/check`, { key, method: 'POST' }));
      expect(again.body.check).toMatchObject({ fired: false, changed: 0 });
      expect(again.body.event).toBeNull();
    } finally {
      await hook.close();
    }
  });

  it('another account sees none of it: 404 on every route, an empty list, its own rates only', async () => {
    const other = await svc.key({ plan: 'starter' });
    for (const [method, path, body] of [
      ['GET', `/v1/watches/${watchId}`],
      ['PATCH', `/v1/watches/${watchId}`, { status: 'paused' }],
      ['POST', `/v1/watches/${watchId}/check`],
      ['GET', `/v1/watches/${watchId}/events`],
      ['DELETE', `/v1/watches/${watchId}`],
    ] as [string, string, unknown?][]) {
      const res = await json(await svc.call(path, { key: other.key, method, body }));
      expect([method, path, res.status, res.body.detail]).toEqual([method, path, 404, 'watch not found']);
    }
    expect((await json(await svc.call('/v1/watches', { key: other.key }))).body.watches).toEqual([]);
    expect((await json(await svc.call('/v1/rates?property_token=watch-hotel-0001', { key: other.key }))).body.total).toBe(0);
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = ${other.account_id} AND kind = 'charge'`;
    expect(n).toBe(0);
    // and the owner's watch is untouched
    expect((await json(await svc.call(`/v1/watches/${watchId}`, { key }))).body.status).toBe('active');
  });

  it('PATCH changes the rule and the schedule, pauses and resumes; DELETE removes it', async () => {
    const before = (await json(await svc.call(`/v1/watches/${watchId}`, { key }))).body;
    const patched = await json(
      await svc.call(`/v1/watches/${watchId}`, { key, method: 'PATCH', body: { rule: { type: 'drop_pct', pct: 10 }, every_hours: 48 } }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ rule: { type: 'drop_pct', pct: 10 }, every_hours: 48 });
    expect(Date.parse(patched.body.next_check_at)).toBeCloseTo(Date.parse(before.last_check_at) + 48 * 3600_000, -3);
    const paused = await json(await svc.call(`/v1/watches/${watchId}`, { key, method: 'PATCH', body: { status: 'paused' } }));
    expect(paused.body).toMatchObject({ status: 'paused', paused_reason: 'paused_by_user', next_check_at: null });
    const resumed = await json(await svc.call(`/v1/watches/${watchId}`, { key, method: 'PATCH', body: { status: 'active' } }));
    expect(resumed.body).toMatchObject({ status: 'active', paused_reason: null, next_check_at: patched.body.next_check_at });
    // drop_pct against the previous check: prices back up is no drop; down 20 % is
    discount = 0;
    expect((await json(await svc.call(`/v1/watches/${watchId}/check`, { key, method: 'POST' }))).body.check).toMatchObject({ fired: false, changed: 2 });
    discount = 30;
    const dropped = (await json(await svc.call(`/v1/watches/${watchId}/check`, { key, method: 'POST' }))).body;
    expect(dropped.check.fired).toBe(true);
    expect(dropped.event.data.reason).toBe('2 nights down 10% or more since the previous check');

    expect((await json(await svc.call(`/v1/watches/${watchId}`, { key, method: 'DELETE' }))).body).toEqual({ id: watchId, deleted: true });
    expect((await svc.call(`/v1/watches/${watchId}`, { key })).status).toBe(404);
    // what the checks stored stays the account's
    expect((await json(await svc.call('/v1/rates?property_token=watch-hotel-0001', { key }))).body.total).toBe(7);
  });
});

describe('creating watches', () => {
  it('refuses what a watch cannot do: zero_retention, an invalid target field, a rule the target cannot use, every_hours out of range', async () => {
    const post = (body: unknown) => svc.call('/v1/watches', { key, body }).then(json);
    const zr = await post({ target: { ...calendarTarget, zero_retention: true }, rule: { type: 'any_change' } });
    expect(zr.status).toBe(422);
    expect(zr.body.detail[0]).toMatchObject({ loc: ['body', 'target', 'zero_retention'], type: 'value_error' });
    const days = await post({ target: { ...calendarTarget, days: 400 }, rule: { type: 'any_change' } });
    expect(days.status).toBe(422);
    expect(days.body.detail[0]).toMatchObject({ loc: ['body', 'target', 'days'], type: 'less_than_equal' });
    const undercut = await post({ target: calendarTarget, rule: { type: 'undercut' } });
    expect(undercut.status).toBe(422);
    expect(undercut.body.detail[0]).toMatchObject({ loc: ['body', 'rule', 'type'], msg: 'rule undercut needs a compare or parity_range target' });
    for (const every_hours of [0, 169]) expect((await post({ target: calendarTarget, rule: { type: 'any_change' }, every_hours })).status).toBe(422);
    expect((await post({ target: { operation: 'flights' }, rule: { type: 'any_change' } })).status).toBe(422);
    expect((await post({ target: calendarTarget, rule: { type: 'below' } })).status).toBe(422);
    // defect 10: a stay in the past is refused (nothing charged), so is an end date that has come
    const past = await post({ target: { ...calendarTarget, start: '2020-05-01' }, rule: { type: 'any_change' } });
    expect(past.status).toBe(422);
    // the target's own operation refuses it first, as it would refuse the call itself
    expect(past.body.detail[0]).toMatchObject({ loc: ['body', 'target', 'start'], type: 'date_future' });
    expect(past.body.detail[0].msg).toMatch(
      /^Date should be today or later \(\d{4}-\d{2}-\d{2} in UTC-12, the last time zone on that day\); 2020-05-01 is in the past$/,
    );
    const ended = await post({ target: calendarTarget, rule: { type: 'any_change' }, ends_at: '2020-01-01T00:00:00Z' });
    expect(ended.status).toBe(422);
    expect(ended.body.detail[0]).toMatchObject({ loc: ['body', 'ends_at'], msg: 'ends_at must be in the future' });
    const noSecret = await startTestService({}, {});
    try {
      const k = (await noSecret.key()).key;
      const res = await noSecret.call('/v1/watches', {
        key: k,
        body: { target: calendarTarget, rule: { type: 'any_change' }, callback_url: 'https://example.com/hook' },
      });
      expect(res.status).toBe(503);
    } finally {
      await noSecret.close();
    }
  });

  it('honours Idempotency-Key: the same body returns the same watch, another body is a 409', async () => {
    const body = { target: { ...calendarTarget, property_token: 'watch-hotel-idem' }, rule: { type: 'any_change' } };
    const first = await json(await svc.call('/v1/watches', { key, body, headers: { 'idempotency-key': 'w-1' } }));
    const again = await json(await svc.call('/v1/watches', { key, body, headers: { 'idempotency-key': 'w-1' } }));
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const other = await svc.call('/v1/watches', { key, body: { ...body, every_hours: 6 }, headers: { 'idempotency-key': 'w-1' } });
    expect(other.status).toBe(409);
    const [{ n }] = await svc.deps
      .sql`SELECT count(*)::int AS n FROM watches WHERE account_id = ${accountId} AND target->>'property_token' = 'watch-hotel-idem'`;
    expect(n).toBe(1);
  });

  it('plans limit the active watches (3 on free): the 4th is a 403, a paused one frees a place, resuming past the limit is a 403', async () => {
    const free = await svc.key({ plan: 'free' });
    const post = (i: number) =>
      svc
        .call('/v1/watches', {
          key: free.key,
          body: { target: { ...calendarTarget, property_token: `watch-free-${i}` }, rule: { type: 'any_change' }, every_hours: 168 },
        })
        .then(json);
    const made = [await post(1), await post(2), await post(3)];
    expect(made.map((m) => m.status)).toEqual([201, 201, 201]);
    const fourth = await post(4);
    expect(fourth.status).toBe(403);
    expect(fourth.body.detail).toBe('active watch limit 3 reached for the free plan: pause or delete a watch, or change plan');
    expect((await svc.call(`/v1/watches/${made[0].body.id}`, { key: free.key, method: 'PATCH', body: { status: 'paused' } })).status).toBe(200);
    expect((await post(4)).status).toBe(201);
    const resume = await json(await svc.call(`/v1/watches/${made[0].body.id}`, { key: free.key, method: 'PATCH', body: { status: 'active' } }));
    expect(resume.status).toBe(403);
    const plans = (await json(await svc.call('/v1/billing/plans', { key }))).body;
    expect(plans.plans.map((p: any) => [p.code, p.active_watches])).toEqual([
      ['free', 3],
      ['starter', 50],
      ['growth', 500],
      ['scale', 2500],
      ['enterprise', 10000],
    ]);
    expect(plans.costs).toContainEqual(expect.objectContaining({ method: 'POST', path: '/v1/watches/{watch_id}/check' }));
    expect(plans.free).toContain('POST /v1/watches');
  });
});
