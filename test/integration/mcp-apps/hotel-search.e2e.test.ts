/**
 * The search_hotels app in headless Chromium inside the SDK's host side (test/helpers/app-host.ts),
 * fed a real search over the replayed Google Hotels result page with a photo per property: one
 * card per property with the tool's stay price, the photos loaded only from the image hosts its CSP
 * declares (the harness answers them), "Sellers and prices" has the host call get_hotel_offers for
 * the property and shows its sellers, "Website" asks the host to open the property's site.
 * 1280 and 360 px, light and dark, no console error, no other request, no serious axe finding.
 */
import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, skippedNote } from '../../helpers/browser.js';
import { expectShown, startAppScene, THEMES, WIDTHS, type AppHost, type AppScene } from '../../helpers/app-host.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS } from '../../helpers/mcp-tool-calls.js';
import type { ReplayServer } from '../../replay/server.js';

interface Search {
  check_in: string;
  check_out: string;
  adults: number;
  properties: {
    property_token: string | null;
    name: string;
    link: string | null;
    price: { total: number | null; currency: string | null } | null;
    images?: string[];
  }[];
}

const suite = fixtureSuite(`search_hotels's MCP App in headless Chromium${skippedNote}`, ...TOOL_CALL_FIXTURES);

describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let client: Client;
  let host: AppHost;
  let page: { html: string; csp: McpUiResourceCsp };
  let args: Record<string, unknown>;
  let result: CallToolResult;
  let answer: Search;

  let scene: AppScene;

  beforeAll(async () => {
    replay = await startToolCallReplay();
    scene = await startAppScene({ replay, env: replayEnv(replay), tool: 'search_hotels' });
    ({ client, page, host } = scene);
    args = {
      ...callArguments(
        TOOL_CALLS.find((c) => c.name === 'search_hotels')!,
        {},
        replay,
      ),
      images_per_property: 1,
    };
    result = (await client.callTool({ name: 'search_hotels', arguments: args })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    answer = result.structuredContent as unknown as Search;
  });
  afterAll(() => scene?.close());

  it('shows a card per property with the tool’s price and its photo from the declared image hosts, light and dark, 1280 and 360 px', async () => {
    expect(page.csp.resourceDomains).toEqual(['https://*.googleusercontent.com']);
    const onGoogle = answer.properties.filter((p) => p.images?.some((u) => new URL(u).hostname.endsWith('.googleusercontent.com')));
    expect(onGoogle.length).toBeGreaterThan(answer.properties.length / 2);
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const app = await host.open({ ...page, theme, width, args, result });
        const cards = app.frame.locator('li.hotel');
        expect(await cards.count()).toBe(answer.properties.length);
        for (const [n, p] of answer.properties.entries()) {
          expect(await cards.nth(n).locator('h2').textContent()).toBe(p.name);
          if (p.price?.total != null)
            expect(Number((await cards.nth(n).locator('.total').textContent())!.replace(/[^\d.]/g, ''))).toBeCloseTo(p.price.total, 2);
        }
        expect(await app.frame.locator('li.hotel img').count()).toBe(onGoogle.length);
        // the first photo loaded, from a declared host (the harness answered it; the rest load lazily)
        await app.frame.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('li.hotel img');
          return !!img && img.complete && img.naturalWidth > 0;
        });
        expect(app.images.length).toBeGreaterThan(0);
        await expectShown(app, `apps-hotel-search-${width}-${theme}`);
        await app.page.close();
      }
    }
  });

  it('“Sellers and prices” has the host call get_hotel_offers for the property and the stay; “Website” has it open the property’s site', async () => {
    const first = answer.properties[0];
    const app = await host.open({ ...page, theme: 'dark', width: 360, args, result, client });
    const card = app.frame.locator('li.hotel').first();
    await card.getByRole('button', { name: `Website of ${first.name}` }).click();
    await expect.poll(() => app.links, { timeout: 30_000 }).toEqual([first.link]);
    await card.getByRole('button', { name: 'Sellers and prices' }).click();
    await app.frame.locator('table.sellers').waitFor();
    expect(app.calls).toEqual([
      {
        name: 'get_hotel_offers',
        arguments: {
          property_token: first.property_token,
          check_in: answer.check_in,
          check_out: answer.check_out,
          adults: answer.adults,
          property_name: first.name,
          currency: first.price!.currency,
        },
      },
    ]);
    expect(await app.frame.locator('tr[data-source]').count()).toBeGreaterThan(2);
    await expectShown(app, 'apps-hotel-search-360-dark-sellers');
    await app.frame.getByRole('button', { name: '← All hotels' }).click();
    expect(await app.frame.locator('li.hotel').count()).toBe(answer.properties.length);
    await app.page.close();
  });
});
