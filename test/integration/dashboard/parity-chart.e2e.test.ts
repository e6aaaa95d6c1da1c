import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_SUITE,
  DESKTOP,
  PHONE,
  hasChromium,
  horizontalOverflow,
  launchChromium,
  lowContrastText,
  screenshot,
  skippedNote,
} from '../../helpers/browser.js';
import { shiftFrom } from '../../helpers/dates.js';
import { dashboardAccountWithKey, firstSignIn } from '../../helpers/dashboard-sign-in.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { waitFor } from '../../helpers/wait.js';
import { siteminderScaledRoute } from '../../fixtures/official-engine-payloads.js';
import { HOTEL_SITE_SITEMINDER, asRental } from '../../fixtures/ota-payloads.js';

/**
 * Issue 42 defect 7 in the browser: a compare watch's page charts the official site's price
 * beside the cheapest at every check that compared one (the official engine's replies in its
 * documented shape times a factor per check, against the recorded agency replies), with its
 * legend, at 1280 and 390 px, nothing wider than the screen, contrast at least 4.5:1.
 */
const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const S = shiftFrom('2023-06-04');
const EMAIL = 'parity-chart@example.com';
const PASSWORD = 'a long passphrase of my own';
const suite = fixtureSuite('the parity watch chart in headless Chromium', OFFERS);

describe.skipIf(!hasChromium)(`${suite.title}${skippedNote}`, BROWSER_SUITE, () => {
  let h: Harness;
  let browser: Browser;
  let key: string;
  let temporary: string;
  let watchId: string;
  /** The official site's quotes are the recorded-shape SiteMinder replies times this. */
  let officialFactor = 1;

  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    const rental = asRental(offers);
    rental.data.propertyOffers.singleUnitOffer.ratePlans[0].priceDetails[0].price.total.amount = 700.5;
    h = await startHarness([
      { path: '/site/sm', body: HOTEL_SITE_SITEMINDER },
      siteminderScaledRoute(() => officialFactor),
      { method: 'POST', path: '/otatwo/graphql', body: offers },
      { method: 'POST', path: '/rentalone/graphql', body: [rental] },
    ]);
    ({ temporary, key } = await dashboardAccountWithKey(h.svc.deps.sql, { email: EMAIL, plan: 'starter' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const api = async (path: string, body?: unknown) => {
    const res = await h.svc.call(path, { key, body, method: body === undefined ? 'GET' : 'POST' });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as any;
  };

  it('charts the official site’s price beside the cheapest at every check that compared it', async () => {
    const created = await api('/v1/watches', {
      target: {
        operation: 'compare',
        check_in: S('2023-06-04'),
        nights: 10,
        adults: 2,
        currency: 'USD',
        sources: {
          official: { website: `${h.replay.url}/site/sm`, currency: 'USD' },
          otatwo: { property_id: '9209612' },
          rentalone: { property_id: '9209612' },
        },
      },
      rule: { type: 'undercut' },
      name: 'Parity, June stay',
    });
    watchId = created.id;
    await waitFor(async () => ((await api(`/v1/watches/${watchId}`)).checks_total ? true : null), { what: 'the first check' });
    // the official price climbs past the cheapest agency, then comes back
    for (const f of [1.5, 2, 3, 2.5, 1.2]) {
      officialFactor = f;
      await api(`/v1/watches/${watchId}/check`, {});
    }
    const { checks } = await api(`/v1/watches/${watchId}/checks`);
    const official = checks.map((c: any) => c.parity?.official?.total ?? null);
    expect(official.filter((t: number | null) => t !== null)).toHaveLength(6);
    // the checks ran seconds apart: spread them 12 hours apart (newest now), as a twice-daily watch's are
    await h.svc.deps.sql`UPDATE watch_checks c SET created_at = now() - make_interval(hours => (12 * o.n)::int)
      FROM (SELECT id, row_number() OVER (ORDER BY created_at DESC, id DESC) - 1 AS n FROM watch_checks WHERE watch_id = ${watchId}) o
      WHERE c.id = o.id`;

    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await firstSignIn(page, h.svc.url, { email: EMAIL, temporary, password: PASSWORD });
    await page.goto(`${h.svc.url}/dashboard/watches/${watchId}`);
    await expect(page.locator('.chart svg.wide g.official').count()).resolves.toBe(6);
    await expect(page.locator('.chart svg.wide circle').count()).resolves.toBe(6);
    await expect(page.locator('.chart .legend').first().textContent()).resolves.toContain('Official site');
    // each official mark names its price; the highest is the 3× quote
    const tips = await page.locator('.chart svg.wide g.official title').allTextContents();
    expect(tips.map((t) => Number(/official site ([\d,.]+)/.exec(t)![1].replace(/,/g, '')))).toEqual([...official].reverse());
    // the page's CSV download is every check, as the API's CSV of them (parity columns filled for a compare watch)
    const href = await page.locator('a', { hasText: 'Download CSV' }).getAttribute('href');
    expect(href).toBe(`/dashboard/watches/${watchId}/checks.csv`);
    const download = await page.request.get(h.svc.url + href);
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const lines = parse(await download.text(), { columns: true }) as Record<string, string>[];
    const fromApi = await (await h.svc.call(`/v1/watches/${watchId}/checks?format=csv`, { key })).text();
    expect(lines).toEqual(parse(fromApi, { columns: true }));
    expect(lines.map((l) => Number(l.parity_official_total))).toEqual(official);
    expect(lines.map((l) => l.parity_status)).toContain('undercut');
    await page.context().close();
  });

  for (const [viewport, size] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`at ${viewport} px: the parity chart fits, its text readable`, async () => {
      const page = await (await browser.newContext({ viewport: size })).newPage();
      await page.goto(h.svc.url + '/dashboard/sign-in');
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForURL('**/dashboard/api');
      await page.goto(`${h.svc.url}/dashboard/watches/${watchId}`);
      await expect(page.locator(`.chart svg.${viewport === '390' ? 'narrow' : 'wide'} g.official`).count()).resolves.toBe(6);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await lowContrastText(page)).toEqual([]);
      await screenshot(page, `dashboard-watch-parity-${viewport}`);
      await page.context().close();
    });
  }
});
