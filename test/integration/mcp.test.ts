import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../tools/index.js';
import { PROBES } from '../helpers/probe-tools.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({}, { tools: [...TOOLS, ...PROBES] });
  key = (await svc.key()).key;
});
afterAll(() => svc?.close());

async function httpClient(apiKey: string, header: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const headers: Record<string, string> = header === 'x-api-key' ? { 'x-api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('MCP over Streamable HTTP', () => {
  it('lists the exposed tools with read-only annotations and output schemas', async () => {
    const client = await httpClient(key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('get_credit_balance');
    expect(names).toContain('probe_metered');
    expect(names).not.toContain('get_billing_plans');
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.outputSchema?.type).toBe('object');
      expect(t.inputSchema.type).toBe('object');
    }
    await client.close();
  });

  it('exposes exactly the 18 read-only tools of the product (besides the test probes)', async () => {
    const client = await httpClient(key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).filter((n) => !n.startsWith('probe_')).sort();
    expect(names).toEqual(
      [
        'get_credit_balance',
        'resolve_hotel', 'search_hotels', 'get_hotel_details', 'get_hotel_calendar', 'get_hotel_offers', 'get_hotel_rooms', 'get_stay_price', 'get_official_rate', 'compare_hotel_prices',
        'search_flights', 'get_return_flights', 'get_booking_options', 'search_flight_locations', 'get_flight_calendar',
        'search_rentals', 'get_rental_calendar', 'get_rental_quote',
      ].sort(),
    );
    for (const t of tools.filter((x) => !x.name.startsWith('probe_'))) expect(t.description!.length).toBeGreaterThan(150);
    await client.close();
  });

  it('tools/call returns structuredContent and a text copy, metered and recorded like REST', async () => {
    const client = await httpClient(key, 'bearer');
    const res = await client.callTool({ name: 'get_credit_balance', arguments: {} });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as { plan: { code: string }; credits: { granted: number } };
    expect(sc.plan.code).toBe('free');
    expect(JSON.parse((res.content as { text: string }[])[0].text)).toEqual(sc);

    const metered = await client.callTool({ name: 'probe_metered', arguments: { items: 2 } });
    expect(metered.structuredContent).toEqual({ items: [0, 1] });
    const meta = metered._meta as { request_id: string; credits_charged: number };
    expect(meta.credits_charged).toBe(5);
    const record = await (await svc.call(`/v1/requests/${meta.request_id}`, { key })).json() as any;
    expect(record).toMatchObject({ method: 'MCP', path: 'probe_metered', status: 200, credits: 5 });
    await client.close();
  });

  it('a failing tool is isError with the same detail text, charged 0', async () => {
    const client = await httpClient(key);
    const failed = await client.callTool({ name: 'probe_metered', arguments: { fail: true } });
    expect(failed.isError).toBe(true);
    expect((failed.content as { text: string }[])[0].text).toBe('ProbeFailure');
    const invalid = await client.callTool({ name: 'probe_metered', arguments: { items: 99 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as { text: string }[])[0].text)[0]).toMatchObject({ type: 'less_than_equal', loc: ['body', 'items'] });
    await client.close();
  });

  it('refuses a missing or invalid key with 401', async () => {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json() as any).toEqual({ detail: 'missing or invalid API key' });
    await expect(httpClient(`sk_${'z'.repeat(32)}`)).rejects.toThrow();
  });
});

describe('MCP over stdio', () => {
  it('lists and calls tools through the stdio entry', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/mcp-stdio.ts'],
      env: { ...process.env, API_KEY: key, DATABASE_URL: svc.deps.config.DATABASE_URL!, LOG_LEVEL: 'silent' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_credit_balance');
    const res = await client.callTool({ name: 'get_credit_balance', arguments: {} });
    expect((res.structuredContent as { plan: { code: string } }).plan.code).toBe('free');
    await client.close();
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
