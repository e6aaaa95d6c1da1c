import os from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedWindow } from '../../helpers/calendar-payload.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

let svc: TestService;
let key: string;
let accountId: string;
let replay: ReplayServer;

/**
 * The calendar upstream, replayed: tokens steer it. `transient…` answers 503 (retryable),
 * `broken…` answers without the RPC frame (contract changed), `empty…` prices nothing,
 * others price every night at 100 + day of month.
 */
function upstreamRoutes() {
  const token = (r: { body: string }) => askedWindow(r.body).token;
  return [
    {
      method: 'POST',
      path: '/_/TravelFrontendUi/data/batchexecute',
      match: (r: { body: string }) => token(r).startsWith('transient'),
      status: 503,
      body: 'busy',
    },
    {
      method: 'POST',
      path: '/_/TravelFrontendUi/data/batchexecute',
      match: (r: { body: string }) => token(r).startsWith('broken'),
      body: ')]}\'\n\n12\n[["di",12]]\n',
    },
    calendarRoute((date, los, t) => (t.startsWith('empty') ? null : (100 + Number(date.slice(8))) * los)),
  ];
}

beforeAll(async () => {
  replay = await startReplayServer(upstreamRoutes());
  svc = await startTestService({
    UPSTREAM_METASEARCH_URL: replay.url,
    UPSTREAM_RETRIES: '0',
    WEBHOOK_SIGNING_SECRET: SECRET,
    SAFE_FETCH_ALLOW_PRIVATE: 'true',
    WORKER_CONCURRENCY: '2',
  });
  const k = await svc.key({ plan: 'starter' });
  key = k.key;
  accountId = k.account_id!;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

let seq = 0;
const submit = (body: unknown, idem: string | null = `idem-${++seq}`, apiKey = key) =>
  svc.call('/v1/jobs', { key: apiKey, body, headers: idem === null ? {} : { 'idempotency-key': idem } });

async function finished(jobId: string, apiKey = key, query = '') {
  return waitFor(
    async () => {
      const job = (await (await svc.call(`/v1/jobs/${jobId}${query}`, { key: apiKey })).json()) as any;
      return job.finished_at && (job.callback_status === 'not_configured' || job.callback_status !== 'pending') ? job : null;
    },
    { what: `job ${jobId}` },
  );
}

describe('POST /v1/jobs', () => {
  it('requires an Idempotency-Key header of 1-200 characters', async () => {
    const missing = await submit({ items: [{ token: 'hotel-aaaa' }] }, null);
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as any).detail).toEqual([{ type: 'missing', loc: ['header', 'idempotency-key'], msg: 'Field required', input: null }]);
    const long = await submit({ items: [{ token: 'hotel-aaaa' }] }, 'x'.repeat(201));
    expect(long.status).toBe(422);
  });

  it('validates items: 1-50, each with the calendar fields', async () => {
    expect((await submit({ items: [] })).status).toBe(422);
    expect((await submit({ items: Array.from({ length: 51 }, () => ({ token: 'hotel-aaaa' })) })).status).toBe(422);
    const bad = await submit({ items: [{ token: 'hotel-aaaa', days: 331, market: 'XX', nope: 1 }], priority: 10 });
    expect(bad.status).toBe(422);
    const locs = ((await bad.json()) as any).detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.items.0.days', 'body.items.0.market', 'body.items.0.nope', 'body.priority']));
  });

  it('answers 202 with the queued job, committed before the answer', async () => {
    const res = await submit({
      items: [
        { token: 'hotel-aaaa', days: 3, start: '2027-01-10', label: 'first' },
        { token: 'hotel-bbbb', days: 2, start: '2027-01-10', market: 'GB' },
      ],
      priority: 7,
    });
    expect(res.status).toBe(202);
    const job = (await res.json()) as any;
    expect(job.id).toMatch(/^refreshjob_/);
    expect(job).toMatchObject({
      job_id: job.id,
      poll_url: `/v1/jobs/${job.id}`,
      status: 'queued',
      priority: 7,
      callback_url: null,
      callback_status: 'not_configured',
      callback_attempts: 0,
      result_summary: {},
      items_total: 2,
      items_succeeded: 0,
      items_failed: 0,
      started_at: null,
      finished_at: null,
    });
    expect(job.items.map((i: any) => [i.item_index, i.status, i.attempts, i.result])).toEqual([
      [0, 'queued', 0, null],
      [1, 'queued', 0, null],
    ]);
    expect(job.items[0].id).toMatch(/^refreshitem_/);
    expect(job.items[0].request).toMatchObject({
      token: 'hotel-aaaa',
      market: 'US',
      currency: 'USD',
      days: 3,
      start: '2027-01-10',
      adults: 2,
      los: 1,
      basis: 'cheapest',
      label: 'first',
    });
    expect(job.items[1].request).toMatchObject({ market: 'GB', currency: 'GBP', gl: 'gb', rates_include_tax: true });
    expect(res.headers.get('x-credits-charged')).toBeNull();

    const done = await finished(job.id, key, '?include_results=true');
    expect(done).toMatchObject({ status: 'succeeded', items_succeeded: 2, items_failed: 0, error: null });
    expect(done.items.map((i: any) => [i.status, i.attempts])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
    expect(done.items[0].result.rates.map((r: any) => r.date)).toEqual(['2027-01-10', '2027-01-11', '2027-01-12']);
    expect(done.result_summary).toMatchObject({ rates: 5, database: { rows_written: 5, rows_changed: 0, rows_removed: 0 } });
    expect(done.result_summary.wire_bytes).toBe(done.items[0].result.wire_bytes + done.items[1].result.wire_bytes);
    expect(done.items[0].result.rates.map((r: any) => r.rate_total)).toEqual([110, 111, 112]);
    // an item's result is the collection as stored: the price positions of POST /v1/calendar are a call's answer
    expect(done.items[0].result.rates.some((r: any) => 'position' in r)).toBe(false);
    expect(done.result_summary.database.run_id).toMatch(/^scraperun_/);
    expect(done.artifact_uri).toBe(`/v1/jobs/${job.id}/artifact`);
    expect(done.artifact_sha256).toMatch(/^[0-9a-f]{64}$/);
    // the archive, from the database, with the owner's key: the gzip whose hash the job states
    const archive = await svc.call(done.artifact_uri, { key });
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/gzip');
    expect(archive.headers.get('content-disposition')).toBe(`attachment; filename="${job.id}.json.gz"`);
    const bytes = Buffer.from(await archive.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(done.artifact_sha256);
    const content = JSON.parse(gunzipSync(bytes).toString('utf8'));
    expect(content).toMatchObject({ job_id: job.id, status: 'succeeded', result_summary: done.result_summary });
    expect(content.items.map((i: any) => i.result.rates.length)).toEqual([3, 2]);
    // another account's key, an unknown job, an unfinished one: 404
    const other = await svc.key({ plan: 'starter' });
    expect((await svc.call(done.artifact_uri, { key: other.key })).status).toBe(404);
    expect((await svc.call('/v1/jobs/refreshjob_nope/artifact', { key })).status).toBe(404);
    for (const t of [done.started_at, done.finished_at]) expect(Date.parse(t)).not.toBeNaN();
    const plain = (await (await svc.call(`/v1/jobs/${job.id}`, { key })).json()) as any;
    expect(plain.items[0].result).toBeNull();

    // each succeeded item is charged like POST /v1/calendar (5), against the item's id
    const charges = await svc.deps
      .sql`SELECT request_id, amount FROM credit_ledger WHERE account_id = ${accountId} AND kind = 'charge' AND request_id = ANY(${done.items.map((i: any) => i.id)})`;
    expect(charges.map((c) => c.amount)).toEqual([-5, -5]);
  });

  it('same Idempotency-Key and body → the original job; another body → 409; 20 parallel → one job', async () => {
    const body = { items: [{ token: 'hotel-cccc', days: 1 }] };
    const first = (await (await submit(body, 'same-key')).json()) as any;
    const again = await submit(body, 'same-key');
    expect(again.status).toBe(202);
    expect(((await again.json()) as any).id).toBe(first.id);
    const conflict = await submit({ items: [{ token: 'hotel-dddd' }] }, 'same-key');
    expect(conflict.status).toBe(409);
    const parallel = await Promise.all(Array.from({ length: 20 }, () => submit({ items: [{ token: 'hotel-eeee', days: 1 }] }, 'parallel-key')));
    const ids = await Promise.all(parallel.map(async (r) => ((await r.json()) as any).id));
    expect(new Set(ids).size).toBe(1);
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM calendar_jobs WHERE id = ANY(${ids})`;
    expect(n).toBe(1);
  });

  it('a transient failure is retried up to 3 attempts; a contract change fails at once; the job is partial', async () => {
    const job = (await (
      await submit({
        items: [
          { token: 'hotel-ffff', days: 2 },
          { token: 'transient-1', days: 2 },
          { token: 'broken-01', days: 2 },
        ],
      })
    ).json()) as any;
    const done = await finished(job.id);
    expect(done.status).toBe('partial');
    expect(done.error).toBe('2 of 3 items failed');
    expect(done.items.map((i: any) => [i.status, i.attempts, i.error])).toEqual([
      ['succeeded', 1, null],
      ['failed', 3, 'UpstreamHttp503'],
      ['failed', 1, 'metasearch upstream contract changed: no wrb.fr frame for yY52ce'],
    ]);
    const failedCharges = await svc.deps.sql`SELECT 1 FROM credit_ledger WHERE request_id = ANY(${[done.items[1].id, done.items[2].id]})`;
    expect(failedCharges).toHaveLength(0);
  });

  it('all items failing make the job failed; an empty calendar is succeeded but free', async () => {
    const failed = await finished(((await (await submit({ items: [{ token: 'broken-02' }] })).json()) as any).id);
    expect(failed).toMatchObject({ status: 'failed', items_failed: 1, error: '1 of 1 items failed' });
    const empty = await finished(((await (await submit({ items: [{ token: 'empty-001', days: 4 }] })).json()) as any).id);
    expect(empty.status).toBe('succeeded');
    const charges = await svc.deps.sql`SELECT 1 FROM credit_ledger WHERE request_id = ${empty.items[0].id}`;
    expect(charges).toHaveLength(0);
  });

  it('a 50-item job completes with true counters', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ token: `fifty-hotel-${i}`, start: '2027-08-01', days: 3, probe_min_stay: false, label: `#${i}` }));
    const job = (await (await submit({ items })).json()) as any;
    expect(job.items_total).toBe(50);
    const done = await finished(job.id);
    expect(done).toMatchObject({ status: 'succeeded', items_total: 50, items_succeeded: 50, items_failed: 0, error: null });
    expect(done.items.map((i: any) => i.item_index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(done.items.every((i: any) => i.status === 'succeeded' && i.attempts === 1 && i.label === `#${i.item_index}`)).toBe(true);
    expect(done.result_summary).toMatchObject({ rates: 150, database: { rows_written: 150 } });
    const [{ n }] = await svc.deps
      .sql`SELECT count(*)::int AS n FROM credit_ledger WHERE kind = 'charge' AND request_id = ANY(${done.items.map((i: any) => i.id)})`;
    expect(n).toBe(50);
  });

  it("another key's job is a 404", async () => {
    const job = (await (await submit({ items: [{ token: 'hotel-gggg', days: 1 }] })).json()) as any;
    const other = await svc.key();
    const res = await svc.call(`/v1/jobs/${job.id}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'job not found' });
    expect((await svc.call('/v1/jobs/refreshjob_nope', { key })).status).toBe(404);
  });

  it('a second collection of the same stays rewrites nothing and keeps observation ids', async () => {
    const body = { items: [{ token: 'hotel-hhhh', days: 3, start: '2027-02-01' }] };
    const stored = async () =>
      (await svc.deps.sql`SELECT stay_date::text AS d, observation_id FROM stored_rates WHERE token = 'hotel-hhhh' ORDER BY stay_date`).map(
        (r) => `${r.d} ${r.observation_id}`,
      );
    await finished(((await (await submit(body)).json()) as any).id);
    const firstIds = await stored();
    const again = await finished(((await (await submit(body)).json()) as any).id);
    // same prices: nothing written, nothing changed, the stored observations keep their ids
    expect(again.result_summary.database).toMatchObject({ rows_written: 0, rows_changed: 0, rows_removed: 0 });
    expect(await stored()).toEqual(firstIds);
    expect(firstIds).toHaveLength(3);
  });
});

describe('job.completed webhooks (delivery and signing: webhooks.test.ts)', () => {
  it('callback_url must be https (here http is allowed only by the test flag) and a URL', async () => {
    expect((await submit({ items: [{ token: 'hotel-kkkk' }], callback_url: 'ftp://example.com/x' })).status).toBe(422);
    expect((await submit({ items: [{ token: 'hotel-kkkk' }], callback_url: 'not a url' })).status).toBe(422);
  });
});

describe('without webhook delivery configured', () => {
  let plain: TestService;
  beforeAll(async () => {
    plain = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url });
  });
  afterAll(() => plain?.close());

  it('a callback the delivery could never make is refused at submission: private or loopback address, a name resolving to one, localhost., credentials', async () => {
    const withHooks = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, WEBHOOK_SIGNING_SECRET: SECRET });
    try {
      const k = await withHooks.key();
      const refused = [
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
        'https://localhost:8443/hook',
        'https://localhost./hook',
        `https://${os.hostname()}/hook`,
        'https://user:secret@example.com/hook',
        'http://example.com/hook',
      ];
      for (const url of refused) {
        const res = await withHooks.call('/v1/jobs', {
          key: k.key,
          body: { items: [{ token: 'hotel-priv' }], callback_url: url },
          headers: { 'idempotency-key': url },
        });
        expect(res.status, url).toBe(422);
      }
      const [{ n }] = await withHooks.deps.sql`SELECT count(*)::int AS n FROM calendar_jobs`;
      expect(n).toBe(0);
    } finally {
      await withHooks.close();
    }
  });

  it('a submission with callback_url is refused with 503', async () => {
    const k = await plain.key();
    const res = await plain.call('/v1/jobs', {
      key: k.key,
      body: { items: [{ token: 'hotel-llll' }], callback_url: 'https://example.com/hook' },
      headers: { 'idempotency-key': 'a' },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      detail: 'webhook delivery is not enabled for this service',
      source: 'service',
      retryable: false,
      retry: 'do not retry: the operator of this service has not enabled this feature',
    });
    const [{ n }] = await plain.deps.sql`SELECT count(*)::int AS n FROM calendar_jobs`;
    expect(n).toBe(0);
  });
});

describe('batches under credit enforcement', () => {
  let enforced: TestService;
  beforeAll(async () => {
    enforced = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', CREDITS_MODE: 'enforce', WORKER_CONCURRENCY: '4' });
  });
  afterAll(() => enforced?.close());

  it('items running side by side never take the balance below zero; the unpaid ones fail and say why', async () => {
    const k = await enforced.key({ plan: 'scale' });
    await enforced.deps.credits.adjust(k.account_id!, 'scale', -(1_000_000 - 12), 'test: leave 12');
    const items = Array.from({ length: 4 }, (_, i) => ({ token: `enforced-hotel-${i}`, start: '2027-09-01', days: 2, probe_min_stay: false }));
    const res = await enforced.call('/v1/jobs', { key: k.key, body: { items }, headers: { 'idempotency-key': 'enforced' } });
    const job = (await res.json()) as any;
    const done = await waitFor(
      async () => {
        const j = (await (await enforced.call(`/v1/jobs/${job.id}`, { key: k.key })).json()) as any;
        return j.finished_at ? j : null;
      },
      { what: 'the enforced batch' },
    );
    expect(done.status).toBe('partial');
    expect(done.items_succeeded).toBe(2);
    expect(done.items.filter((i: any) => i.status === 'failed').every((i: any) => /^insufficient credits/.test(i.error))).toBe(true);
    const b = (await (await enforced.call('/v1/billing', { key: k.key })).json()) as any;
    expect(b.credits.remaining).toBe(2);
  });
});
