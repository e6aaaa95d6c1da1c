import type { Page } from 'playwright-core';
import type { Sql } from '../../src/db/client.js';
import { accountForSignIn, createDashboardAccount } from '../../src/doors/dashboard/accounts.js';
import { createAccountKey } from '../../src/doors/dashboard/api-key.js';

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

/** A dashboard account made by the operator, and its first API key: the temporary password to sign in with, and the key. */
export async function dashboardAccountWithKey(sql: Sql, o: { email: string; plan: 'starter'; name?: string }): Promise<{ temporary: string; key: string }> {
  const issued = await createDashboardAccount(sql, o);
  const outcome = await createAccountKey(sql, (await accountForSignIn(sql, o.email))!);
  if (!outcome.ok) throw new Error(outcome.reason);
  return { temporary: issued.temporaryPassword, key: outcome.key.key };
}
