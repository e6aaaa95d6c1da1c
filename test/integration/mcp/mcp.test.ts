import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../tools/index.js';
import { PROBES } from '../../helpers/probe-tools.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { LOCATION_LONDON } from '../../fixtures/flights-rpc-payloads.js';

const LOCATIONS = '/_/FlightsFrontendUi/data/batchexecute';
let svc: TestService;
let replay: ReplayServer;
let key: string;

beforeAll(async () => {
  // an upstream slow enough for a client to hang up while it is being asked
  replay = await startReplayServer([{ method: 'POST', path: LOCATIONS, body: LOCATION_LONDON, delayMs: 5_000 }]);
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '2' }, { tools: [...TOOLS, ...PROBES] });
  key = (await svc.key()).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

/** The three revisions one /mcp serves, each as the SDK client negotiates it. */
const REVISIONS = {
  '2026-07-28': { versionNegotiation: { mode: { pin: '2026-07-28' as const } } },
  '2025-11-25': { supportedProtocolVersions: ['2025-11-25'] },
  '2025-06-18': { supportedProtocolVersions: ['2025-06-18'] },
};
type Revision = keyof typeof REVISIONS;

async function httpClient(revision: Revision, headers: Record<string, string> = { 'x-api-key': key }): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' }, REVISIONS[revision]);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers } }));
  return client;
}

function rpc(body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key, ...headers },
    body: JSON.stringify(body),
  });
}

async function history(path: string): Promise<{ status: number; credits: number }[]> {
  return svc.deps.sql<{ status: number; credits: number }[]>`SELECT status, credits FROM request_history WHERE path = ${path} ORDER BY created_at`;
}

describe.each(Object.keys(REVISIONS) as Revision[])('MCP over Streamable HTTP, revision %s', (revision) => {
  it('negotiates the revision and lists the tools with read-only annotations and output schemas', async () => {
    const client = await httpClient(revision);
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    expect(client.getProtocolEra()).toBe(revision === '2026-07-28' ? 'modern' : 'legacy');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('get_credit_balance');
    expect(names).toContain('probe_metered');
    expect(names).not.toContain('get_billing_plans');
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(t.outputSchema?.type).toBe('object');
      expect(t.inputSchema.type).toBe('object');
    }
    await client.close();
  });

  it('tools/call returns structuredContent and a text summary with its JSON, metered and recorded like REST', async () => {
    const client = await httpClient(revision, { authorization: `Bearer ${key}` });
    const res = await client.callTool({ name: 'get_credit_balance', arguments: {} });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as { plan: { code: string }; credits: { granted: number; remaining: number } };
    expect(sc.plan.code).toBe('free');
    // a small answer with nothing to leave out is said by its summary alone
    expect((res.content as { text: string }[])[0].text).toBe(
      `${sc.credits.remaining} of ${sc.credits.granted} credits left on the Free plan until ${(sc as any).period.renews_on}.`,
    );

    const metered = await client.callTool({ name: 'probe_metered', arguments: { items: 2 } });
    expect(metered.structuredContent).toEqual({ items: [0, 1] });
    const meta = metered._meta as { request_id: string; credits_charged: number };
    expect(meta.credits_charged).toBe(5);
    const record = (await (await svc.call(`/v1/requests/${meta.request_id}`, { key })).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ method: 'MCP', path: 'probe_metered', status: 200, credits: 5 });
    await client.close();
  });

  it('a failing tool is isError with the same detail text, charged 0', async () => {
    const client = await httpClient(revision);
    const failed = await client.callTool({ name: 'probe_metered', arguments: { fail: true } });
    expect(failed.isError).toBe(true);
    expect((failed.content as { text: string }[])[0].text).toBe('ProbeFailure');
    expect(failed._meta).toMatchObject({ status: 502 });
    const invalid = await client.callTool({ name: 'probe_metered', arguments: { items: 99 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as { text: string }[])[0].text)[0]).toMatchObject({ type: 'less_than_equal', loc: ['body', 'items'] });
    await client.close();
  });

  it('an unknown tool is a JSON-RPC error and leaves no trace in usage or history', async () => {
    const client = await httpClient(revision);
    const name = `no_such_tool_${revision.replaceAll('-', '_')}`;
    const err = await client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
    expect(await history(name)).toEqual([]);
    const usage = JSON.stringify(await (await svc.call('/v1/usage?period=7d', { key })).json());
    expect(usage).not.toContain(name);
    await client.close();
  });
});

describe('MCP over Streamable HTTP, one endpoint', () => {
  it('answers server/discover with the 2026-07-28 revision and cache hints, and initialize with the 2025 ones', async () => {
    const discover = await rpc(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    );
    expect(discover.status).toBe(200);
    const d = (await discover.json()) as { result: Record<string, unknown> };
    expect(d.result).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, cacheScope: 'public' });
    expect(d.result.ttlMs).toBeGreaterThan(0);
    for (const version of ['2025-11-25', '2025-06-18']) {
      const init = await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      expect(init.status).toBe(200);
      expect(await init.text()).toContain(`"protocolVersion":"${version}"`);
    }
    // a revision not served: 400 naming every one served, both eras (the 2026 one discover states first)
    const served = [...(d.result.supportedVersions as string[]), ...SUPPORTED_PROTOCOL_VERSIONS];
    for (const asked of ['1999-01-01', '2027-01-01']) {
      const refused = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': asked });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: { code: number; message: string; data: { supported: string[] } } };
      expect(body.error).toMatchObject({ code: -32000, data: { supported: served } });
      expect(body.error.message).toBe(`Bad Request: Unsupported protocol version: ${asked} (supported versions: ${served.join(', ')})`);
    }
  });

  it('refuses a missing or invalid key with 401 before the protocol layer', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'x-api-key': '' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe('missing or invalid API key');
    await expect(httpClient('2025-11-25', { 'x-api-key': `sk_${'z'.repeat(32)}` })).rejects.toThrow();
    await expect(httpClient('2026-07-28', { 'x-api-key': `sk_${'z'.repeat(32)}` })).rejects.toThrow();
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding) and accepts loopback ones', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    expect((await rpc(init, { origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await rpc(init, { origin: `http://localhost:${new URL(svc.url).port}` })).status).toBe(200);
    // fetch sets Host itself: a raw request carries the rebinding one
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${svc.url}/mcp`,
        {
          method: 'POST',
          headers: { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.once('error', reject);
      req.end(JSON.stringify(init));
    });
    expect(status).toBe(403);
  });

  it('a malformed body is a JSON-RPC parse error, not a REST validation error', async () => {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: '{"jsonrpc":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('a client that hangs up ends the upstream work, is recorded as 499 and is not charged, as over REST', async () => {
    const gone = new AbortController();
    const call = fetch(`${svc.url}/mcp`, {
      method: 'POST',
      signal: gone.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_flight_locations', arguments: { q: 'london' } } }),
    }).catch((err: Error) => err);
    await waitFor(async () => replay.requests.some((r) => r.path === LOCATIONS), { what: 'the upstream request' });
    gone.abort();
    expect(await call).toBeInstanceOf(Error);
    const row = await waitFor(async () => (await history('search_flight_locations'))[0], { what: 'the 499 record' });
    expect(row).toEqual({ status: 499, credits: 0 });
    // the upstream call was not retried after the hang-up
    expect(replay.requests.filter((r) => r.path === LOCATIONS)).toHaveLength(1);
  });
});

describe('MCP Inspector CLI', () => {
  it('lists the tools over HTTP', async () => {
    // The CLI reads its own package.json relative to the working directory, hence the cwd.
    const cwd = path.resolve('node_modules/@modelcontextprotocol/inspector-cli/build');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['index.js', `${svc.url}/mcp`, '--transport', 'http', '--header', `x-api-key: ${key}`, '--method', 'tools/list'],
      { cwd, timeout: 30_000 },
    );
    const names = JSON.parse(stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toContain('get_credit_balance');
  });
});
