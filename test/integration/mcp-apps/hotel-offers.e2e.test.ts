/**
 * The get_hotel_offers / get_stay_price app in headless Chromium inside the SDK's host side
 * (test/helpers/app-host.ts), fed real calls over the replayed Google Hotels property page: every
 * seller under its own name with the tool's total, the cheapest starred, the official site marked,
 * free cancellation as the tool states it, and a Book button whose link the host is asked to open
 * (ui/open-link); the stay price with its cheapest seller, and its button that has the host call
 * get_hotel_offers. 1280 and 360 px, light and dark, no console error, no request, no serious axe finding.
 */
import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, skippedNote } from '../../helpers/browser.js';
import { expectShown, readAppPage, startAppScene, THEMES, WIDTHS, type AppHost, type AppScene } from '../../helpers/app-host.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS } from '../../helpers/mcp-tool-calls.js';
import type { ReplayServer } from '../../replay/server.js';

interface Offer {
  source: string;
  raw_source: string;
  is_official: boolean;
  total: number | null;
  has_free_cancellation: boolean | null;
  free_cancellation_until: string | null;
  link: string | null;
}

const suite = fixtureSuite(`get_hotel_offers's and get_stay_price's MCP App in headless Chromium${skippedNote}`, ...TOOL_CALL_FIXTURES);

describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let scene: AppScene;
  let client: Client;
  let host: AppHost;
  let page: { html: string; csp: McpUiResourceCsp };
  const argsOf = (name: string) =>
    callArguments(
      TOOL_CALLS.find((c) => c.name === name)!,
      {},
      replay,
    );

  beforeAll(async () => {
    replay = await startToolCallReplay();
    scene = await startAppScene({ replay, env: replayEnv(replay), tool: 'get_hotel_offers' });
    ({ client, page, host } = scene);
    expect(await readAppPage(client, 'get_stay_price')).toEqual(page);
  });
  afterAll(() => scene?.close());

  it('shows every seller of get_hotel_offers with its total, the cheapest starred, the official site marked; Book asks the host to open the seller', async () => {
    const args = argsOf('get_hotel_offers');
    const result = (await client.callTool({ name: 'get_hotel_offers', arguments: args })) as CallToolResult;
    const offers = (result.structuredContent as { offers: Offer[] }).offers;
    expect(offers.length).toBeGreaterThan(2);
    const cheapest = Math.min(...offers.flatMap((o) => (o.total === null ? [] : [o.total])));
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const app = await host.open({ ...page, theme, width, args, result });
        for (const offer of offers) {
          const row = app.frame.locator(`tr[data-source="${offer.source}"]`);
          expect(await row.locator('th').textContent()).toContain(offer.raw_source);
          if (offer.total !== null) expect(Number((await row.locator('td.total').textContent())!.replace(/[^\d.]/g, ''))).toBe(offer.total);
          expect(await row.locator('.badge.own').count()).toBe(offer.is_official ? 1 : 0);
          expect(await row.locator('.badge.best').count()).toBe(offer.total === cheapest ? 1 : 0);
          const cancel = await row.locator('td.cancel').textContent();
          if (offer.has_free_cancellation) expect(cancel).toContain(`free until ${offer.free_cancellation_until}`);
          else expect(cancel).toBe(offer.has_free_cancellation === null ? 'not stated' : 'not free');
        }
        // rows cheapest first
        const totals = await app.frame.locator('td.total').evaluateAll((tds) => tds.map((td) => Number(td.textContent!.replace(/[^\d.]/g, ''))));
        expect(totals).toEqual([...totals].sort((a, b) => a - b));
        await expectShown(app, `apps-hotel-offers-${width}-${theme}`);
        await app.page.close();
      }
    }

    const app = await host.open({ ...page, theme: 'light', width: 360, args, result });
    const official = offers.find((o) => o.is_official)!;
    await app.frame.getByRole('button', { name: `Book on ${official.raw_source}` }).click();
    await expect.poll(() => app.links, { timeout: 30_000 }).toEqual([official.link]);
    await app.page.close();
  });

  it('shows get_stay_price’s total and cheapest seller; “Compare every seller” has the host call get_hotel_offers for the same stay', async () => {
    const args = argsOf('get_stay_price');
    const result = (await client.callTool({ name: 'get_stay_price', arguments: args })) as CallToolResult;
    const stay = result.structuredContent as { price: { total: { amount: number } }; cheapest_seller: { source: string; raw_source: string; link: string } };
    for (const [width, theme] of [
      [1280, 'light'],
      [360, 'dark'],
    ] as const) {
      const app = await host.open({ ...page, theme, width, args, result, client });
      expect(Number((await app.frame.locator('.headline .big').textContent())!.replace(/[^\d.]/g, ''))).toBe(stay.price.total.amount);
      expect(await app.frame.locator('.cheapest').getAttribute('data-source')).toBe(stay.cheapest_seller.source);
      await expectShown(app, `apps-stay-price-${width}-${theme}`);
      if (theme === 'dark') {
        await app.frame.getByRole('button', { name: `Book on ${stay.cheapest_seller.raw_source}` }).click();
        await expect.poll(() => app.links, { timeout: 30_000 }).toEqual([stay.cheapest_seller.link]);
        await app.frame.getByRole('button', { name: 'Compare every seller' }).click();
        await app.frame.locator('table.sellers').waitFor();
        expect(app.calls).toEqual([{ name: 'get_hotel_offers', arguments: args }]);
        expect(await app.frame.locator('tr[data-source]').count()).toBeGreaterThan(2);
        await expectShown(app, 'apps-stay-price-360-dark-sellers');
      }
      await app.page.close();
    }
  });
});
