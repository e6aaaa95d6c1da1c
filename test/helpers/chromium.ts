import { existsSync } from 'node:fs';
import path from 'node:path';

/** Debian's chromium, driven by playwright-core in the browser tests; absent, those tests report themselves skipped. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Where the browser tests write their screenshots: the committed set under review only when asked
 * (UPDATE_SCREENSHOTS=1), otherwise an ignored folder, so a test run leaves the work tree clean.
 */
export const SHOTS = path.resolve(process.env.UPDATE_SCREENSHOTS === '1' ? 'test-artifacts/screenshots' : 'test-artifacts/screenshots-run');
