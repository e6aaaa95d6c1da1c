import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * job.completed as Standard Webhooks: every delivery a real receiver gets is verified with the
 * reference library (`standardwebhooks`), retries follow the configured schedule (scaled down
 * here), and a 410 Gone ends them.
 */
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

let svc: TestService;
let key: string;
let replay: ReplayServer;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback answering each delivery with the next status of `statuses` (the last repeats). */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses[Math.min(received.length, statuses.length) - 1]).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((date, los) => (100 + Number(date.slice(8))) * los)]);
  svc = await startTestService({
    UPSTREAM_METASEARCH_URL: replay.url,
    UPSTREAM_RETRIES: '0',
    WEBHOOK_SIGNING_SECRET: SECRET,
    SAFE_FETCH_ALLOW_PRIVATE: 'true',
    // the spec's schedule scaled down: three retries a fraction of a second apart
    WEBHOOK_RETRY_SCHEDULE_S: '0.1,0.1,0.1',
  });
  key = (await svc.key({ plan: 'starter' })).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

let seq = 0;
async function submit(callbackUrl: string) {
  const res = await svc.call('/v1/jobs', {
    key,
    body: { items: [{ token: `hook-hotel-${++seq}`, days: 1, probe_min_stay: false }], callback_url: callbackUrl },
    headers: { 'idempotency-key': `hook-${seq}` },
  });
  expect(res.status).toBe(202);
  const job = (await res.json()) as { id: string; callback_status: string; callback_attempts: number };
  expect(job).toMatchObject({ callback_status: 'pending', callback_attempts: 0 });
  return job.id;
}

async function settled(jobId: string) {
  return waitFor(
    async () => {
      const job = (await (await svc.call(`/v1/jobs/${jobId}`, { key })).json()) as any;
      return job.callback_status === 'delivered' || job.callback_status === 'failed' ? job : null;
    },
    { timeoutMs: 60_000, what: `the webhook of ${jobId}` },
  );
}

describe('job.completed as Standard Webhooks', () => {
  it('every delivery verifies with the standardwebhooks library; a retry keeps the webhook-id and signs anew', async () => {
    const hook = await receiver([500, 204]);
    try {
      const jobId = await submit(hook.url);
      expect(await settled(jobId)).toMatchObject({ callback_status: 'delivered', callback_attempts: 2, callback_last_error: null });
      expect(hook.received).toHaveLength(2);
      const verifier = new Webhook(SECRET);
      const events = hook.received.map(({ headers, body }) => verifier.verify(body, headers as Record<string, string>) as any);
      for (const event of events) {
        expect(event).toMatchObject({ type: 'job.completed', data: { job: { id: jobId, status: 'succeeded' } } });
        expect(event.timestamp).toBe(event.data.job.finished_at);
      }
      const ids = hook.received.map((r) => r.headers['webhook-id']);
      expect(ids[0]).toBe(events[0].id);
      expect(ids[1]).toBe(ids[0]);
      expect(hook.received[0].headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(hook.received[0].headers['x-signature']).toBeUndefined();
      // another secret, or a changed body, does not verify
      expect(() =>
        new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(hook.received[0].body, hook.received[0].headers as Record<string, string>),
      ).toThrow();
      expect(() => verifier.verify(hook.received[0].body.replace('succeeded', 'failed'), hook.received[0].headers as Record<string, string>)).toThrow();
    } finally {
      await hook.close();
    }
  });

  it('a 410 Gone stops the retries at once: callback failed after one attempt', async () => {
    const hook = await receiver([410]);
    try {
      const jobId = await submit(hook.url);
      expect(await settled(jobId)).toMatchObject({ callback_status: 'failed', callback_attempts: 1, callback_last_error: 'HTTP 410' });
      // The callback is recorded inside the handler, so pg-boss may still hold the entry as active
      // for a moment; once pg-boss has settled it, nothing else is queued for the job (the
      // schedule would have made three more attempts).
      const states = await waitFor(
        async () => {
          const rows = await svc.deps.sql<{ state: string }[]>`SELECT state FROM pgboss.job WHERE name = 'calendar-webhook' AND data->>'job_id' = ${jobId}`;
          return rows.some((r) => r.state === 'active') ? null : rows.map((r) => r.state);
        },
        { what: `pg-boss settling the webhook entry of ${jobId}` },
      );
      expect(states).toEqual(['completed']);
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  it('a receiver that keeps failing gets the whole schedule, then the callback is failed with the last error', async () => {
    const hook = await receiver([500, 503, 502, 500]);
    try {
      const jobId = await submit(hook.url);
      expect(await settled(jobId)).toMatchObject({ callback_status: 'failed', callback_attempts: 4, callback_last_error: 'HTTP 500' });
      expect(hook.received).toHaveLength(4);
    } finally {
      await hook.close();
    }
  });

  it('a redirect is a failed attempt, not followed', async () => {
    const hook = await receiver([307, 204]);
    try {
      const jobId = await submit(hook.url);
      expect(await settled(jobId)).toMatchObject({ callback_status: 'delivered', callback_attempts: 2 });
    } finally {
      await hook.close();
    }
  });
});

describe('WEBHOOK_SIGNING_SECRET', () => {
  const load = (secret: string) => () => loadConfig({ WEBHOOK_SIGNING_SECRET: secret });
  it('takes the whsec_<base64> form of 24-64 bytes', () => {
    expect(load(SECRET)).not.toThrow();
    expect(load(`whsec_${randomBytes(24).toString('base64')}`)).not.toThrow();
  });
  it('refuses a plain secret of the former scheme, bad base64 and a key too short or too long, naming the form', () => {
    expect(load('a-plain-old-secret-0123456789')).toThrow(/whsec_/);
    expect(load('whsec_not*base64!')).toThrow(/base64/);
    expect(load(`whsec_${randomBytes(16).toString('base64')}`)).toThrow(/24-64 bytes/);
    expect(load(`whsec_${randomBytes(65).toString('base64')}`)).toThrow(/24-64 bytes/);
  });
  it('the retry schedule is a list of delays or none', () => {
    expect(loadConfig({}).WEBHOOK_RETRY_SCHEDULE_S).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: 'none' }).WEBHOOK_RETRY_SCHEDULE_S).toEqual([]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_S: '5,x' })).toThrow(/WEBHOOK_RETRY_SCHEDULE_S/);
  });
});
