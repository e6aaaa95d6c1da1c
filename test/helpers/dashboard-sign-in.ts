import type { Page } from 'playwright-core';

/**
 * A dashboard account's first sign-in in the browser: the temporary password, then the password
 * page it must pass (the new password typed twice), ending on the API-access page.
 */
export async function firstSignIn(page: Page, base: string, o: { email: string; temporary: string; password: string }): Promise<void> {
  await page.goto(base + '/dashboard/sign-in');
  await page.fill('#email', o.email);
  await page.fill('#password', o.temporary);
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/password');
  await page.fill('#current', o.temporary);
  await page.fill('#new-password', o.password);
  await page.fill('#confirm', o.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/api?notice=password');
}
