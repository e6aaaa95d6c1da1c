import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, DESKTOP, PHONE, hasChromium, horizontalOverflow, launchChromium, screenshot, skippedNote } from '../../helpers/browser.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

let svc: TestService;
let browser: Browser;
let page: Page;
const hosts = new Set<string>();

async function openDocs(hash = ''): Promise<void> {
  await page.goto(`${svc.url}/docs${hash}`);
  await page.locator('h1', { hasText: 'Hotel-rate and web-data API' }).waitFor();
}

describe.skipIf(!hasChromium)(`/docs in headless Chromium${skippedNote}`, BROWSER_SUITE, () => {
  beforeAll(async () => {
    svc = await startTestService();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: DESKTOP });
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && !r.url().startsWith('blob:')) hosts.add(new URL(r.url()).host);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('renders the reference from /openapi.json, every request to our own origin', async () => {
    await openDocs();
    await expect(page.locator('text=Send your key as').first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'docs-1280', { fullPage: false });
    expect([...hosts]).toEqual([new URL(svc.url).host]);
  });

  it('finds an operation by search and deep-links to it, with its MCP tool and credit cost', async () => {
    await openDocs();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('credit balance');
    const hit = page.getByRole('option', { name: /Credit balance/ }).first();
    await hit.waitFor();
    await hit.click();
    await page.waitForURL(/#tag\/account\/GET\/v1\/billing$/);
    const section = page
      .locator('section', { hasText: 'Credit balance' })
      .filter({ has: page.locator('text=MCP: get_credit_balance') })
      .first();
    await expect(section.locator('text=MCP: get_credit_balance').first().isVisible()).resolves.toBe(true);

    // A deep link opens the operation straight away: a metered one shows its cost and tool.
    await openDocs('#tag/hotels/POST/v1/offers');
    const offers = page.locator('section[id$="tag/hotels/POST/v1/offers"]');
    await offers.waitFor();
    await expect(offers.locator('text=3 credits').first().isVisible()).resolves.toBe(true);
    await expect(offers.locator('text=MCP: get_hotel_offers').first().isVisible()).resolves.toBe(true);
    // schemas and examples: the error schema of the 422 answer and the request example
    await expect(offers.locator('text=The input does not validate').first().isVisible()).resolves.toBe(true);
    expect([...hosts]).toEqual([new URL(svc.url).host]);
  });

  it('try-it calls GET /v1/billing/plans with the API key typed in', async () => {
    const { key } = await svc.key();
    await openDocs('#tag/account/GET/v1/billing/plans');
    await page.locator('button', { hasText: 'Test Request(get /v1/billing/plans)' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input.scalar-password-input').first().fill(key);
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/billing/plans' && r.request().method() === 'GET');
    await dialog
      .getByRole('button', { name: /Send get request/ })
      .first()
      .click();
    const res = await answer;
    expect(res.status()).toBe(200);
    expect(res.request().headers()['x-api-key']).toBe(key);
    expect(((await res.json()) as { plans: unknown[] }).plans.length).toBeGreaterThan(0);
    await expect(dialog.locator('text=200').first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'docs-try-it-1280', { fullPage: false });
    expect([...hosts]).toEqual([new URL(svc.url).host]);
  });

  it('fits a 390 px phone', async () => {
    const phone = await browser.newPage({ viewport: PHONE });
    await phone.goto(`${svc.url}/docs`);
    await phone.locator('h1', { hasText: 'Hotel-rate and web-data API' }).waitFor();
    expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'docs-390', { fullPage: false });
    await phone.close();
  });
});
