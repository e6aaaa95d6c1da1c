import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardAccount, type IssuedAccount } from '../../../src/doors/dashboard/accounts.js';
import { pauseUnpaid } from '../../../src/platform/watches.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
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
import { firstSignIn } from '../../helpers/dashboard-sign-in.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * The Watches pages in headless Chromium at 1280 px and 390 px: the list (state, next check, last
 * price, pause/resume/delete), a watch with its price chart, events and credits; and the tables of
 * the other pages on a phone (stacked rows: every cell inside the screen), the new key's copy button.
 */
const EMAIL = 'revenue@example.com';
const PASSWORD = 'a long passphrase of my own';

let svc: TestService;
let replay: ReplayServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let issued: IssuedAccount;
let key: string;
/** Added to every night's price by the replayed upstream: moved between checks to draw a curve; null: nothing priced. */
let shift: number | null = 0;
/** What the webhook receiver answers. */
let hookAnswer = 500;
let hook: http.Server;
let hookUrl: string;

const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await svc.call(path, { key, method: init.method, body: init.body });
  return (await res.json()) as any;
};

describe.skipIf(!hasChromium)(`Watches in headless Chromium${skippedNote}`, BROWSER_SUITE, () => {
  beforeAll(async () => {
    replay = await startReplayServer([calendarRoute((date) => (shift === null ? null : 140 + (Number(date.slice(8)) % 5) * 3 + shift))]);
    hook = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(hookAnswer).end()));
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    svc = await startTestService({
      UPSTREAM_METASEARCH_URL: replay.url,
      UPSTREAM_RETRIES: '0',
      WEBHOOK_SIGNING_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      SAFE_FETCH_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE_S: '0.1',
    });
    issued = await createDashboardAccount(svc.deps.sql, { email: EMAIL, plan: 'starter', name: 'Revenue team' });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await replay?.close();
    await new Promise<void>((r) => (hook ? hook.close(() => r()) : r()));
  });

  it('signs in, creates a key and copies it with the copy button', async () => {
    await firstSignIn(page, svc.url, { email: EMAIL, temporary: issued.temporaryPassword, password: PASSWORD });
    await page.click('text=Create API key');
    await page.waitForURL(`${svc.url}/dashboard/api`);
    const shown = (await page.locator('#new-key').textContent())!;
    await page.click('#copy-key');
    // the button says so once the clipboard's write (a promise) has settled, not at the click
    await page.waitForFunction(() => document.querySelector('#copy-key')?.textContent === 'Copied', undefined, { timeout: 10_000 });
    key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toBe(shown);
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    await screenshot(page, 'dashboard-api-key-copy-1280');
  });

  it('lists the watches with their state, next check and last price; a watch page charts the price of each check', async () => {
    const target = (token: string, extra = {}) => ({
      operation: 'calendar',
      property_token: token,
      start: '2027-05-01',
      days: 14,
      probe_min_stay: false,
      ...extra,
    });
    const main = await api('/v1/watches', {
      body: {
        target: target('dash-hotel-lisbon'),
        rule: { type: 'below', price: 140 },
        every_hours: 24,
        name: 'Lisbon, May fortnight',
        callback_url: hookUrl,
      },
    });
    const second = await api('/v1/watches', {
      body: { target: target('dash-hotel-porto'), rule: { type: 'drop_pct', pct: 5 }, every_hours: 6, name: 'Porto weekly' },
    });
    const third = await api('/v1/watches', { body: { target: target('dash-hotel-faro'), rule: { type: 'any_change' }, every_hours: 168 } });
    for (const w of [main, second, third]) await waitFor(async () => (await api(`/v1/watches/${w.id}`)).checks_total === 1, { what: `first check of ${w.id}` });
    // a price curve: down, down below the rule's price (fires), sold out, up, down again
    for (const s of [-4, -9, -16, null, 6, -12, -3]) {
      shift = s;
      expect((await api(`/v1/watches/${main.id}/check`, { method: 'POST' })).check).toBeTruthy();
    }
    // the third account watch could not pay its next check (as the scheduler pauses it under enforced credits)
    const [row] = await svc.deps.sql`SELECT seq FROM watches WHERE id = ${third.id}`;
    await pauseUnpaid(svc.deps.sql, third.id, row.seq, 'insufficient credits: a check costs 5, 2 available');

    await page.goto(svc.url + '/dashboard/watches');
    const rows = page.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(3);
    const cells = async (n: number) =>
      Object.fromEntries(
        await rows
          .nth(n)
          .locator('td[data-label]')
          .evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-label'), td.textContent!.replace(/\s+/g, ' ').trim()])),
      );
    expect(await cells(0)).toMatchObject({
      Watch: expect.stringMatching(/^watch_\w+calendar of dash-hotel-faro, 14 nights from 2027-05-01$/),
      Rule: 'any change',
      State: 'paused: insufficient credits',
      'Next check': '—',
    });
    expect(await cells(2)).toEqual({
      Watch: 'Lisbon, May fortnightcalendar of dash-hotel-lisbon, 14 nights from 2027-05-01',
      Rule: 'below 140',
      State: 'active',
      'Next check': expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      'Last price': '137 EUR',
    });
    await expect(rows.nth(2).locator('button, a.button').allTextContents()).resolves.toEqual(['Pause', 'Delete']);
    await screenshot(page, 'dashboard-watches-1280');

    // the checks ran seconds apart: spread them 18 hours apart (newest now) so that the chart spans days, as a daily watch's does
    await svc.deps.sql`UPDATE watch_checks c SET created_at = now() - make_interval(hours => (18 * o.n)::int)
      FROM (SELECT id, row_number() OVER (ORDER BY created_at DESC, id DESC) - 1 AS n FROM watch_checks WHERE watch_id = ${main.id}) o
      WHERE c.id = o.id`;
    await page.click('text=Lisbon, May fortnight');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/watches/${main.id}`);
    await expect(page.locator('.chart svg.wide circle').count()).resolves.toBe(8);
    // the check that priced nothing sits in its own band under the axis, not on the lowest gridline (defect 7)
    await expect(page.locator('.chart svg.wide g.empty').count()).resolves.toBe(1);
    // x labels across the whole range (5¼ days), none twice
    const ticks = await page.locator('.chart svg.wide text.x').allTextContents();
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(new Set(ticks).size).toBe(ticks.length);
    // nights entering the rule's range fire it: at -4, -9 and -16 more nights go below 140 each time, at -12 again after +6
    await expect(page.locator('.chart svg.wide g.fired').count()).resolves.toBe(4);
    await expect(page.locator('.stat', { hasText: 'Credits spent' }).locator('.v').textContent()).resolves.toBe('35');
    await expect(page.locator('.card', { hasText: 'Events' }).locator('tbody tr').count()).resolves.toBe(4);
    await expect(page.locator('.card', { hasText: 'Checks' }).locator('tbody tr').count()).resolves.toBe(8);
    await screenshot(page, 'dashboard-watch-1280');
  });

  it('redelivers a failed event from the watch page once the receiver is fixed', async () => {
    const main = (await api('/v1/watches')).watches.find((w: any) => w.name === 'Lisbon, May fortnight');
    await waitFor(async () => (await api(`/v1/watches/${main.id}/events`)).events.every((e: any) => e.callback_status === 'failed'), {
      what: 'the failed deliveries',
    });
    await page.goto(`${svc.url}/dashboard/watches/${main.id}`);
    const events = page.locator('.card', { hasText: 'Events' }).locator('tbody tr');
    await expect(events.first().locator('.badge').textContent()).resolves.toBe('failed');
    await expect(events.first().textContent()).resolves.toContain('HTTP 500');
    hookAnswer = 204;
    const eventId = (await events.first().locator('code').textContent())!;
    await events.first().locator('button', { hasText: 'Redeliver' }).click();
    await page.waitForURL(`**/dashboard/watches/${main.id}?notice=redelivered`);
    await expect(page.locator('.alert.ok').textContent()).resolves.toContain('on its way again');
    const ev = await waitFor(
      async () => (await api(`/v1/watches/${main.id}/events`)).events.find((e: any) => e.id === eventId && e.callback_status === 'delivered'),
      {
        what: 'the redelivery',
      },
    );
    expect(ev.redeliveries).toBe(1);
    await page.reload();
    const row = page.locator('.card', { hasText: 'Events' }).locator('tbody tr', { hasText: eventId });
    await expect(row.locator('.badge').textContent()).resolves.toBe('delivered');
    await expect(row.textContent()).resolves.toContain('redelivered');
    await screenshot(page, 'dashboard-watch-redelivered-1280');
  });

  it('pauses, resumes and deletes from the page', async () => {
    await page.goto(svc.url + '/dashboard/watches');
    const porto = page.locator('tbody tr', { hasText: 'Porto weekly' });
    await porto.locator('button', { hasText: 'Pause' }).click();
    await page.waitForURL('**/dashboard/watches');
    await expect(page.locator('tbody tr', { hasText: 'Porto weekly' }).locator('.badge').textContent()).resolves.toBe('paused');
    await page.locator('tbody tr', { hasText: 'Porto weekly' }).locator('button', { hasText: 'Resume' }).click();
    await expect(page.locator('tbody tr', { hasText: 'Porto weekly' }).locator('.badge').textContent()).resolves.toBe('active');
    const id = (await api('/v1/watches')).watches.find((w: any) => w.name === 'Porto weekly').id;
    expect((await api(`/v1/watches/${id}`)).status).toBe('active');
    // Delete asks first on a page of its own (defect 8); Cancel keeps the watch
    await page.locator('tbody tr', { hasText: 'Porto weekly' }).locator('a', { hasText: 'Delete' }).click();
    await page.waitForURL(`**/dashboard/watches/${id}/delete`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Delete watch');
    await expect(page.locator('.card').textContent()).resolves.toContain('cannot be undone');
    await page.click('text=Cancel');
    await page.waitForURL(`**/dashboard/watches/${id}`);
    expect((await api(`/v1/watches/${id}`)).status).toBe('active');
    await page.goto(svc.url + '/dashboard/watches');
    await page.locator('tbody tr', { hasText: 'Porto weekly' }).locator('a', { hasText: 'Delete' }).click();
    await page.click('#confirm-delete');
    await page.waitForURL('**/dashboard/watches');
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    expect((await svc.call(`/v1/watches/${id}`, { key })).status).toBe(404);
    // another account's watch page is not found
    const other = await svc.key({ plan: 'starter' });
    const foreign = (await (
      await svc.call('/v1/watches', {
        key: other.key,
        body: { target: { operation: 'calendar', property_token: 'dash-hotel-other', days: 3 }, rule: { type: 'any_change' } },
      })
    ).json()) as any;
    const res = await page.goto(`${svc.url}/dashboard/watches/${foreign.id}`);
    expect(res!.status()).toBe(404);
  });

  for (const [viewport, size] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`at ${viewport} px: nothing wider than the screen, every table cell inside its card, contrast at least 4.5:1`, async () => {
      const view = await (await browser.newContext({ viewport: size, storageState: await context.storageState() })).newPage();
      const problems: string[] = [];
      const main = (await api('/v1/watches')).watches.find((w: any) => w.name === 'Lisbon, May fortnight');
      for (const [name, path] of [
        ['watches', '/dashboard/watches'],
        ['watch', `/dashboard/watches/${main.id}`],
        ['delete', `/dashboard/watches/${main.id}/delete`],
        ['api', '/dashboard/api'],
        ['usage-30d', '/dashboard/usage'],
        ['jobs', '/dashboard/jobs'],
        ['sources', '/dashboard/sources'],
      ]) {
        await view.goto(svc.url + path);
        const overflow = await horizontalOverflow(view);
        if (overflow > 0) problems.push(`${name}: ${overflow} px wider than the screen`);
        // cells (the keys table's Rotate button, the ledger's notes …) end inside their card, nothing hidden in a scroll
        const clipped = await view.evaluate(() =>
          [...document.querySelectorAll('.card td')]
            .filter((td) => td.getBoundingClientRect().right > td.closest('.card')!.getBoundingClientRect().right + 0.5)
            .map((td) => td.textContent!.trim().slice(0, 40)),
        );
        for (const c of clipped) problems.push(`${name}: cell "${c}" beyond its card`);
        // chart labels never overlap
        const overlaps = await view.evaluate(() => {
          // the x-axis labels (below the plot), left to right
          const boxes = [...document.querySelectorAll('.chart svg text.x')]
            .filter((t) => t.getBoundingClientRect().width > 0)
            .map((t) => t.getBoundingClientRect())
            .sort((a, b) => a.left - b.left);
          return boxes.filter((b, i) => i > 0 && b.left < boxes[i - 1].right).length;
        });
        if (overlaps) problems.push(`${name}: ${overlaps} chart labels overlap`);
        for (const low of await lowContrastText(view)) problems.push(`${name}: "${low.text}" ${low.ratio}:1`);
        // the other pages' shots are named apart from dashboard.e2e.test.ts's (another account's data)
        const shot =
          name === 'watches' || name === 'watch' || name === 'delete'
            ? name === 'delete'
              ? 'watch-delete'
              : name
            : name === 'usage-30d'
              ? 'usage-first-visit'
              : `tables-${name}`;
        await screenshot(view, `dashboard-${shot}-${viewport}`);
      }
      expect(problems).toEqual([]);
      await view.context().close();
    });
  }
});
