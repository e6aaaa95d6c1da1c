import { existsSync } from 'node:fs';
import path from 'node:path';
import { BROWSER_FLAGS, DEFAULT_BROWSER_PATH } from '../../src/upstream/browser-launch.js';

/** Debian's chromium, driven by playwright-core in the browser tests; absent, those tests report themselves skipped. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? DEFAULT_BROWSER_PATH;
export const hasChromium = existsSync(CHROMIUM);
/** The service's own headless flags (src/upstream/browser-launch.ts). */
export const CHROMIUM_ARGS = BROWSER_FLAGS;
/**
 * Where the browser tests write their screenshots: the committed set under review only when asked
 * (UPDATE_SCREENSHOTS=1), otherwise an ignored folder, so a test run leaves the work tree clean.
 */
export const SHOTS = path.resolve(process.env.UPDATE_SCREENSHOTS === '1' ? 'test-artifacts/screenshots' : 'test-artifacts/screenshots-run');
/**
 * The budget of a browser test and of each of its page waits. A browser test waits on conditions
 * (an element shown, a URL reached, a response seen); these bounds only end a test that would
 * otherwise hang, so they are set for a loaded 2-core machine (several suites beside this one),
 * where Chromium's start and a page's first render take many seconds, not for a quiet one.
 */
export const BROWSER_SUITE = { timeout: 240_000 };
export const PAGE_WAIT_MS = 90_000;
