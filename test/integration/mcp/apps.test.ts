/**
 * MCP Apps over the protocol, as the SDK client sees them at each revision: the tool with an app
 * lists its `ui://` page, the page is a resource of the extension's type with its CSP metadata,
 * self-contained and within its budget, and the tool's result is the same as without apps.
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/** An app's page: at most 60 KB (a host downloads it with each conversation that shows it). */
const APP_BUDGET = 60 * 1024;

/** The tools with an app and the page each shows in. */
const APP_OF_TOOL = {
  compare_hotel_prices: 'ui://hotelrates/hotel-parity',
  get_hotel_calendar: 'ui://hotelrates/hotel-calendar',
  get_hotel_offers: 'ui://hotelrates/hotel-offers',
  get_stay_price: 'ui://hotelrates/hotel-offers',
  search_flights: 'ui://hotelrates/flights',
  get_return_flights: 'ui://hotelrates/flights',
  get_booking_options: 'ui://hotelrates/flights',
  search_hotels: 'ui://hotelrates/hotel-search',
};

/** What a page may load from elsewhere: only search_hotels' photos, from Google's image hosts. */
const IMAGE_ORIGINS: Record<string, string[]> = { 'ui://hotelrates/hotel-search': ['https://*.googleusercontent.com'] };

let svc: TestService;
let replay: ReplayServer;
let key: string;

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((date) => (date.endsWith('-10') ? null : 100 + Number(date.slice(8))))]);
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
  key = (await svc.key()).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const REVISIONS = {
  '2026-07-28': { versionNegotiation: { mode: { pin: '2026-07-28' as const } } },
  '2025-11-25': { supportedProtocolVersions: ['2025-11-25'] },
};

async function connect(revision: keyof typeof REVISIONS): Promise<Client> {
  const client = new Client({ name: 'apps-test', version: '1.0.0' }, REVISIONS[revision]);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

describe.each(Object.keys(REVISIONS) as (keyof typeof REVISIONS)[])('MCP Apps, revision %s', (revision) => {
  it('links each tool with an app to its ui:// page, served as text/html;profile=mcp-app, self-contained, within budget', async () => {
    const client = await connect(revision);
    expect(client.getServerCapabilities()?.resources).toEqual({});
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toHaveLength(18);
    // only tools with an app name one
    const linked = Object.fromEntries(tools.flatMap((t) => (getToolUiResourceUri(t) ? [[t.name, getToolUiResourceUri(t)]] : [])));
    expect(linked).toEqual(APP_OF_TOOL);
    for (const t of tools.filter((t) => linked[t.name])) expect(t._meta).toMatchObject({ ui: { resourceUri: linked[t.name] } });

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([...new Set(Object.values(APP_OF_TOOL))].sort());
    for (const resource of resources) {
      const csp = { connectDomains: [], resourceDomains: IMAGE_ORIGINS[resource.uri] ?? [] };
      expect(resource).toMatchObject({ mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp } } });
      const read = await client.readResource({ uri: resource.uri });
      const page = read.contents[0] as { uri: string; mimeType: string; text: string };
      expect(page).toMatchObject({ uri: resource.uri, mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp } } });
      expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(APP_BUDGET);
      expect(page.text).toMatch(/^<!doctype html>/);
      // self-contained: nothing to fetch (no src/href/url() pointing anywhere, no import)
      expect(page.text).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
      expect(page.text).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
    }
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    await client.close();
  });

  it('an unknown resource is the protocol error -32602 with its uri', async () => {
    const client = await connect(revision);
    const err = await client.readResource({ uri: 'ui://hotelrates/nothing' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
    expect((err as ProtocolError).data).toEqual({ uri: 'ui://hotelrates/nothing' });
    await client.close();
  });
});

it('the calendar tool answers the same structuredContent and text whether or not the client renders apps', async () => {
  const args = { property_token: 'ChkIq9DtnN2Sx7kBGg0vZy8xMWJ3cGh0c2JtEAE', start: '2027-03-01', days: 20, market: 'FR' };
  const plain = await connect('2025-11-25');
  const withApps = new Client(
    { name: 'apps-host', version: '1.0.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
  );
  await withApps.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  const [a, b] = [
    await plain.callTool({ name: 'get_hotel_calendar', arguments: args }),
    await withApps.callTool({ name: 'get_hotel_calendar', arguments: args }),
  ];
  const strip = (r: typeof a) =>
    JSON.parse(JSON.stringify({ ...r, _meta: undefined }).replace(/ratecol_[A-Za-z0-9]+|\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'X')) as unknown;
  expect(a.isError).toBeFalsy();
  expect(strip(a)).toEqual(strip(b));
  await plain.close();
  await withApps.close();
});
