import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * Credits enforced: a watch whose account cannot pay its next check is paused with the reason
 * insufficient_credits (nothing charged, nothing run), and resumes by itself once the account can
 * pay. Watch hours are 2 s here (WATCH_HOUR_S), the sweep runs every second.
 */
let svc: TestService;
let replay: ReplayServer;

beforeAll(async () => {
  const pricer = (date: string) => 100 + Number(date.slice(8));
  replay = await startReplayServer([
    // the flaky hotel's first two calendar requests fail upstream (HTTP 500), then it answers
    {
      ...calendarRoute(pricer),
      match: (req) => req.body.includes('flaky-hotel-01'),
      failFirst: [
        { status: 500, body: 'down' },
        { status: 500, body: 'down' },
      ],
    },
    calendarRoute(pricer),
  ]);
  svc = await startTestService({
    UPSTREAM_METASEARCH_URL: replay.url,
    UPSTREAM_RETRIES: '0',
    CREDITS_MODE: 'enforce',
    WATCH_HOUR_S: '2',
    WATCH_SWEEP_S: '1',
    QUEUE_MAINTENANCE_S: '1',
  });
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const watch = async (key: string, id: string) => (await (await svc.call(`/v1/watches/${id}?checks=50`, { key })).json()) as any;

describe('watches end (defect 10)', () => {
  it('a watch with an end date ends there: status ended, no more checks or charges', async () => {
    const { key } = await svc.key({ plan: 'starter' });
    // a period is 2 s here: the first check runs at once, the watch ends within a few periods
    const endsAt = new Date(Date.now() + 6000).toISOString();
    const res = await svc.call('/v1/watches', {
      key,
      body: {
        target: { operation: 'calendar', property_token: 'ending-hotel-01', start: '2027-05-01', days: 2, probe_min_stay: false },
        rule: { type: 'any_change' },
        every_hours: 1,
        ends_at: endsAt,
      },
    });
    const created = (await res.json()) as any;
    expect([res.status, created.detail]).toEqual([201, undefined]);
    expect(created).toMatchObject({ ends_at: endsAt, ended_reason: null });
    const ended = await waitFor(
      async () => {
        const w = await watch(key, created.id);
        return w.status === 'ended' ? w : null;
      },
      { what: 'the watch to end' },
    );
    expect(ended).toMatchObject({ ended_reason: 'end_date', paused_reason: null, next_check_at: null });
    expect(ended.checks_total).toBeGreaterThanOrEqual(1);
    expect(ended.credits_spent).toBe(5 * ended.checks_total);
    // no slot due after the end is checked (slots are one 2 s period apart from the creation; a check
    // due before the end may commit after it on a loaded machine)
    for (const c of ended.checks) expect(Date.parse(ended.created_at) + c.period * 2000).toBeLessThan(Date.parse(endsAt));
    const resume = await svc.call(`/v1/watches/${created.id}`, { key, method: 'PATCH', body: { status: 'active' } });
    expect(resume.status).toBe(409);
  });
});

describe('watches under enforced credits', () => {
  it('pauses with insufficient_credits when a check cannot be paid, resumes by itself once it can', async () => {
    const { key, account_id } = await svc.key({ plan: 'free' });
    // 7 credits left: one 5-credit check, then not another
    await svc.deps.credits.adjust(account_id, 'free', 7 - 1000, 'test: leave 7 credits');
    const res = await svc.call('/v1/watches', {
      key,
      body: {
        target: { operation: 'calendar', property_token: 'unpaid-hotel-01', start: '2027-05-01', days: 3, probe_min_stay: false },
        rule: { type: 'any_change' },
        every_hours: 1,
      },
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as any;

    const paused = await waitFor(
      async () => {
        const w = await watch(key, id);
        return w.status === 'paused' ? w : null;
      },
      { what: 'the watch to pause' },
    );
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'insufficient_credits', next_check_at: null, checks_total: 1, credits_spent: 5 });
    expect(paused.last_error).toBe('insufficient credits: a check costs 5, 2 available');
    expect((await svc.deps.credits.balance(account_id, 'free')).remaining).toBe(2);
    // a check asked for is refused as any call would be: 402, nothing charged
    const asked = await svc.call(`/v1/watches/${id}/check`, { key, method: 'POST' });
    expect(asked.status).toBe(402);
    expect(((await asked.json()) as any).detail).toMatch(/^insufficient credits: this request costs 5, 2 available\./);

    await svc.deps.credits.adjust(account_id, 'free', 10, 'test: top-up');
    const resumed = await waitFor(
      async () => {
        const w = await watch(key, id);
        return w.checks_total >= 2 ? w : null;
      },
      { what: 'the watch to resume and check' },
    );
    expect(resumed.checks[0]).toMatchObject({ trigger: 'schedule', credits: 5 });
    // the pause and the resumption are told (issue 42's health events): watch.paused, then watch.resumed
    const told = ((await (await svc.call(`/v1/watches/${id}/events`, { key })).json()) as any).events.reverse();
    expect(told.slice(0, 2).map((e: any) => [e.type, e.data.reason, e.check_id])).toEqual([
      ['watch.paused', 'insufficient_credits', null],
      ['watch.resumed', 'credits_available', null],
    ]);
    expect(told[0].data.detail).toBe('insufficient credits: a check costs 5, 2 available');
    // 12 credits: two more checks, then paused again
    const again = await waitFor(
      async () => {
        const w = await watch(key, id);
        return w.status === 'paused' && w.checks_total === 3 ? w : null;
      },
      { what: 'the second pause' },
    );
    expect(again.paused_reason).toBe('insufficient_credits');
    const charges = await svc.deps.sql`SELECT request_id, amount FROM credit_ledger WHERE account_id = ${account_id} AND kind = 'charge' ORDER BY id`;
    expect(charges.map((c) => c.amount)).toEqual([-5, -5, -5]);
    expect(charges.map((c) => c.request_id).sort()).toEqual(again.checks.map((c: any) => c.id).sort());
    expect((await svc.deps.credits.balance(account_id, 'free')).remaining).toBe(2);
  });

  it('a check that fails upstream is retried later in its period and charged nothing', async () => {
    const { key, account_id } = await svc.key({ plan: 'starter' });
    {
      const res = await svc.call('/v1/watches', {
        key,
        body: {
          target: { operation: 'calendar', property_token: 'flaky-hotel-01', start: '2027-05-01', days: 3, probe_min_stay: false },
          rule: { type: 'any_change' },
          every_hours: 24,
        },
      });
      const { id } = (await res.json()) as any;
      const failing = await waitFor(
        async () => {
          const w = await watch(key, id);
          return w.last_error ? w : null;
        },
        { what: 'a failed attempt' },
      );
      expect(failing).toMatchObject({ checks_total: 0, credits_spent: 0, status: 'active' });
      expect(failing.last_error).toMatch(/^req_\w+: /);
      const [failedCall] = await svc.deps.sql`SELECT status, credits FROM request_history WHERE id = ${failing.last_error.split(':')[0]}`;
      expect(failedCall).toEqual({ status: 502, credits: 0 });
      const ok = await waitFor(
        async () => {
          const w = await watch(key, id);
          return w.checks_total === 1 ? w : null;
        },
        { timeoutMs: 60_000, what: 'the retried check' },
      );
      expect(ok).toMatchObject({ last_error: null, periods_missed: 0, credits_spent: 5 });
      expect(ok.checks[0]).toMatchObject({ period: 0, trigger: 'schedule' });
      const charges = await svc.deps.sql`SELECT amount FROM credit_ledger WHERE account_id = ${account_id} AND kind = 'charge'`;
      expect(charges.map((c) => c.amount)).toEqual([-5]);
      // defect 9: the schedule's check and its failed attempts are not the customer's calls or errors; usage says so apart, with credits
      const usage = (await (await svc.call('/v1/usage?period=24h', { key })).json()) as any;
      expect(usage.scheduled).toEqual({ checks: 1, failed_attempts: 2, credits: 5 });
      expect(usage.totals).toMatchObject({ errors: 0, credits: 0 });
      expect(usage.by_endpoint.map((e: any) => e.path)).not.toContain('/v1/watches/{watch_id}/check');
      expect(usage.by_status.map((s: any) => s.status)).not.toContain(502);
      const asked = await svc.call(`/v1/watches/${id}/check`, { key, method: 'POST' });
      expect(asked.status).toBe(200);
      const after = (await (await svc.call('/v1/usage?period=24h', { key })).json()) as any;
      expect(after.by_endpoint).toContainEqual(
        expect.objectContaining({ method: 'POST', path: '/v1/watches/{watch_id}/check', requests: 1, errors: 0, credits: 5 }),
      );
      expect(after.totals.credits).toBe(5);
      expect(after.by_day.reduce((n: number, d: any) => n + d.credits, 0)).toBe(5);
      expect(after.scheduled).toEqual({ checks: 1, failed_attempts: 2, credits: 5 });
    }
  });
});
