import type { Page } from 'playwright-core';

export { hasChromium, launchChromium } from './browser.js';

/**
 * What a person does with an authorization URL an MCP client opened: signs in to the dashboard
 * when asked, reads the consent page and approves. Resolves with the URL the browser was sent
 * back to (the client's redirect URI with the code).
 */
export async function approveInBrowser(
  page: Page,
  authorizationUrl: string,
  account: { email: string; password: string },
  redirectPrefix: string,
  screenshot?: string,
): Promise<string> {
  await page.goto(authorizationUrl);
  if (new URL(page.url()).pathname === '/dashboard/sign-in') {
    await page.fill('#email', account.email);
    await page.fill('#password', account.password);
    await Promise.all([page.waitForURL('**/dashboard/oauth/authorize?**'), page.click('button[type=submit]')]);
  }
  await page.waitForSelector('#approve');
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  // The redirect follows the approval: waited for from the click on, bounded by the test's own
  // timeout (a fixed budget here ran out on a loaded machine while the sign-in's password hash ran,
  // and its rejection went unheard).
  const [back] = await Promise.all([
    page.waitForRequest((r) => r.url().startsWith(redirectPrefix) && r.isNavigationRequest(), { timeout: 0 }),
    page.click('#approve'),
  ]);
  return back.url();
}
