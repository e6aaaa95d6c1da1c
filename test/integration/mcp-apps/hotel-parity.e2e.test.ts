/**
 * The compare_hotel_prices app in headless Chromium inside the SDK's host side
 * (test/helpers/app-host.ts), fed a real comparison over the replayed official booking engine and
 * OTAs: the verdict it shows is the tool's parity, each seller's total is the tool's, the official
 * site is marked; 1280 and 360 px, light and dark, no console error, no request, no serious axe finding.
 */
import type { Client, CallToolResult } from '@modelcontextprotocol/client';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, skippedNote } from '../../helpers/browser.js';
import { readAppPage, startAppHost, THEMES, WIDTHS, type AppHost } from '../../helpers/app-host.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { asRental, BEDS24_AVAILABILITY, HOTEL_SITE_BEDS24 } from '../../fixtures/ota-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite(`compare_hotel_prices's MCP App in headless Chromium${skippedNote}`, OFFERS);

describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let h: Harness;
  let client: Client;
  let host: AppHost;
  let page: { html: string; csp: McpUiResourceCsp };
  let args: Record<string, unknown>;

  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    // the rental site sells the stay below the hotel's own site
    const cheaperRental = asRental(offers);
    cheaperRental.data.propertyOffers.singleUnitOffer.ratePlans[0].priceDetails[0].price.total.amount = 180.25;
    h = await startHarness([
      { path: '/site/inn', body: HOTEL_SITE_BEDS24 },
      {
        method: 'POST',
        path: '/engines/beds24/json/getAvailabilities',
        reply: (req) => {
          const { checkIn, checkOut } = JSON.parse(req.body);
          return { ...BEDS24_AVAILABILITY, checkIn, checkOut, lastNight: undefined };
        },
      },
      { method: 'POST', path: '/otathree/graphql', body: [offers] },
      { method: 'POST', path: '/otatwo/graphql', body: offers },
      { method: 'POST', path: '/rentalone/graphql', body: [cheaperRental] },
      { path: '/otafour/api/cronos/property/BelowFoldParams/GetSecondaryData', status: 500, body: 'down' },
    ]);
    args = {
      check_in: S('2023-06-04'),
      nights: 10,
      adults: 2,
      currency: 'USD',
      timeout_s: 10,
      sources: {
        official: { website: `${h.replay.url}/site/inn`, currency: 'USD', taxes_included: true },
        otatwo: { property_id: '9209612' },
        otathree: { property_id: '9209612' },
        otafour: { property_id: '2454174' },
        rentalone: { property_id: '9209612' },
      },
    };
    client = await h.mcp();
    page = await readAppPage(client, 'compare_hotel_prices');
    host = await startAppHost();
  });
  afterAll(async () => {
    await host?.close();
    await client?.close();
    await h?.close();
  });

  it('shows the tool’s parity verdict and every seller’s total, light and dark, 1280 and 360 px wide', async () => {
    const result = (await client.callTool({ name: 'compare_hotel_prices', arguments: args })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      parity: { status: string; undercuts: { source: string }[] };
      offers: { source: string; total: number | null }[];
      sources: { source: string; status: string }[];
    };
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const app = await host.open({ ...page, theme, width, args, result });
        expect(await app.frame.locator('.verdict').getAttribute('data-status')).toBe(answer.parity.status);
        if (answer.parity.status === 'undercut') expect(await app.frame.locator('.verdict').textContent()).toContain('Vrbo');
        for (const offer of answer.offers) {
          const row = app.frame.locator(`tr[data-source="${offer.source}"]`);
          expect(await row.count()).toBe(1);
          if (offer.total !== null) expect(Number((await row.locator('td.num').first().textContent())!.replace(/[^\d.]/g, ''))).toBe(offer.total);
        }
        expect(await app.frame.locator('tr.failed').count()).toBe(answer.sources.filter((s) => s.status === 'error').length);
        expect(await app.frame.locator('tr[data-source="official"] .badge.own').count()).toBe(1);
        expect(await app.frame.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await app.shot(`apps-hotel-parity-${width}-${theme}`);
        expect(await app.axe()).toEqual([]);
        expect(app.errors).toEqual([]);
        expect(app.foreign).toEqual([]);
        await app.page.close();
      }
    }
  });
});
