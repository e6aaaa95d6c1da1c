/**
 * A booking link as a person opens it (issue 38): headless Chromium opens the GET link that
 * get_booking_options handed out, and the page it answers posts the seller's click-out form
 * (URL and post_data as the booking page stated them) from the browser, at once with script and
 * by its button without. The booking page here points its click-outs at the replay server, which
 * records the POST the browser sent and answers a seller's landing page.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, launchChromium, screenshot, skippedNote } from '../../helpers/browser.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS, type PagesInPlay } from '../../helpers/mcp-tool-calls.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { bookingPage } from '../../fixtures/flights-payloads.js';
import { PAGES } from '../../fixtures/hotels-payloads.js';
import type { ReplayServer } from '../../replay/server.js';

interface Ticket {
  book_with: string;
  booking_link: { url: string };
  booking_request: { url: string; post_data: string };
}

const suite = fixtureSuite(`a booking link opened in Chromium${skippedNote}`, ...TOOL_CALL_FIXTURES);
describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let browser: Browser;
  let tickets: Ticket[];
  const pages: PagesInPlay = { hotels: PAGES.london, flights: null };

  beforeAll(async () => {
    replay = await startToolCallReplay(pages);
    pages.booking = bookingPage(`${replay.url}/travel/clk/f`);
    svc = await startTestService(replayEnv(replay));
    const client = new Client({ name: 'booking-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': (await svc.key({ plan: 'scale' })).key } } }),
    );
    const earlier: Record<string, unknown> = {};
    for (const name of ['search_flights', 'get_return_flights', 'get_booking_options']) {
      const call = TOOL_CALLS.find((c) => c.name === name)!;
      earlier[name] = (await client.callTool({ name, arguments: callArguments(call, earlier, replay) })).structuredContent;
    }
    await client.close();
    tickets = (earlier.get_booking_options as { options: { tickets: Ticket[] }[] }).options.flatMap((o) => o.tickets);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await replay?.close();
  });

  /** The click-out POSTs the replay received since `from`, as form fields. */
  const posted = (from: number) =>
    replay.requests
      .slice(from)
      .filter((r) => r.method === 'POST' && r.path === '/travel/clk/f')
      .map((r) => [...new URLSearchParams(r.body)]);

  it("opens the link and the browser posts the seller's form to it at once", async () => {
    const ticket = tickets[0];
    expect(ticket.booking_request.url).toBe(`${replay.url}/travel/clk/f`);
    const from = replay.requests.length;
    const page = await browser.newPage();
    await page.goto(ticket.booking_link.url);
    // the form posts itself: the browser lands on the seller's page, having sent post_data
    await page.waitForURL(`${replay.url}/travel/clk/f`);
    await page.waitForFunction(() => document.title.startsWith('Seller'));
    expect(posted(from)).toEqual([[...new URLSearchParams(ticket.booking_request.post_data)]]);
    const request = replay.requests.slice(from).find((r) => r.path === '/travel/clk/f')!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    // the link page sent no referrer with it (the link's signature stays on this service)
    expect(request.headers.referer).toBeUndefined();
    await page.close();
  });

  it('without script, the page shows the seller and its expiry, and its button posts the same form', async () => {
    const ticket = tickets.find((t) => t.book_with === 'JetBlue')!;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const from = replay.requests.length;
    await page.goto(ticket.booking_link.url);
    const button = page.getByRole('button', { name: /^Continue to / });
    await button.waitFor();
    expect(await page.textContent('body')).toMatch(/This link expires at \d{4}-\d{2}-\d{2}T/);
    await screenshot(page, 'booking-link-no-script');
    expect(posted(from)).toEqual([]);
    await Promise.all([page.waitForURL(`${replay.url}/travel/clk/f`), button.click()]);
    expect(posted(from)).toEqual([[...new URLSearchParams(ticket.booking_request.post_data)]]);
    await context.close();
  });
});
