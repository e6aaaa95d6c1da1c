/**
 * The search_flights / get_return_flights / get_booking_options app in headless Chromium inside
 * the SDK's host side (test/helpers/app-host.ts), fed real calls over the replayed Google Flights
 * pages: each itinerary with the tool's whole-trip price and its legs; the next step asked of the
 * host (get_return_flights, then get_booking_options with the itinerary's token); each booking
 * option's total, and a Book button whose signed link the host opens: followed in Chromium, the
 * link's page posts the seller's form, which reaches the replay. 1280 and 360 px, light and dark,
 * no console error, no request, no serious axe finding.
 */
import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, skippedNote } from '../../helpers/browser.js';
import { expectShown, readAppPage, startAppScene, THEMES, WIDTHS, type AppHost, type AppScene } from '../../helpers/app-host.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS, type PagesInPlay } from '../../helpers/mcp-tool-calls.js';
import { bookingPage } from '../../fixtures/flights-payloads.js';
import { PAGES } from '../../fixtures/hotels-payloads.js';
import type { ReplayServer } from '../../replay/server.js';

interface Flights {
  flights: { price: number | null; best?: true; legs: unknown[]; departure_token?: string; booking_token?: string }[];
}
interface Options {
  options: { total: number | null; tickets: { book_with: string; booking_link?: { url: string }; booking_request: { url: string; post_data?: string } }[] }[];
}

const suite = fixtureSuite(`the flights MCP App in headless Chromium${skippedNote}`, ...TOOL_CALL_FIXTURES);

describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let scene: AppScene;
  let client: Client;
  let host: AppHost;
  let page: { html: string; csp: McpUiResourceCsp };
  const pages: PagesInPlay = { hotels: PAGES.london, flights: null };
  const earlier: Record<string, { args: Record<string, unknown>; result: CallToolResult }> = {};
  const numberIn = (text: string | null) => Number(text!.replace(/[^\d.]/g, ''));

  beforeAll(async () => {
    replay = await startToolCallReplay(pages);
    // the booking page's click-outs post to the replay, which answers a seller's landing page
    pages.booking = bookingPage(`${replay.url}/travel/clk/f`);
    scene = await startAppScene({ replay, env: replayEnv(replay), tool: 'search_flights', key: { plan: 'scale' } });
    ({ client, page, host } = scene);
    for (const name of ['get_return_flights', 'get_booking_options']) expect(await readAppPage(client, name)).toEqual(page);
    const structured = Object.fromEntries(Object.entries(earlier).map(([k, v]) => [k, v.result.structuredContent]));
    for (const name of ['search_flights', 'get_return_flights', 'get_booking_options']) {
      const args = callArguments(
        TOOL_CALLS.find((c) => c.name === name)!,
        structured,
        replay,
      );
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      earlier[name] = { args, result };
      structured[name] = result.structuredContent;
    }
  });
  afterAll(() => scene?.close());

  it('shows each itinerary of search_flights with the tool’s price and legs, light and dark, 1280 and 360 px', async () => {
    const { args, result } = earlier.search_flights;
    const answer = result.structuredContent as unknown as Flights;
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const app = await host.open({ ...page, theme, width, args, result });
        const cards = app.frame.locator('li.itinerary');
        expect(await cards.count()).toBe(answer.flights.length);
        for (const [n, f] of answer.flights.entries()) {
          const card = cards.nth(n);
          if (f.price !== null) expect(numberIn(await card.locator('.price').textContent())).toBe(f.price);
          expect(await card.locator('li.leg').count()).toBe(f.legs.length);
          expect(await card.locator('.badge.best').count()).toBe(f.best ? 1 : 0);
        }
        await expectShown(app, `apps-flights-${width}-${theme}`);
        await app.page.close();
      }
    }
  });

  it('asks the host for the return flights, then the booking options, with the itineraries’ tokens', async () => {
    const { args, result } = earlier.search_flights;
    const outbound = (result.structuredContent as unknown as Flights).flights;
    const app = await host.open({ ...page, theme: 'light', width: 360, args, result, client });
    await app.frame.locator('li.itinerary').first().getByRole('button', { name: 'Choose a return flight' }).click();
    await app.frame.getByRole('heading', { name: /^Return flights/ }).waitFor();
    expect(app.calls).toEqual([{ name: 'get_return_flights', arguments: { departure_token: outbound[0].departure_token } }]);
    const back = (earlier.get_return_flights.result.structuredContent as unknown as Flights).flights;
    expect(await app.frame.locator('li.itinerary').count()).toBe(back.length);
    await expectShown(app, 'apps-flights-360-light-return');

    await app.frame.locator('li.itinerary').first().getByRole('button', { name: 'Booking options' }).click();
    await app.frame.getByRole('heading', { name: /^Booking options/ }).waitFor();
    expect(app.calls[1]).toEqual({ name: 'get_booking_options', arguments: { booking_token: expect.any(String) } });
    expect(back[0].booking_token).toBeTruthy();
    await app.frame.getByRole('button', { name: '← Back' }).click();
    await app.frame.getByRole('heading', { name: /^Return flights/ }).waitFor();
    expect(app.errors).toEqual([]);
    expect(app.foreign).toEqual([]);
    await app.page.close();
  });

  it('shows each booking option’s total; its Book button has the host open the signed link, whose page posts the seller’s form to the replay', async () => {
    const { args, result } = earlier.get_booking_options;
    const answer = result.structuredContent as unknown as Options;
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const app = await host.open({ ...page, theme, width, args, result });
        const cards = app.frame.locator('li.option');
        expect(await cards.count()).toBe(answer.options.length);
        for (const [n, o] of answer.options.entries()) {
          if (o.total !== null) expect(numberIn(await cards.nth(n).locator('.price').textContent())).toBe(o.total);
          expect(await cards.nth(n).locator('button.book').count()).toBe(o.tickets.filter((t) => t.booking_link).length);
        }
        await expectShown(app, `apps-flight-booking-${width}-${theme}`);
        await app.page.close();
      }
    }

    const ticket = answer.options[0].tickets[0];
    expect(ticket.booking_request.url).toBe(`${replay.url}/travel/clk/f`);
    const app = await host.open({ ...page, theme: 'light', width: 1280, args, result });
    await app.frame
      .locator('li.option')
      .first()
      .getByRole('button', { name: `Book with ${ticket.book_with}` })
      .click();
    await expect.poll(() => app.links, { timeout: 30_000 }).toEqual([ticket.booking_link!.url]);
    // the host opens the link as a person's browser does: the page posts the seller's form from it
    const from = replay.requests.length;
    const tab = await host.browser.newPage();
    await tab.goto(app.links[0]);
    await tab.waitForURL(`${replay.url}/travel/clk/f`);
    const posted = replay.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/travel/clk/f');
    expect(posted.map((r) => [...new URLSearchParams(r.body)])).toEqual([[...new URLSearchParams(ticket.booking_request.post_data)]]);
    await tab.close();
    await app.page.close();
  });
});
