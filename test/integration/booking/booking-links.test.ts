/**
 * Booking links (issue 38): get_booking_options over MCP gives each POST click-out a signed,
 * short-lived GET link on this service; opening it (no key) answers a self-submitting form with
 * the upstream's post_data; a changed signature is 404. Totals are for the whole itinerary.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS } from '../../helpers/mcp-tool-calls.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import type { ReplayServer } from '../../replay/server.js';
import { openBookingLink } from '../../../src/platform/booking-links.js';

const suite = fixtureSuite('booking links of get_booking_options', ...TOOL_CALL_FIXTURES);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let client: Client;
  beforeAll(async () => {
    replay = await startToolCallReplay();
    svc = await startTestService(replayEnv(replay));
    const key = (await svc.key({ plan: 'scale' })).key;
    client = new Client({ name: 'booking', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  });
  afterAll(async () => {
    await client?.close();
    await svc?.close();
    await replay?.close();
  });

  it('every POST click-out gets a GET link that opens a self-submitting form; totals cover the whole itinerary', async () => {
    const earlier: Record<string, unknown> = {};
    for (const name of ['search_flights', 'get_return_flights', 'get_booking_options']) {
      const call = TOOL_CALLS.find((c) => c.name === name)!;
      earlier[name] = (await client.callTool({ name, arguments: callArguments(call, earlier, replay) })).structuredContent;
    }
    const view = earlier.get_booking_options as {
      options: {
        total: number;
        separate_tickets?: true;
        tickets: { price: number; booking_link: { url: string; expires_at: string }; booking_request: { url: string; post_data: string } }[];
      }[];
    };
    expect(view.options.map((o) => o.total)).toEqual([1987, 2010, 1871]);
    expect(view.options[2].separate_tickets).toBe(true);
    const ticket = view.options[0].tickets[0];
    expect(ticket.booking_link.url).toMatch(new RegExp(`^${svc.url}/v1/book/[A-Za-z0-9_-]{22}\\?e=\\d+&s=[A-Za-z0-9_-]{22}$`));
    expect(Date.parse(ticket.booking_link.expires_at) - Date.now()).toBeGreaterThan(50 * 60_000);
    expect(ticket.booking_link.url).not.toContain('sk_');
    const page = await fetch(ticket.booking_link.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`action="${ticket.booking_request.url}"`);
    for (const [k, v] of new URLSearchParams(ticket.booking_request.post_data)) expect(html).toContain(`name="${k}" value="${v}"`);
    expect(html).toContain('expires at');
    // a changed signature or id opens nothing
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    expect((await fetch(ticket.booking_link.url.replace(/s=(.)/, (_m, c: string) => `s=${flip(c)}`))).status).toBe(404);
    expect((await fetch(ticket.booking_link.url.replace(/book\/(.)/, (_m, c: string) => `book/${flip(c)}`))).status).toBe(404);
    // past its expiry the same link is refused as expired (the route answers 410), not as unknown
    const link = new URL(ticket.booking_link.url);
    const id = link.pathname.split('/').pop()!;
    const later = new Date(Date.parse(ticket.booking_link.expires_at) + 1000);
    expect(await openBookingLink(svc.deps.sql, id, link.searchParams.get('e')!, link.searchParams.get('s')!, later)).toEqual({ status: 'expired' });
  });
});
