import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import type { TestService } from '../../helpers/test-service.js';
import { newWebhookSecret, startHookReceiver, startWatchService, type HookReceiver } from '../../helpers/watch-scene.js';
import { TOOLS } from '../../../tools/index.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * Redelivery of a watch event (issue 42, defect 8): an event whose every attempt failed is sent
 * again once the receiver is fixed, with the same webhook-id and a valid Standard Webhooks
 * signature (verified with the `standardwebhooks` library); a delivered one can be sent again too;
 * one under way, one of another account, one of a watch without callback_url are refused.
 */
const SECRET = newWebhookSecret();

let svc: TestService;
let replay: ReplayServer;
let key: string;
let discount = 0;
/** What the receiver answers. */
let answer = 500;
let hook: HookReceiver;
let hookUrl: string;
let received: HookReceiver['received'];

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((date) => 120 + Number(date.slice(8)) - discount)]);
  svc = await startWatchService(replay, SECRET);
  key = (await svc.key({ plan: 'starter' })).key;
  hook = await startHookReceiver(() => answer);
  ({ url: hookUrl, received } = hook);
});
afterAll(async () => {
  await hook?.close();
  await svc?.close();
  await replay?.close();
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const target = { operation: 'calendar', property_token: 'redeliver-hotel-01', start: '2027-06-01', days: 5, probe_min_stay: false };
const events = async (id: string, k = key) => (await json(await svc.call(`/v1/watches/${id}/events`, { key: k }))).body.events as any[];

describe('redelivery of a watch event', () => {
  let watchId: string;
  let eventId: string;

  it('an event whose every attempt failed is failed, with the last error', async () => {
    const created = await json(await svc.call('/v1/watches', { key, body: { target, rule: { type: 'any_change' }, callback_url: hookUrl } }));
    expect(created.status).toBe(201);
    watchId = created.body.id;
    await waitFor(async () => (await json(await svc.call(`/v1/watches/${watchId}`, { key }))).body.checks_total === 1, { what: 'the first check' });
    discount = 10;
    const fired = await json(await svc.call(`/v1/watches/${watchId}/check`, { key, method: 'POST' }));
    expect(fired.body.event).toMatchObject({ type: 'watch.triggered', callback_status: 'pending', redeliveries: 0, redelivered_at: null });
    eventId = fired.body.event.id;
    const [failed] = await waitFor(async () => ((await events(watchId))[0]?.callback_status === 'failed' ? events(watchId) : null), {
      what: 'the failed deliveries',
    });
    // the first attempt and the schedule's two retries
    expect(failed).toMatchObject({ id: eventId, callback_status: 'failed', callback_attempts: 3, callback_last_error: 'HTTP 500', redeliveries: 0 });
    expect(received).toHaveLength(3);
  });

  it('POST …/redeliver sends it again once the receiver is fixed: same webhook-id, verified signature, delivered', async () => {
    answer = 204;
    const res = await json(await svc.call(`/v1/watches/${watchId}/events/${eventId}/redeliver`, { key, method: 'POST' }));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: eventId, callback_status: 'pending', callback_attempts: 0, callback_last_error: null, redeliveries: 1 });
    expect(Date.parse(res.body.redelivered_at)).toBeGreaterThan(Date.now() - 60_000);
    assertOutputConforms(
      TOOLS.find((t) => t.name === 'redeliver_watch_event')!,
      res.body,
    );
    const [ev] = await waitFor(async () => ((await events(watchId))[0]?.callback_status === 'delivered' ? events(watchId) : null), {
      what: 'the redelivery',
    });
    expect(ev).toMatchObject({ id: eventId, callback_status: 'delivered', callback_attempts: 1, redeliveries: 1 });
    const last = received[received.length - 1];
    expect(received).toHaveLength(4);
    expect(last.headers['webhook-id']).toBe(eventId);
    const verified = new Webhook(SECRET).verify(last.body, last.headers as Record<string, string>) as any;
    expect(verified).toMatchObject({ id: eventId, type: 'watch.triggered', data: { watch: { id: watchId } } });
    // the body is the event as first stored: the same as the failed attempts carried
    expect(last.body).toBe(received[0].body);
  });

  it('a delivered event can be sent again; one under way is a 409', async () => {
    const first = await svc.call(`/v1/watches/${watchId}/events/${eventId}/redeliver`, { key, method: 'POST' });
    expect(first.status).toBe(202);
    // the first round may already have delivered: then this one starts a third round
    const second = await json(await svc.call(`/v1/watches/${watchId}/events/${eventId}/redeliver`, { key, method: 'POST' }));
    if (second.status === 409) expect(second.body.detail).toMatch(/under way/);
    else expect(second.status).toBe(202);
    const rounds = second.status === 409 ? 2 : 3;
    await waitFor(async () => ((await events(watchId))[0]?.callback_status === 'delivered' ? true : null), { what: 'delivered again' });
    expect((await events(watchId))[0]).toMatchObject({ redeliveries: rounds, callback_attempts: 1 });
    expect(received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(3 + rounds);
  });

  it('another account, an unknown event, a watch without callback_url: 404, 404, 409', async () => {
    const other = await svc.key({ plan: 'starter' });
    expect((await svc.call(`/v1/watches/${watchId}/events/${eventId}/redeliver`, { key: other.key, method: 'POST' })).status).toBe(404);
    expect((await svc.call(`/v1/watches/${watchId}/events/evt_nothing/redeliver`, { key, method: 'POST' })).status).toBe(404);
    expect((await svc.call(`/v1/watches/${watchId}`, { key, method: 'PATCH', body: { callback_url: null } })).status).toBe(200);
    const res = await json(await svc.call(`/v1/watches/${watchId}/events/${eventId}/redeliver`, { key, method: 'POST' }));
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/callback_url/);
  });

  it('is REST only: not among the MCP tools', () => {
    const tool = TOOLS.find((t) => t.name === 'redeliver_watch_event')!;
    expect(tool.mcp.expose).toBe(false);
  });
});
