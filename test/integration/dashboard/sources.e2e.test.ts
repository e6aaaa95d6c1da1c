import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardAccount } from '../../../src/doors/dashboard/accounts.js';
import { freePort } from '../../helpers/free-port.js';
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
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const EMAIL = 'sources@example.com';
const PASSWORD = 'a long passphrase of my own';

describe.skipIf(!hasChromium)(`dashboard source view in headless Chromium${skippedNote}`, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // apps answers (hand-built lookup replies, see test/fixtures/README.md), then answers JSON of another shape (a changed contract: an HTML page would be a wall); trends cannot be reached
    replay = await startReplayServer([
      { path: '/search', query: { term: 'notes' }, body: { resultCount: 0, results: [] } },
      { path: '/search', query: { term: 'changed' }, body: { storefront: { sections: [] } } },
    ]);
    svc = await startTestService({ UPSTREAM_APPS_URL: replay.url, UPSTREAM_TRENDS_URL: `http://127.0.0.1:${await freePort()}`, UPSTREAM_RETRIES: '0' });
    const key = (await svc.key()).key;
    const call = (p: string, body: unknown) => svc.call(p, { key, body });
    for (let i = 0; i < 3; i++) expect((await call('/v1/apps/search', { term: 'notes' })).status).toBe(200);
    expect((await call('/v1/apps/search', { term: 'changed' })).status).toBe(503);
    expect((await call('/v1/trends/interest', { keyword: 'coffee' })).status).toBe(502);

    const issued = await createDashboardAccount(svc.deps.sql, { email: EMAIL, plan: 'starter', name: 'Sources' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(svc.url + '/dashboard/sign-in');
    await page.fill('#email', EMAIL);
    await page.fill('#password', issued.temporaryPassword);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/password');
    await page.fill('#current', issued.temporaryPassword);
    await page.fill('#new-password', PASSWORD);
    await page.fill('#confirm', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/api?notice=password');
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await replay?.close();
  });

  it('lists every source with its state, last success and last contract change', async () => {
    await page.click('nav >> text=Sources');
    await page.waitForURL('**/dashboard/sources');
    const row = (source: string) =>
      page
        .locator('tbody tr', { has: page.locator(`code:text-is("${source}")`) })
        .locator('td')
        .allTextContents();
    const time = expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    await expect(row('apps')).resolves.toEqual(['apps', 'degraded', time, time]);
    await expect(row('trends')).resolves.toEqual(['trends', 'failing', '—', '—']);
    await expect(row('video')).resolves.toEqual(['video', 'unknown', '—', '—']);
    expect(await page.locator('tbody tr').count()).toBe(15);
    await expect(page.locator('nav a.active').textContent()).resolves.toBe('Sources');
    expect(await lowContrastText(page)).toEqual([]);
    await screenshot(page, 'dashboard-sources-states-1280');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize(PHONE);
    await page.reload();
    await expect(page.locator('h1').textContent()).resolves.toBe('Sources');
    // the table scrolls inside its card; the page itself does not
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'dashboard-sources-states-390');
  });
});
