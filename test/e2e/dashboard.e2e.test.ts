import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardAccount, type IssuedAccount } from '../../src/dashboard/accounts.js';
import { CHROMIUM, CHROMIUM_ARGS as ARGS, SHOTS, hasChromium } from '../helpers/chromium.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const EMAIL = 'ops@example.com';
const PASSWORD = 'a long passphrase of my own';

let svc: TestService;
let browser: Browser;
let page: Page;
let issued: IssuedAccount;
let firstKey: string;

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const api = (p: string, key: string) => fetch(svc.url + p, { headers: { 'x-api-key': key } });
const pathname = () => new URL(page.url()).pathname;

describe.skipIf(!hasChromium)(`dashboard in headless Chromium${hasChromium ? '' : ' [SKIPPED: chromium not installed]'}`, () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    svc = await startTestService();
    issued = await createDashboardAccount(svc.deps.sql, { email: EMAIL, plan: 'starter', name: 'Ops team' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('signs in with the temporary password and is made to change it', async () => {
    await page.goto(svc.url + '/');
    expect(pathname()).toBe('/dashboard/sign-in');
    await shot('01-sign-in');
    await page.fill('#email', EMAIL);
    await page.fill('#password', 'not it');
    await page.click('button[type=submit]');
    await expect(page.locator('.alert.error').textContent()).resolves.toBe('Wrong email or password.');
    await page.fill('#password', issued.temporaryPassword);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/password');
    await shot('02-change-password');

    // Nothing else opens before the change.
    await page.goto(svc.url + '/dashboard/usage');
    expect(pathname()).toBe('/dashboard/password');
    await page.fill('#current', issued.temporaryPassword);
    await page.fill('#next', PASSWORD);
    await page.fill('#confirm', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL('**/dashboard/api?notice=password');
    await expect(page.locator('.empty').textContent()).resolves.toBe('This account has no API key yet.');
    await shot('03-api-access-empty');
  });

  it('creates a key, shown once, that calls the API', async () => {
    await page.click('text=Create API key');
    firstKey = (await page.locator('#new-key').textContent())!;
    expect(firstKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    const row = page.locator('tbody tr');
    await expect(row.locator('td').allTextContents()).resolves.toEqual([
      `acct-${EMAIL}`,
      `${firstKey.slice(0, 9)}…`,
      '300 / min',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      'Rotate key',
    ]);
    await shot('04-api-key-created');

    await page.goto(svc.url + '/dashboard/api');
    expect(await page.content()).not.toContain(firstKey);
    expect(await page.locator('#new-key').count()).toBe(0);

    const billing = await api('/v1/billing', firstKey);
    expect(billing.status).toBe(200);
    expect(((await billing.json()) as { account_id: string; plan: { code: string } })).toMatchObject({ account_id: issued.accountId, plan: { code: 'starter' } });
    expect((await api('/v1/markets', firstKey)).status).toBe(200);
    // One's own request record that does not exist: a 404, recorded like any call.
    expect((await api('/v1/requests/req_doesnotexist000000000000', firstKey)).status).toBe(404);
  });

  it('shows the calls on the usage page', async () => {
    await page.click('nav >> text=Usage');
    expect(pathname()).toBe('/dashboard/usage');
    const endpoints = page.locator('.card', { hasText: 'By endpoint' }).locator('tbody tr');
    const rows = (await endpoints.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual(
      expect.arrayContaining([expect.stringMatching(/^GET \/v1\/billing ?1 ?0 ?\d+ ms$/), expect.stringMatching(/^GET \/v1\/markets ?1 ?0 ?\d+ ms$/)]),
    );
    expect(rows).toEqual(expect.arrayContaining([expect.stringMatching(/^GET \/v1\/requests\/\{request_id\} ?1 ?1 ?\d+ ms$/)]));
    await expect(page.locator('.stat', { hasText: 'Requests' }).first().locator('.v').textContent()).resolves.toBe('3');
    await expect(page.locator('.stat', { hasText: 'Errors' }).locator('.v').textContent()).resolves.toBe('1');
    await expect(page.locator('.stat', { hasText: 'Credits remaining' }).locator('.v').textContent()).resolves.toBe('50,000');
    expect(await page.locator('.chart svg rect').count()).toBeGreaterThan(0);
    await expect(page.locator('.card', { hasText: 'Credit ledger' }).locator('tbody tr').first().textContent()).resolves.toContain('starter plan monthly grant');
    await shot('05-usage');
  });

  it('lists recent batches on the jobs page', async () => {
    await page.click('nav >> text=Jobs');
    expect(pathname()).toBe('/dashboard/jobs');
    await shot('06-jobs-empty');
    const [{ present }] = await svc.deps.sql`SELECT to_regclass('calendar_jobs') IS NOT NULL AS present`;
    if (!present) return;
    const [key] = await svc.deps.sql`SELECT id FROM api_keys WHERE account_id = ${issued.accountId}`;
    const rows: [string, string, number, number, number, number][] = [
      ['refreshjob_Q3hT9rWmZ2', 'running', 40, 17, 1, 2],
      ['refreshjob_Lk8vPq2NsE', 'partial', 12, 10, 2, 95],
      ['refreshjob_Ab4xYt7RuC', 'succeeded', 25, 25, 0, 1440],
    ];
    for (const [id, status, total, ok, ko, ago] of rows) {
      await svc.deps.sql`INSERT INTO calendar_jobs (id, key_id, account_id, priority, callback_status, status, items_total, items_succeeded, items_failed, created_at)
        VALUES (${id}, ${key.id}, ${issued.accountId}, 5, 'not_configured', ${status}, ${total}, ${ok}, ${ko}, now() - make_interval(mins => ${ago}))`;
    }
    await page.reload();
    await expect(page.locator('tbody tr td:first-child').allTextContents()).resolves.toEqual(rows.map((r) => r[0]));
    await shot('07-jobs');
  });

  it('rotates the key: the new one is shown once and the old one is refused at once', async () => {
    await page.click('nav >> text=API access');
    await page.click('text=Rotate key');
    await expect(page.locator('.alert.ok strong').textContent()).resolves.toContain('Key rotated');
    const fresh = (await page.locator('#new-key').textContent())!;
    expect(fresh).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(firstKey);
    await shot('08-api-key-rotated');

    const old = await api('/v1/billing', firstKey);
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ detail: 'missing or invalid API key' });
    expect((await api('/v1/billing', fresh)).status).toBe(200);
  });

  it('signs out', async () => {
    await page.click('text=Sign out');
    await page.waitForURL('**/dashboard/sign-in');
    await page.goto(svc.url + '/dashboard/api');
    expect(pathname()).toBe('/dashboard/sign-in');
  });
});
