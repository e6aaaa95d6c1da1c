import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountForSignIn, createDashboardAccount, type IssuedAccount } from '../../../src/doors/dashboard/accounts.js';
import { createAccountKey } from '../../../src/doors/dashboard/api-key.js';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { BROWSER_SUITE, DESKTOP, PHONE, dashboardPageProblems, hasChromium, launchChromium, screenshot, skippedNote } from '../../helpers/browser.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { firstSignIn } from '../../helpers/dashboard-sign-in.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * The comp-set pages in headless Chromium at 1280 px and 390 px: the account's sets, and a set's
 * rate shop as a heat-map (per check-in date × length of stay: the own price, the competitors'
 * median, the rank, the difference), each cell equal to GET /v1/compsets/{id}/shops/{shop_id};
 * the dashboard's CSV download equal to the API's; nothing wider than the screen, contrast at
 * least 4.5:1, no serious axe-core finding; another account's set is a 404 page.
 */
const EMAIL = 'revenue-sets@example.com';
const PASSWORD = 'a long passphrase of my own';
const OWN = 'dash-own-hotel-01';
const RIVALS = ['dash-rival-a-0001', 'dash-rival-b-0002', 'dash-rival-c-0003', 'dash-rival-d-0004'];
const LENGTHS = [1, 2, 3];
const DAYS = 14;

/** Moves the own hotel's prices between shops. */
let moved = 0;
function price(date: string, los: number, token: string): number | null {
  const day = Number(date.slice(8));
  if (token === OWN) return day % 7 === 3 ? null : (84 + ((day * 7) % 40) + moved) * los; // sold out one night a week
  if (token === RIVALS[3] && day % 4 === 0) return null;
  return (90 + 8 * RIVALS.indexOf(token) + (day % 5)) * los;
}

let svc: TestService;
let replay: ReplayServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let issued: IssuedAccount;
let key: string;

const api = async (path: string, body?: unknown) => {
  const res = await svc.call(path, { key, body });
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as any;
};
const finished = (pollUrl: string) =>
  waitFor(
    async () => {
      const s = await api(pollUrl);
      return s.finished_at ? s : null;
    },
    { what: pollUrl, timeoutMs: 120_000 },
  );

describe.skipIf(!hasChromium)(`Comp-set heat-map in headless Chromium${skippedNote}`, BROWSER_SUITE, () => {
  let setId: string;
  let shop: any;

  beforeAll(async () => {
    replay = await startReplayServer([calendarRoute(price)]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', WORKER_CONCURRENCY: '2' });
    issued = await createDashboardAccount(svc.deps.sql, { email: EMAIL, plan: 'starter', name: 'Revenue team' });
    const outcome = await createAccountKey(svc.deps.sql, (await accountForSignIn(svc.deps.sql, EMAIL))!);
    if (!outcome.ok) throw new Error(outcome.reason);
    key = outcome.key.key;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await replay?.close();
  });

  it('signs in; lists the account’s sets', async () => {
    const set = await api('/v1/compsets', {
      name: 'Lisbon old town',
      own: { property_token: OWN, name: 'Casa Nossa' },
      competitors: RIVALS.map((t, i) => ({ property_token: t, name: `Rival ${'ABCD'[i]} (Alfama)` })),
    });
    setId = set.id;
    const start = addDays(todayUtc(), 20);
    const first = await api(`/v1/compsets/${setId}/shops`, { start, days: DAYS, los: LENGTHS });
    await finished(first.poll_url);
    moved = -6;
    shop = await finished((await api(`/v1/compsets/${setId}/shops`, { start, days: DAYS, los: LENGTHS })).poll_url);

    await firstSignIn(page, svc.url, { email: EMAIL, temporary: issued.temporaryPassword, password: PASSWORD });

    await page.click('nav >> text=Comp sets');
    await page.waitForURL('**/dashboard/compsets');
    await expect(page.locator('nav a.active').textContent()).resolves.toBe('Comp sets');
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('tbody tr td[data-label="Your hotel"]').textContent()).resolves.toBe('Casa Nossa');
  });

  it('shows the newest shop as a heat-map whose every cell is the API grid’s row', async () => {
    await page.click('text=Lisbon old town');
    await page.waitForURL(`**/dashboard/compsets/${setId}`);
    // two shops: a tab each, the newest current
    await expect(page.locator('nav.tabs a').count()).resolves.toBe(2);
    await expect(page.locator('nav.tabs a[aria-current=page]').getAttribute('href')).resolves.toBe(`/dashboard/compsets/${setId}/shops/${shop.id}`);
    const rows = page.locator('table.heat tbody tr');
    await expect(rows.count()).resolves.toBe(DAYS);
    await expect(page.locator('table.heat thead th').allTextContents()).resolves.toEqual(['Check-in', '1 night', '2 nights', '3 nights']);

    const shown = await rows.evaluateAll((trs) =>
      trs.flatMap((tr) =>
        [...tr.querySelectorAll('td')].map((td) => ({
          date: tr.querySelector('th')!.textContent!.trim().slice(-10),
          band: td.className,
          lines: [...td.querySelectorAll('span')].map((s) => s.textContent!.trim()),
        })),
      ),
    );
    expect(shown).toHaveLength(DAYS * LENGTHS.length);
    const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
    const signed = (v: number) => (v > 0 ? `+${num(v)}` : v < 0 ? `−${num(-v)}` : '±0');
    let soldOut = 0;
    shown.forEach((cell, i) => {
      const row = shop.rows[i];
      expect(cell.date).toBe(row.date);
      if (row.own_total === null) {
        soldOut++;
        expect(cell).toMatchObject({ band: 'h-none', lines: ['—', 'no price stated', `median ${num(row.competitors_median)}`] });
        return;
      }
      expect(cell.lines).toEqual([
        `${num(row.own_total)} ${row.currency}`,
        `median ${num(row.competitors_median)}`,
        `rank ${row.own_rank} of ${row.priced}`,
        `${signed(row.diff_to_median)} (${signed(row.diff_to_median_pct)} %)`,
      ]);
      const pct = row.diff_to_median_pct;
      expect(cell.band).toBe(pct >= 10 ? 'h-p3' : pct >= 3 ? 'h-p2' : pct >= -3 ? 'h-0' : pct >= -10 ? 'h-n2' : 'h-n3');
    });
    // the own hotel sells nothing one night a week: those cells say so, as the API does
    expect(soldOut).toBe(shop.rows.filter((r: any) => r.own_total === null).length);
    expect(soldOut).toBeGreaterThan(0);
    expect(new Set(shown.map((c) => c.band)).size).toBeGreaterThanOrEqual(3);

    // the dashboard's CSV is the API's
    const download = await page.request.get(`${svc.url}/dashboard/compsets/${setId}/shops/${shop.id}/grid.csv`);
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const fromApi = await (await svc.call(`${shop.poll_url}?format=csv`, { key })).text();
    const dashCsv = await download.text();
    expect(parse(dashCsv, { columns: true })).toEqual(parse(fromApi, { columns: true }));

    // the older shop by its tab
    await page.locator('nav.tabs a').nth(1).click();
    await expect(page.locator('nav.tabs a[aria-current=page]').textContent()).resolves.toMatch(/→.*shopped/);
    expect(new URL(page.url()).pathname).not.toBe(`/dashboard/compsets/${setId}/shops/${shop.id}`);
  });

  it('another account’s set or shop is a 404 page', async () => {
    const other = await svc.key({ plan: 'starter' });
    const foreign = (await (
      await svc.call('/v1/compsets', {
        key: other.key,
        body: { name: 'Not yours', own: { property_token: 'dash-foreign-01', name: 'Theirs' }, competitors: [{ property_token: OWN, name: 'Casa Nossa' }] },
      })
    ).json()) as any;
    expect((await page.goto(`${svc.url}/dashboard/compsets/${foreign.id}`))!.status()).toBe(404);
    expect((await page.goto(`${svc.url}/dashboard/compsets/${setId}/shops/rateshop_nope`))!.status()).toBe(404);
    expect((await page.goto(`${svc.url}/dashboard/compsets/${foreign.id}/shops/${shop.id}/grid.csv`))!.status()).toBe(404);
  });

  for (const [viewport, size] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`at ${viewport} px: nothing wider than the screen, every cell inside its card, contrast at least 4.5:1, no serious axe finding`, async () => {
      const view = await (await browser.newContext({ viewport: size, storageState: await context.storageState() })).newPage();
      const problems: string[] = [];
      for (const [name, path] of [
        ['compsets', '/dashboard/compsets'],
        ['compset-grid', `/dashboard/compsets/${setId}`],
      ]) {
        await view.goto(svc.url + path);
        problems.push(...(await dashboardPageProblems(view, name)));
        await screenshot(view, `dashboard-${name}-${viewport}`);
      }
      expect(problems).toEqual([]);
      await view.context().close();
    });
  }
});
