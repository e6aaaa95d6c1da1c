import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import type { TestService } from '../../helpers/test-service.js';
import { newWebhookSecret, startHookReceiver, startWatchService, type HookReceiver } from '../../helpers/watch-scene.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { TOOLS } from '../../../tools/index.js';

/**
 * Watch health and the daily digest (issue 42): a watch whose upstream keeps failing misses
 * periods, is failing after WATCH_FAILING_AFTER of them in a row (watch.failing), and resumes at
 * its next successful check (watch.resumed); the account's daily digest (watch.digest) tells the
 * day. Every delivery is verified with the `standardwebhooks` library. Hours are 1 s here
 * (WATCH_HOUR_S), so a digest day is 24 s; the sweep runs every second.
 */
const SECRET = newWebhookSecret();

let svc: TestService;
let replay: ReplayServer;
let hook: HookReceiver;
let hookUrl: string;
/** The upstream answers 500 for the watched hotel while down. */
let down = true;
let received: HookReceiver['received'];

beforeAll(async () => {
  replay = await startReplayServer([
    {
      method: 'POST',
      path: '/_/TravelFrontendUi/data/batchexecute',
      match: (req) => down && req.body.includes('health-hotel-01'),
      respond: () => ({ status: 500, body: 'down' }),
    },
    calendarRoute((date) => 100 + Number(date.slice(8))),
  ]);
  hook = await startHookReceiver();
  ({ url: hookUrl, received } = hook);
  svc = await startWatchService(replay, SECRET, {
    WEBHOOK_RETRY_SCHEDULE_S: '0.1',
    WATCH_HOUR_S: '1',
    WATCH_SWEEP_S: '1',
    WATCH_FAILING_AFTER: '2',
    QUEUE_MAINTENANCE_S: '1',
  });
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
  await hook?.close();
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
/** The deliveries of one event type, each verified with the Standard Webhooks library. */
const delivered = (type: string) =>
  received.map((r) => ({ r, event: new Webhook(SECRET).verify(r.body, r.headers as Record<string, string>) as any })).filter((d) => d.event.type === type);

describe('watch health and the daily digest', () => {
  let key: string;
  let watchId: string;

  it('a watch whose checks keep failing is failing after 2 periods missed in a row: one watch.failing event', async () => {
    key = (await svc.key({ plan: 'starter' })).key;
    const res = await json(
      await svc.call('/v1/watches', {
        key,
        body: {
          target: { operation: 'calendar', property_token: 'health-hotel-01', start: '2027-07-01', days: 3, probe_min_stay: false },
          rule: { type: 'below', price: 1 },
          every_hours: 1,
          callback_url: hookUrl,
          name: 'Health',
        },
      }),
    );
    expect(res.status).toBe(201);
    watchId = res.body.id;
    const [failing] = await waitFor(async () => (delivered('watch.failing').length ? delivered('watch.failing') : null), {
      what: 'the watch.failing delivery',
    });
    expect(failing.r.headers['webhook-id']).toBe(failing.event.id);
    expect(failing.event.data).toMatchObject({
      reason: 'missed_periods',
      watch: { id: watchId, name: 'Health', status: 'active' },
      hotel: { property_token: 'health-hotel-01' },
    });
    // at least 2: an attempt that outlasts its period (a loaded machine) misses the periods it overran at once
    expect(failing.event.data.periods_missed_in_row).toBeGreaterThanOrEqual(2);
    expect(failing.event.data.detail).toMatch(new RegExp(`^${failing.event.data.periods_missed_in_row} schedule periods missed in a row`));
    expect(failing.event.data.request_id).toMatch(/^req_/);
    const w = (await json(await svc.call(`/v1/watches/${watchId}`, { key }))).body;
    expect(w.failing_since).not.toBeNull();
    expect(w.periods_missed).toBeGreaterThanOrEqual(2);
    // told once: more missed periods add no second watch.failing
    await waitFor(async () => (await json(await svc.call(`/v1/watches/${watchId}`, { key }))).body.periods_missed >= 4 || null, {
      what: 'more missed periods',
    });
    expect(delivered('watch.failing')).toHaveLength(1);
  });

  it('the next successful check ends it: watch.resumed with the check, failing_since null', async () => {
    down = false;
    const [resumed] = await waitFor(async () => (delivered('watch.resumed').length ? delivered('watch.resumed') : null), {
      what: 'the watch.resumed delivery',
    });
    expect(resumed.event.data).toMatchObject({ reason: 'checks_succeed', watch: { id: watchId, failing_since: null } });
    expect(resumed.event.data.periods_missed_in_row).toBeGreaterThanOrEqual(2);
    expect(resumed.event.data.check_id).toBe(resumed.event.data.request_id);
    const w = (await json(await svc.call(`/v1/watches/${watchId}?checks=5`, { key }))).body;
    expect(w.failing_since).toBeNull();
    expect(w.checks.map((c: any) => c.id)).toContain(resumed.event.data.check_id);
    const events = (await json(await svc.call(`/v1/watches/${watchId}/events`, { key }))).body.events.map((e: any) => e.type);
    expect(events).toEqual(expect.arrayContaining(['watch.failing', 'watch.resumed']));
    expect(delivered('watch.resumed')).toHaveLength(1);
  });

  it('the daily digest tells the day: checks, the cheapest first and last, the health events; one per account and URL', async () => {
    const resumed = delivered('watch.resumed')[0].event;
    // the digest of the day holding the resumption, made once that day is over (a day is 24 s
    // here), found by the event it lists
    const digest = await waitFor(
      async () => {
        const list = (await json(await svc.call('/v1/digests', { key }))).body.digests as any[];
        const tells = (d: any) => d.data.watches.some((w: any) => w.events.some((e: any) => e.id === resumed.id));
        return list.find((d) => d.callback_status === 'delivered' && tells(d)) ?? null;
      },
      { what: 'the digest of the resumption’s day', timeoutMs: 90_000 },
    );
    assertOutputConforms(
      TOOLS.find((t) => t.name === 'list_watch_digests')!,
      { digests: [digest] },
    );
    expect(digest).toMatchObject({ type: 'watch.digest', check_id: null, request_id: null, callback_attempts: 1 });
    const sent = delivered('watch.digest').find((d) => d.event.id === digest.id)!;
    expect(sent.r.headers['webhook-id']).toBe(digest.id);
    expect(sent.event.data).toEqual(digest.data);
    const day = digest.data;
    // the event is listed on the day its timestamp names (it is stored at that instant, not at its
    // transaction's start, which on a loaded machine fell in the day before)
    expect(Date.parse(day.period.from)).toBeLessThanOrEqual(Date.parse(resumed.timestamp));
    expect(Date.parse(resumed.timestamp)).toBeLessThan(Date.parse(day.period.to));
    expect(day.summary).toMatchObject({ watches: 1, active: 1, fired: 0, disparities: 0 });
    expect(day.summary.checks).toBeGreaterThanOrEqual(1);
    expect(day.watches_total).toBe(1);
    const [mine] = day.watches;
    expect(mine.watch).toMatchObject({ id: watchId, name: 'Health', operation: 'calendar', status: 'active' });
    expect(mine.events.map((e: any) => e.type)).toContain('watch.resumed');
    expect(mine.cheapest_last).toMatchObject({ key: '2027-07-01', total: 101, currency: 'EUR' });
    expect(mine.cheapest_last.provenance.observation_id).toMatch(/^rateobs_/);
    expect(mine.moved).toBe(0);
    // one digest per account, day and URL
    const all = (await json(await svc.call('/v1/digests?limit=200', { key }))).body.digests as any[];
    expect(all.filter((d) => d.data.period.from === day.period.from)).toHaveLength(1);
    // another account sees none of it
    const other = await svc.key({ plan: 'starter' });
    expect((await json(await svc.call('/v1/digests', { key: other.key }))).body.digests).toEqual([]);
    expect((await svc.call(`/v1/digests/${digest.id}/redeliver`, { key: other.key, method: 'POST' })).status).toBe(404);

    // and it can be delivered again, with the same webhook-id
    const before = received.length;
    const again = await json(await svc.call(`/v1/digests/${digest.id}/redeliver`, { key, method: 'POST' }));
    expect(again.status).toBe(202);
    assertOutputConforms(
      TOOLS.find((t) => t.name === 'redeliver_watch_digest')!,
      again.body,
    );
    expect(again.body).toMatchObject({ id: digest.id, callback_status: 'pending', redeliveries: 1 });
    await waitFor(async () => received.slice(before).some((r) => r.headers['webhook-id'] === digest.id) || null, { what: 'the digest again' });
  });
});
