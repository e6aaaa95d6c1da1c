/**
 * Watches over MCP as an opt-in tool set (issue 38): every caller lists the 18 read-only tools;
 * a key with the `watches` set (api_keys.mcp_tool_sets, `npm run keys -- tool-sets`), or every
 * caller under MCP_TOOL_SETS=watches, also lists and calls the watch tools. Driven by the MCP SDK
 * client over Streamable HTTP; each call goes through the one call lifecycle, so it is metered and
 * recorded as its REST route is.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setKeyToolSets } from '../../../src/platform/keys.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const WATCH_TOOLS = ['create_watch', 'list_watches', 'get_watch', 'update_watch', 'delete_watch', 'check_watch', 'list_watch_events'];
const target = { operation: 'calendar', property_token: 'watch-hotel-0001', start: addDays(todayUtc(), 30), days: 7, probe_min_stay: false };

let replay: ReplayServer;
let svc: TestService;
let plain: string;
let watcher: string;

async function connect(s: TestService, key: string): Promise<Client> {
  const client = new Client({ name: 'watch-set-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

/** tools/list as a 2026-07-28 request, raw: its cache hint is on the result. */
async function rawListing(s: TestService, key: string): Promise<{ tools: { name: string }[]; cacheScope: string; ttlMs: number }> {
  const res = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': key,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
        },
      },
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { tools: { name: string }[]; cacheScope: string; ttlMs: number } }).result;
}

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((date) => 120 + Number(date.slice(8)))]);
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
  plain = (await svc.key({ plan: 'starter' })).key;
  const created = await svc.key({ plan: 'starter' });
  watcher = created.key;
  expect(await setKeyToolSets(svc.deps.sql, created.name, ['watches'])).toBe(true);
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

describe('the watch tools over MCP, enabled per key', () => {
  it('a key without the set lists the 18 read-only tools (publicly cacheable) and cannot call a watch tool', async () => {
    const client = await connect(svc, plain);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(18);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const err = await client.callTool({ name: 'list_watches', arguments: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
    await client.close();
    expect(await rawListing(svc, plain)).toMatchObject({ cacheScope: 'public' });
  });

  it('a key with the set lists 18 + the 7 watch tools, annotated as what they do, and that listing is private to it', async () => {
    const client = await connect(svc, watcher);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(18 + WATCH_TOOLS.length);
    expect(tools.slice(18).map((t) => t.name)).toEqual(WATCH_TOOLS);
    const hints = Object.fromEntries(tools.slice(18).map((t) => [t.name, t.annotations]));
    expect(hints.create_watch).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(hints.delete_watch).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints.list_watches).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(hints.check_watch).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    for (const t of tools.slice(18)) expect(t.outputSchema?.type, t.name).toBe('object');
    await client.close();
    const raw = await rawListing(svc, watcher);
    expect(raw.tools).toHaveLength(25);
    // a shared cache must not hand this key's listing to another key
    expect(raw.cacheScope).toBe('private');
  });

  it('create → list → check → events → delete over MCP, each recorded and charged as its REST route is', async () => {
    const client = await connect(svc, watcher);
    const created = await client.callTool({ name: 'create_watch', arguments: { target, rule: { type: 'below', price: 124 }, name: 'via MCP' } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const watch = created.structuredContent as { id: string; credits_per_check: number; status: string };
    expect(watch).toMatchObject({ status: 'active', name: 'via MCP' });
    expect((created.content as { text: string }[])[0].text).toContain(watch.id);

    const listed = await client.callTool({ name: 'list_watches', arguments: {} });
    expect((listed.structuredContent as { watches: { id: string }[] }).watches.map((w) => w.id)).toContain(watch.id);
    // the other key of another account sees none of it, over REST as over MCP
    const other = (await (await svc.call('/v1/watches', { key: plain })).json()) as { watches: unknown[] };
    expect(other.watches).toEqual([]);

    // a check asked for over MCP: charged what the same check over REST is charged
    const mcpCheck = await client.callTool({ name: 'check_watch', arguments: { watch_id: watch.id } });
    expect(mcpCheck.isError, JSON.stringify(mcpCheck.content)).toBeFalsy();
    const mcpCharged = (mcpCheck._meta as { credits_charged: number }).credits_charged;
    expect(mcpCharged).toBe(watch.credits_per_check);
    expect((mcpCheck.structuredContent as { check: { credits: number } }).check.credits).toBe(mcpCharged);
    const restCheck = await svc.call(`/v1/watches/${watch.id}/check`, { key: watcher, method: 'POST' });
    expect(restCheck.status).toBe(200);
    expect(Number(restCheck.headers.get('x-credits-charged'))).toBe(mcpCharged);

    const events = await client.callTool({ name: 'list_watch_events', arguments: { watch_id: watch.id } });
    expect(events.isError, JSON.stringify(events.content)).toBeFalsy();
    expect((events.structuredContent as { watch_id: string }).watch_id).toBe(watch.id);

    const deleted = await client.callTool({ name: 'delete_watch', arguments: { watch_id: watch.id } });
    expect(deleted.structuredContent).toEqual({ id: watch.id, deleted: true });
    const gone = await client.callTool({ name: 'get_watch', arguments: { watch_id: watch.id } });
    expect(gone.isError).toBe(true);
    expect((gone._meta as { status: number }).status).toBe(404);
    await client.close();

    // the history holds each MCP call under its tool name; a check, asked over MCP or REST, is the
    // check route's own record (core/watches/check.ts commits it with its charge), the same for both
    const rows = await svc.deps.sql<{ method: string; path: string; status: number; credits: number }[]>`
      SELECT h.method, h.path, h.status, h.credits FROM request_history h JOIN api_keys k ON k.id = h.key_id
      WHERE k.key_hash = sha256(${watcher}::bytea) AND h.method IN ('MCP', 'POST') ORDER BY h.created_at`;
    expect(rows.filter((r) => r.method === 'MCP').map((r) => [r.path, r.status, r.credits])).toEqual([
      ['create_watch', 200, 0],
      ['list_watches', 200, 0],
      ['list_watch_events', 200, 0],
      ['delete_watch', 200, 0],
      ['get_watch', 404, 0],
    ]);
    expect(rows.filter((r) => r.method === 'POST').map((r) => [r.path, r.status, r.credits])).toEqual([
      ['/v1/watches/{watch_id}/check', 200, mcpCharged],
      ['/v1/watches/{watch_id}/check', 200, mcpCharged],
    ]);
  });
});

describe('the watch tools for every caller, by setting', () => {
  let everyone: TestService;
  afterAll(async () => {
    await everyone?.close();
  });

  it('MCP_TOOL_SETS=watches lists 18 + the watch tools to a key without the set, publicly cacheable (every caller gets it)', async () => {
    everyone = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, MCP_TOOL_SETS: 'watches' });
    const key = (await everyone.key()).key;
    const client = await connect(everyone, key);
    expect((await client.listTools()).tools.map((t) => t.name).slice(18)).toEqual(WATCH_TOOLS);
    const listed = await client.callTool({ name: 'list_watches', arguments: {} });
    expect(listed.structuredContent).toEqual({ watches: [] });
    await client.close();
    expect(await rawListing(everyone, key)).toMatchObject({ cacheScope: 'public' });
  });
});
