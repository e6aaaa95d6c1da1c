import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardAccount, type IssuedAccount } from '../../../src/doors/dashboard/accounts.js';
import { DASHBOARD_PERIODS } from '../../../src/doors/dashboard/usage.js';
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

const EMAIL = 'ops@example.com';
const PASSWORD = 'a long passphrase of my own';

let svc: TestService;
let browser: Browser;
let page: Page;
let issued: IssuedAccount;
let currentKey: string;

const api = (p: string, key: string) => fetch(svc.url + p, { headers: { 'x-api-key': key } });
const pathname = () => new URL(page.url()).pathname;
const keyName = `acct-${EMAIL}`;

/** Every page of the dashboard, signed in; the sign-in page is checked signed out. */
const PAGES: [string, string][] = [
  ['api', '/dashboard/api'],
  ['rotate-confirm', `/dashboard/api/rotate?name=${encodeURIComponent(keyName)}`],
  ...Object.keys(DASHBOARD_PERIODS).map((p): [string, string] => [`usage-${p}`, `/dashboard/usage?period=${p}`]),
  ['jobs', '/dashboard/jobs'],
  ['apps', '/dashboard/apps'],
  ['sources', '/dashboard/sources'],
  ['password', '/dashboard/password'],
  ['not-found', '/dashboard/nowhere'],
];

describe.skipIf(!hasChromium)(`dashboard in headless Chromium${skippedNote}`, BROWSER_SUITE, () => {
  beforeAll(async () => {
    svc = await startTestService();
    issued = await createDashboardAccount(svc.deps.sql, { email: EMAIL, plan: 'starter', name: 'Ops team' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: DESKTOP });
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('signs in with the temporary password and is made to change it', async () => {
    await page.goto(svc.url + '/');
    expect(pathname()).toBe('/dashboard/sign-in');
    await page.fill('#email', EMAIL);
    await page.fill('#password', 'not it');
    await page.click('button[type=submit]');
    await expect(page.locator('.alert.error').textContent()).resolves.toBe('Wrong email or password.');
    await page.fill('#password', issued.temporaryPassword);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/password');

    // Nothing else opens before the change.
    await page.goto(svc.url + '/dashboard/usage');
    expect(pathname()).toBe('/dashboard/password');
    await page.fill('#current', issued.temporaryPassword);
    await page.fill('#new-password', PASSWORD);
    await page.fill('#confirm', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/api?notice=password');
    await expect(page.locator('.empty').textContent()).resolves.toBe('This account has no API key yet.');
  });

  it('creates a key, shown once, that calls the API; a reload neither repeats the creation nor shows the key again', async () => {
    await page.click('text=Create API key');
    await page.waitForURL(`${svc.url}/dashboard/api`);
    currentKey = (await page.locator('#new-key').textContent())!;
    expect(currentKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    const row = page.locator('tbody tr');
    await expect(row.locator('td').allTextContents()).resolves.toEqual([
      keyName,
      `${currentKey.slice(0, 9)}…`,
      '300 / min',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      'Rotate key',
    ]);
    await screenshot(page, 'dashboard-api-key-created-1280');

    await page.reload();
    expect(pathname()).toBe('/dashboard/api');
    expect(await page.content()).not.toContain(currentKey);
    expect(await page.locator('.alert.error').count()).toBe(0);
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);

    const billing = await api('/v1/billing', currentKey);
    expect(billing.status).toBe(200);
    expect((await billing.json()) as { account_id: string; plan: { code: string } }).toMatchObject({ account_id: issued.accountId, plan: { code: 'starter' } });
    expect((await api('/v1/markets', currentKey)).status).toBe(200);
    // One's own request record that does not exist: a 404, recorded like any call.
    expect((await api('/v1/requests/req_doesnotexist000000000000', currentKey)).status).toBe(404);
  });

  it('asks before rotating; once confirmed the new key is shown, the old one refused, and a reload never rotates again', async () => {
    await page.click('text=Rotate key');
    expect(pathname()).toBe('/dashboard/api/rotate');
    await expect(page.locator('h2').first().textContent()).resolves.toBe('The current key stops working at once');
    await page.click('text=Cancel');
    expect(pathname()).toBe('/dashboard/api');
    expect((await api('/v1/billing', currentKey)).status).toBe(200);

    await page.click('text=Rotate key');
    await page.click('#confirm-rotate');
    await page.waitForURL(`${svc.url}/dashboard/api`);
    await expect(page.locator('.alert.ok strong').textContent()).resolves.toContain('Key rotated');
    const fresh = (await page.locator('#new-key').textContent())!;
    expect(fresh).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(currentKey);
    await screenshot(page, 'dashboard-api-key-rotated-1280');

    const old = await api('/v1/billing', currentKey);
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ detail: 'missing or invalid API key' });
    currentKey = fresh;

    await page.reload();
    expect(pathname()).toBe('/dashboard/api');
    expect(await page.locator('#new-key').count()).toBe(0);
    await expect(page.locator('tbody tr td').nth(1).textContent()).resolves.toBe(`${fresh.slice(0, 9)}…`);
    expect((await api('/v1/billing', fresh)).status).toBe(200);
  });

  it('shows the calls on the usage page, for every period', async () => {
    await page.click('nav >> text=Usage');
    expect(pathname()).toBe('/dashboard/usage');
    const endpoints = page.locator('.card', { hasText: 'By endpoint' }).locator('tbody tr');
    const rows = (await endpoints.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual(
      expect.arrayContaining([expect.stringMatching(/^GET \/v1\/billing ?3 ?0 ?\d+ ms$/), expect.stringMatching(/^GET \/v1\/markets ?1 ?0 ?\d+ ms$/)]),
    );
    expect(rows).toEqual(expect.arrayContaining([expect.stringMatching(/^GET \/v1\/requests\/\{request_id\} ?1 ?1 ?\d+ ms$/)]));
    await expect(page.locator('.stat', { hasText: 'Credits remaining' }).locator('.v').textContent()).resolves.toBe('50,000');
    await expect(page.locator('.card', { hasText: 'Credit ledger' }).locator('tbody tr').first().textContent()).resolves.toContain(
      'starter plan monthly grant',
    );

    for (const [period, { label, count, unit }] of Object.entries(DASHBOARD_PERIODS)) {
      await page.click(`.tabs >> text=${label}`);
      expect(new URL(page.url()).searchParams.get('period')).toBe(period);
      await expect(page.locator('.tabs a.active').textContent()).resolves.toBe(label);
      await expect(page.locator('.chart svg.wide > g').count()).resolves.toBe(count);
      await expect(page.locator('h2', { hasText: 'Requests and errors per' }).textContent()).resolves.toBe(`Requests and errors per ${unit}`);
      // the calls above were made seconds ago: inside every window (a refused key is not anyone's call)
      await expect(page.locator('.stat', { hasText: 'Requests' }).first().locator('.v').textContent()).resolves.toBe('5');
      await expect(page.locator('.stat', { hasText: 'Errors' }).locator('.v').textContent()).resolves.toBe('1');
    }
    await page.goto(svc.url + '/dashboard/usage?period=1y');
    await expect(page.locator('h1').textContent()).resolves.toBe('Unknown period');
  });

  it('lists recent batches on the jobs page', async () => {
    await page.goto(svc.url + '/dashboard/api');
    await page.click('nav >> text=Jobs');
    expect(pathname()).toBe('/dashboard/jobs');
    const [key] = await svc.deps.sql`SELECT id FROM api_keys WHERE account_id = ${issued.accountId} AND revoked_at IS NULL`;
    const rows: [string, string, number, number, number, number][] = [
      ['refreshjob_Q3hT9rWmZ2', 'running', 40, 17, 1, 2],
      ['refreshjob_Lk8vPq2NsE', 'partial', 12, 10, 2, 95],
      ['refreshjob_Ab4xYt7RuC', 'succeeded', 25, 25, 0, 1440],
    ];
    for (const [id, status, total, ok, ko, ago] of rows) {
      await svc.deps
        .sql`INSERT INTO calendar_jobs (id, key_id, account_id, priority, callback_status, status, items_total, items_succeeded, items_failed, created_at)
        VALUES (${id}, ${key.id}, ${issued.accountId}, 5, 'not_configured', ${status}, ${total}, ${ok}, ${ko}, now() - make_interval(mins => ${ago}))`;
    }
    await page.reload();
    await expect(page.locator('tbody tr td:first-child').allTextContents()).resolves.toEqual(rows.map((r) => r[0]));
  });

  for (const [viewport, size] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`every page at ${viewport} px: nothing wider than the screen, text contrast at least 4.5:1`, async () => {
      const context = await browser.newContext({ viewport: size, storageState: await page.context().storageState() });
      const view = await context.newPage();
      const problems: string[] = [];
      const check = async (name: string) => {
        const overflow = await horizontalOverflow(view);
        if (overflow > 0) problems.push(`${name}: ${overflow} px wider than the screen`);
        for (const low of await lowContrastText(view)) problems.push(`${name}: "${low.text}" ${low.ratio}:1 (${low.color} on ${low.background})`);
        await screenshot(view, `dashboard-${name}-${viewport}`);
      };
      for (const [name, path] of PAGES) {
        await view.goto(svc.url + path);
        await check(name);
      }
      await context.clearCookies();
      await view.goto(svc.url + '/dashboard/sign-in');
      await check('sign-in');
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('signs out', async () => {
    await page.goto(svc.url + '/dashboard/api');
    await page.click('text=Sign out');
    await page.waitForURL('**/dashboard/sign-in');
    await page.goto(svc.url + '/dashboard/api');
    expect(pathname()).toBe('/dashboard/sign-in');
  });
});
