import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcesStatus } from '../../../tools/sources-status.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { freePort } from '../../helpers/free-port.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const LOOKUP = 'apps/itunes-lookup-macsoftware-slack-803453959.json';
const payload = (name: string) => readFileSync(new URL(`../../fixtures/webdata/${name}`, import.meta.url), 'utf8');

/** The value of one sample line of the exposition, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2].split(',');
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(m[3]);
  }
  return 0;
}

const suite = fixtureSuite('operations: /metrics and /v1/sources/status', LOOKUP);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let peer: TestService;
  let admin: { key: string; prefix: string; account_id: string | null };
  let user: string;
  let dataDir: string;
  let closedPort: number;

  beforeAll(async () => {
    // one app id per outcome class, all on the apps source
    replay = await startReplayServer([
      { path: '/lookup', query: { id: '803453959' }, fixture: LOOKUP },
      { path: '/us/customer-reviews/id803453959', body: payload('apps-customer-reviews.json'), headers: { 'content-type': 'application/json' } },
      // a complete 200 reply that is not the JSON the parser expects: a contract change
      // a JSON reply of another shape: the contract changed (an HTML page would be a block, garbage unusable)
      { path: '/lookup', query: { id: '1000000001' }, body: { storefront: 'new', items: 'none' } },
      { path: '/lookup', query: { id: '1000000002' }, status: 403, headers: { 'x-datadome': 'protected' }, body: '<html>blocked</html>' },
      { path: '/lookup', query: { id: '1000000003' }, delayMs: 1_500, body: { resultCount: 0, results: [] } },
      { path: '/lookup', query: { id: '1000000004' }, status: 500, body: 'error' },
    ]);
    closedPort = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ops-status-'));
    const env = {
      UPSTREAM_APPS_URL: replay.url,
      UPSTREAM_TRENDS_URL: `http://127.0.0.1:${closedPort}`,
      UPSTREAM_RETRIES: '0',
      UPSTREAM_TIMEOUT_MS: '500',
      DATA_DIR: dataDir,
    };
    svc = await startTestService(env);
    // a second API process on the same database
    peer = await startTestService(env, { databaseUrl: svc.deps.config.DATABASE_URL });
    const k = await svc.key({ role: 'admin' });
    admin = { key: k.key, prefix: k.prefix, account_id: k.account_id };
    user = (await svc.key()).key;
  });
  afterAll(async () => {
    await peer?.close();
    await svc?.close();
    await replay?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('knows nothing before any request: every source unknown', async () => {
    const res = await svc.call('/v1/sources/status', { key: user });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(() => sourcesStatus.output.parse(body)).not.toThrow();
    expect(body.window_s).toBe(3600);
    expect(body.sources.map((s: any) => s.source)).toEqual(expect.arrayContaining(['apps', 'trends', 'metasearch', 'otaone', 'careers']));
    expect(body.sources.every((s: any) => s.state === 'unknown' && s.last_success_at === null)).toBe(true);
  });

  it('counts each outcome class per source in /metrics and in the status of every process', async () => {
    const app = (id: string) => svc.call('/v1/apps/app', { key: user, body: { app_id: id } });
    expect((await app('803453959')).status).toBe(200);
    expect((await app('1000000001')).status).toBe(503);
    expect((await app('1000000002')).status).toBe(502);
    expect((await app('1000000003')).status).toBe(502);
    expect((await app('1000000004')).status).toBe(502);
    // a tool called over MCP (the SDK client, as agents call it) counts under its transport
    const mcp = new Client({ name: 'ops-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': user } } }));
    expect((await mcp.callTool({ name: 'get_credit_balance', arguments: {} })).isError).toBeFalsy();
    await mcp.close();
    // the other process: trends cannot be reached
    expect((await peer.call('/v1/trends/interest', { key: user, body: { keyword: 'coffee' } })).status).toBe(502);

    const metrics = await (await svc.call('/metrics', { key: admin.key })).text();
    const up = (source: string, outcome: string) => sample(metrics, 'hotelrates_upstream_requests_total', { source, outcome });
    expect(up('apps', 'ok')).toBe(2); // lookup + ratings of the answered app
    expect(up('apps', 'contract_changed')).toBe(1);
    expect(up('apps', 'blocked')).toBe(1);
    expect(up('apps', 'timeout')).toBe(1);
    expect(up('apps', 'upstream_error')).toBe(1);
    expect(sample(metrics, 'hotelrates_upstream_request_duration_seconds_count', { source: 'apps', outcome: 'timeout' })).toBe(1);
    expect(sample(metrics, 'hotelrates_requests_total', { operation: 'get_app', transport: 'rest', status: '200' })).toBe(1);
    expect(sample(metrics, 'hotelrates_requests_total', { operation: 'get_app', transport: 'rest', status: '502' })).toBe(3);
    expect(sample(metrics, 'hotelrates_request_duration_seconds_count', { operation: 'get_app', transport: 'rest' })).toBe(5);
    expect(sample(metrics, 'hotelrates_credits_charged_total', { operation: 'get_app' })).toBe(2);
    expect(sample(metrics, 'hotelrates_requests_total', { operation: 'get_credit_balance', transport: 'mcp', status: '200' })).toBe(1);
    const peerMetrics = await (await peer.call('/metrics', { key: admin.key })).text();
    expect(sample(peerMetrics, 'hotelrates_upstream_requests_total', { source: 'trends', outcome: 'unreachable' })).toBe(1);

    // the contract change kept its raw reply, as every contract change does
    const kept = readdirSync(path.join(dataDir, 'diagnostics', 'apps'));
    expect(kept.some((f) => f.endsWith('.html.gz'))).toBe(true);

    // the peer's outcomes reach the database when it reads the status (or within seconds on its own)
    await peer.call('/v1/sources/status', { key: user });
    for (const service of [svc, peer]) {
      const body = (await (await service.call('/v1/sources/status', { key: admin.key })).json()) as any;
      const apps = body.sources.find((s: any) => s.source === 'apps');
      expect(apps).toMatchObject({ state: 'degraded', counts: { ok: 2, contract_changed: 1, blocked: 1, timeout: 1, upstream_error: 1, unreachable: 0 } });
      expect(Date.parse(apps.last_success_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(apps.last_contract_change_at)).toBeGreaterThan(Date.now() - 60_000);
      const trends = body.sources.find((s: any) => s.source === 'trends');
      expect(trends).toMatchObject({ state: 'failing', last_success_at: null, counts: { unreachable: 1 } });
      expect(body.sources.find((s: any) => s.source === 'video').state).toBe('unknown');
    }
    // a key without the admin role sees the states, not the counts
    const plain = (await (await svc.call('/v1/sources/status', { key: user })).json()) as any;
    expect(plain.sources.find((s: any) => s.source === 'apps').state).toBe('degraded');
    expect(plain.sources.every((s: any) => !('counts' in s))).toBe(true);
  });

  it('serves /metrics to admin keys only, as x-api-key or Bearer, and no label carries a key, account or URL', async () => {
    expect((await svc.call('/metrics')).status).toBe(401);
    expect((await svc.call('/metrics', { headers: { authorization: 'Bearer sk_notakeynotakeynotakeynotakeynotak' } })).status).toBe(401);
    const forbidden = await svc.call('/metrics', { key: user });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ detail: 'metrics need an admin key' });
    const bearer = await svc.call('/metrics', { headers: { authorization: `Bearer ${admin.key}` } });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await bearer.text();
    for (const name of [
      'hotelrates_batch_queue_depth',
      'hotelrates_batch_items_total',
      'hotelrates_db_pool_connections',
      'hotelrates_db_pool_max',
      'hotelrates_process_resident_memory_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(sample(text, 'hotelrates_batch_queue_depth', { status: 'queued' })).toBe(0);
    expect(sample(text, 'hotelrates_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^hotelrates_db_pool_max 20$/m);
    for (const secret of [
      admin.key,
      admin.prefix,
      user,
      user.slice(0, 9),
      admin.account_id!,
      replay.url,
      `127.0.0.1:${replay.port}`,
      `127.0.0.1:${closedPort}`,
      '803453959',
      'http',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('links the OTA-sources read to the status', async () => {
    const body = (await (await svc.call('/v1/ota/sources', { key: user })).json()) as any;
    expect(body.status_url).toBe('/v1/sources/status');
  });
});
