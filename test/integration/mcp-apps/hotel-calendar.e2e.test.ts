/**
 * The get_hotel_calendar app as a person sees it in a chat host: its ui:// page, read over MCP,
 * rendered in headless Chromium by the SDK's host side (test/helpers/app-host.ts) with the
 * structuredContent of a real call over the replayed calendar RPC; at a desktop's and a phone's
 * width, light and dark, with no console error, no request anywhere, no serious axe-core finding,
 * and the night it stars as the cheapest the one the tool answered.
 */
import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, skippedNote } from '../../helpers/browser.js';
import { startAppScene, THEMES, WIDTHS, type AppHost, type AppScene } from '../../helpers/app-host.js';
import { calendarRoute, type Pricer } from '../../helpers/calendar-replay.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const START = '2027-03-01';
const ARGS = { property_token: 'ChkIq9DtnN2Sx7kBGg0vZy8xMWJ3cGh0c2JtEAE', start: START, days: 45, market: 'FR' };

// weekends dearer, a slow rise through the spring; 03-10 and 03-22 not sold, 03-05/06 only as 2 nights
const pricer: Pricer = (date, los) => {
  const i = Math.round((Date.parse(date) - Date.parse(START)) / 86_400_000);
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (date === '2027-03-10' || date === '2027-03-22') return null;
  if (date === '2027-03-05' || date === '2027-03-06') return los >= 2 ? 290 * los : null;
  return (118 + (weekday === 5 || weekday === 6 ? 46 : 0) + ((i * 7) % 23) + Math.floor(i / 3)) * los;
};

const suite = fixtureSuite(`get_hotel_calendar's MCP App in headless Chromium${skippedNote}`, 'google-hotels/travel-search-paris-budget.html');

describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let scene: AppScene;
  let client: Client;
  let host: AppHost;
  let page: { html: string; csp: McpUiResourceCsp };

  beforeAll(async () => {
    replay = await startReplayServer([calendarRoute(pricer)]);
    scene = await startAppScene({ replay, env: { UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' }, tool: 'get_hotel_calendar' });
    ({ client, page, host } = scene);
  });
  afterAll(() => scene?.close());

  it('renders every night of the answer in month grids, light and dark, 1280 and 360 px wide: the starred night is the tool’s cheapest', async () => {
    const result = (await client.callTool({ name: 'get_hotel_calendar', arguments: { ...ARGS, nights: 'list' } })) as CallToolResult;
    const answer = result.structuredContent as { cheapest: { date: string; rate_total: number }[]; priced: number; unavailable: string[] };
    expect(answer.priced).toBe(43);
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const app = await host.open({ ...page, theme, width, args: { ...ARGS, nights: 'list' }, result });
        const starred = app.frame.locator('td[data-rank="1"]');
        expect(await starred.getAttribute('data-date')).toBe(answer.cheapest[0].date);
        expect(Number(await starred.getAttribute('data-price'))).toBe(answer.cheapest[0].rate_total);
        expect(await app.frame.locator('[data-cheapest]').getAttribute('data-cheapest')).toBe(answer.cheapest[0].date);
        expect(await app.frame.locator('td.priced').count()).toBe(answer.priced);
        expect(await app.frame.locator('td.none').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-date')))).toEqual(answer.unavailable);
        expect(await app.frame.locator('td[data-date="2027-03-05"] .m').textContent()).toBe('min 2');
        // nothing wider than the frame
        expect(await app.frame.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await app.shot(`apps-hotel-calendar-${width}-${theme}`);
        expect(await app.axe()).toEqual([]);
        expect(app.errors).toEqual([]);
        expect(app.foreign).toEqual([]);
        await app.page.close();
      }
    }
  });

  it('from the default summary: the keyboard switches to the weekly statistics, and “every night” asks the host to call the tool with nights "list"', async () => {
    const result = (await client.callTool({ name: 'get_hotel_calendar', arguments: ARGS })) as CallToolResult;
    const answer = result.structuredContent as { priced: number; periods: unknown[]; nights?: unknown[] };
    expect(answer.nights).toBeUndefined();
    const app = await host.open({ ...page, theme: 'light', width: 360, args: ARGS, result, client });
    // only the cheapest nights carry a price in the summary
    expect(await app.frame.locator('td.priced').count()).toBe(5);

    await app.frame.getByRole('button', { name: 'Calendar' }).focus();
    await app.page.keyboard.press('Tab');
    await app.page.keyboard.press('Enter');
    expect(await app.frame.locator('table.periods tbody tr').count()).toBe(answer.periods.length);
    expect(await app.frame.getByRole('button', { name: 'By week' }).getAttribute('aria-pressed')).toBe('true');
    await app.shot('apps-hotel-calendar-360-light-weeks');

    await app.frame.getByRole('button', { name: 'Calendar' }).click();
    await app.frame.getByRole('button', { name: /every night/ }).click();
    await app.frame.locator(`td.priced >> nth=${answer.priced - 1}`).waitFor();
    expect(await app.frame.locator('td.priced').count()).toBe(answer.priced);
    expect(app.calls).toEqual([{ name: 'get_hotel_calendar', arguments: { ...ARGS, nights: 'list' } }]);
    expect(app.errors).toEqual([]);
    expect(app.foreign).toEqual([]);
    await app.page.close();
  });
});
