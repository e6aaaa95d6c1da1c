import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../../src/platform/keys.js';
import { askedWindow } from '../../helpers/calendar-payload.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const TOKEN = 'ChkIq9DtnN2Sx7kBGg0vZy8xMWJ3cGh0c2JtEAE';
const SECRET_TOKEN = 'ChkSecretHotel-zero-retention';
const START = '2027-04-01';
const RPC = '/_/TravelFrontendUi/data/batchexecute';
const suite = fixtureSuite('two accounts through the real routes; zero_retention', 'google-hotels/travel-search-paris-budget.html');

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let dataDir: string;
  let a: CreatedKey;
  let b: CreatedKey;
  const get = async (p: string, k: CreatedKey) => {
    const res = await svc.call(p, { key: k.key });
    return { status: res.status, body: (await res.json()) as any, id: res.headers.get('x-request-id')! };
  };
  const post = async (p: string, k: CreatedKey, body: unknown, headers: Record<string, string> = {}) => {
    const res = await svc.call(p, { key: k.key, body, headers });
    return { status: res.status, body: (await res.json()) as any, id: res.headers.get('x-request-id')! };
  };
  const rates = (k: CreatedKey, token = TOKEN) => get(`/v1/rates?token=${token}&market=FR`, k);
  const kept = () => {
    const dir = path.join(dataDir, 'diagnostics', 'metasearch');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.meta.json')) : [];
  };
  const mcp = async (k: CreatedKey) => {
    const client = new Client({ name: 'ownership-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': k.key } } }));
    return client;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ownership-'));
    replay = await startReplayServer([
      calendarRoute((date) => 100 + Number(date.slice(8)), { match: (r) => !askedWindow(r.body).token.startsWith('ChkJunk') }),
      { method: 'POST', path: RPC, match: (r) => askedWindow(r.body).token.startsWith('ChkJunk'), body: ')]}\'\n\n12\n[["di",12]]\n' },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', DATA_DIR: dataDir });
    a = await svc.key({ name: 'account-a' });
    // another account's admin key: admin sees no other account's figures on these routes either
    b = await svc.key({ name: 'account-b', role: 'admin' });
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("stored rates and storage figures are the caller's account's only (REST and MCP)", async () => {
    const cal = await post('/v1/calendar', a, { token: TOKEN, start: START, days: 10, market: 'FR', probe_min_stay: false });
    expect(cal.status).toBe(200);
    expect((await rates(a)).body.total).toBe(10);
    expect((await rates(b)).body).toMatchObject({ total: 0, rates: [] });
    expect((await get('/v1/storage', a)).body).toMatchObject({ stored_rates: 10, properties: 1, runs: 1 });
    expect((await get('/v1/storage', b)).body).toMatchObject({ stored_rates: 0, properties: 0, runs: 0, newest_observation: null });

    // B collects the same property over MCP: its own rows; A's rows and observation ids stay as they were
    const before = (await rates(a)).body.rates.map((r: any) => r.provenance.observation_id);
    const client = await mcp(b);
    const res = await client.callTool({ name: 'get_hotel_calendar', arguments: { token: TOKEN, start: START, days: 4, market: 'FR', probe_min_stay: false } });
    expect(res.isError).toBeFalsy();
    await client.close();
    expect((await rates(b)).body.total).toBe(4);
    expect((await rates(a)).body.rates.map((r: any) => r.provenance.observation_id)).toEqual(before);
    expect((await get('/v1/storage', b)).body).toMatchObject({ stored_rates: 4, properties: 1, runs: 1 });
    expect((await get('/v1/storage', a)).body).toMatchObject({ stored_rates: 10, runs: 1 });
  });

  it("another account's job, request record, usage and ledger are out of reach", async () => {
    const body = { items: [{ token: TOKEN, start: '2027-05-01', days: 3, market: 'FR', probe_min_stay: false }] };
    const job = await post('/v1/jobs', a, body, { 'idempotency-key': 'same-key' });
    expect(job.status).toBe(202);
    expect((await get(`/v1/jobs/${job.body.id}`, b)).status).toBe(404);
    const done = await waitFor(async () => {
      const r = await get(`/v1/jobs/${job.body.id}`, a);
      return r.body.finished_at ? r.body : null;
    });
    expect(done.status).toBe('succeeded');
    // the job's archive is served to its owner only
    expect((await svc.call(done.artifact_uri, { key: a.key })).status).toBe(200);
    expect((await svc.call(done.artifact_uri, { key: b.key })).status).toBe(404);
    // the same Idempotency-Key from another account is another submission, not A's job
    const bJob = await post('/v1/jobs', b, body, { 'idempotency-key': 'same-key' });
    expect(bJob.status).toBe(202);
    expect(bJob.body.id).not.toBe(job.body.id);

    const aCall = await get('/v1/billing', a);
    expect((await get(`/v1/requests/${aCall.id}`, b)).status).toBe(404);
    expect((await get(`/v1/requests/${aCall.id}`, a)).body).toMatchObject({ id: aCall.id, path: '/v1/billing' });

    const usageB = (await get('/v1/usage?period=24h', b)).body;
    expect(usageB.by_endpoint.map((e: any) => e.path)).not.toContain('/v1/calendar'); // only A called it over REST
    const ledgerA = (await get('/v1/billing/ledger', a)).body.entries.filter((e: any) => e.kind === 'charge');
    const ledgerB = (await get('/v1/billing/ledger', b)).body.entries.filter((e: any) => e.kind === 'charge');
    expect(ledgerA.length).toBeGreaterThan(0);
    const aIds = new Set(ledgerA.map((e: any) => e.request_id));
    expect(ledgerB.some((e: any) => aIds.has(e.request_id))).toBe(false);
    const [{ n }] = await svc.deps
      .sql`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = ${b.account_id} AND request_id = ANY(${[...aIds] as string[]})`;
    expect(n).toBe(0);
    // over MCP the balance is the caller's account's: its own charges only
    const client = await mcp(b);
    const balance = (await client.callTool({ name: 'get_credit_balance', arguments: {} })).structuredContent as any;
    await client.close();
    expect(balance.account_id).toBe(b.account_id);
    const [{ used }] = await svc.deps
      .sql`SELECT coalesce(-sum(amount), 0)::int AS used FROM credit_ledger WHERE account_id = ${b.account_id} AND kind = 'charge'`;
    expect(balance.credits.used).toBe(used);
  });

  it('a key made without a plan still owns what it stores (an unmetered account of its own)', async () => {
    const c = await svc.key({ plan: null });
    expect(c.account_id).toMatch(/^acct_/);
    const aBefore = (await rates(a)).body.total;
    expect((await post('/v1/calendar', c, { token: TOKEN, start: START, days: 2, market: 'FR', probe_min_stay: false })).status).toBe(200);
    expect((await get('/v1/storage', c)).body).toMatchObject({ stored_rates: 2, runs: 1 });
    expect((await rates(a)).body.total).toBe(aBefore);
    expect((await get('/v1/billing', c)).status).toBe(404);
  });

  it('zero_retention=true stores nothing of the call: no rates, no run, no raw page; its history row keeps only the route', async () => {
    const storage = (await get('/v1/storage', a)).body;
    const zr = await post('/v1/calendar', a, { token: SECRET_TOKEN, start: START, days: 5, market: 'FR', probe_min_stay: false, zero_retention: true });
    expect(zr.status).toBe(200);
    expect(zr.body.rates).toHaveLength(5);
    const compat = await fetch(
      `${svc.url}/api/v1/search?engine=metasearch_hotels_calendar&property_token=${SECRET_TOKEN}&start=${START}&days=3&market=FR&zero_retention=true&api_key=${a.key}`,
    );
    expect(compat.status).toBe(200);
    const serp = await post('/v1/serp/metasearch_hotels_calendar', a, {
      property_token: SECRET_TOKEN,
      start: START,
      days: 3,
      market: 'FR',
      zero_retention: true,
    });
    expect(serp.status).toBe(200);
    expect((await rates(a, SECRET_TOKEN)).body.total).toBe(0);
    expect((await get('/v1/storage', a)).body).toMatchObject({ stored_rates: storage.stored_rates, runs: storage.runs });
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM stored_rates WHERE token = ${SECRET_TOKEN}`;
    expect(n).toBe(0);
    const record = (await get(`/v1/requests/${zr.id}`, a)).body;
    expect(record).toMatchObject({ id: zr.id, method: 'POST', path: '/v1/calendar', status: 200 });
    expect(JSON.stringify(record)).not.toContain(SECRET_TOKEN);
    const [row] = await svc.deps.sql`SELECT * FROM request_history WHERE id = ${zr.id}`;
    expect(JSON.stringify(row)).not.toContain(SECRET_TOKEN);

    // a reply that breaks the parser is kept for diagnosis with its owner, except under zero_retention
    expect((await post('/v1/calendar', a, { token: 'ChkJunk-zero', start: START, days: 3, zero_retention: true })).status).toBe(503);
    expect(kept()).toHaveLength(0);
    expect((await post('/v1/calendar', a, { token: 'ChkJunk-kept', start: START, days: 3 })).status).toBe(503);
    expect(kept()).toHaveLength(1);
    const meta = JSON.parse(fs.readFileSync(path.join(dataDir, 'diagnostics', 'metasearch', kept()[0]), 'utf8'));
    expect(meta).toMatchObject({ reason: 'contract_changed', account_id: a.account_id });
  });
});
