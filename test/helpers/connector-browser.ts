/**
 * A `BROWSER` command for MCP clients that open the authorization URL in the user's browser
 * (mcp-remote through the `open` package and xdg-open): a person at headless Chromium who signs in
 * to the dashboard with a temporary password, chooses a password of their own when asked, and
 * approves the consent page. Run as `<this> <authorization URL>`; the account and the new password
 * come in CONNECTOR_EMAIL, CONNECTOR_PASSWORD and CONNECTOR_NEW_PASSWORD, and every page the
 * browser stopped at is written as JSON lines to CONNECTOR_LOG for the test to read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

const [url] = process.argv.slice(2);
const env = (name: string) => process.env[name] ?? '';
const log = (entry: Record<string, unknown>) => fs.appendFileSync(env('CONNECTOR_LOG'), `${JSON.stringify(entry)}\n`);

async function run(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const step = async (name: string) => {
      log({ step: name, url: page.url() });
      if (env('CONNECTOR_SHOTS')) await page.screenshot({ path: path.join(env('CONNECTOR_SHOTS'), `connector-${name}.png`), fullPage: true });
    };
    await page.goto(url);
    await page.waitForURL('**/dashboard/sign-in?**');
    await step('sign-in');
    await page.fill('#email', env('CONNECTOR_EMAIL'));
    await page.fill('#password', env('CONNECTOR_PASSWORD'));
    await Promise.all([page.waitForURL('**/dashboard/password?**'), page.click('button[type=submit]')]);
    await step('password');
    await page.fill('#current', env('CONNECTOR_PASSWORD'));
    await page.fill('#new-password', env('CONNECTOR_NEW_PASSWORD'));
    await page.fill('#confirm', env('CONNECTOR_NEW_PASSWORD'));
    await Promise.all([page.waitForURL('**/dashboard/oauth/authorize?**'), page.click('button[type=submit]')]);
    await page.waitForSelector('#approve');
    await step('consent');
    // the client's own callback page answers once it has the code
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/dashboard/'), { waitUntil: 'load' }), page.click('#approve')]);
    await step('callback');
  } finally {
    await browser.close();
  }
}

run().then(
  () => process.exit(0),
  (err: Error) => {
    log({ step: 'failed', error: err.message.slice(0, 500) });
    process.exit(1);
  },
);
