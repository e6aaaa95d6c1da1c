import fs from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { DependencyDown } from '../domain/errors.js';

/** Debian's chromium package; CHROMIUM_PATH overrides it. */
export const DEFAULT_BROWSER_PATH = '/usr/bin/chromium';

/** The README's install line, quoted by every "not installed" answer. */
const BROWSER_INSTALL_HINT = 'install it with `apt-get install chromium` (README, "Browser path")';

/** Headless, no background traffic of the browser's own. */
export const BROWSER_FLAGS = [
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
 * Flags of the upstream browser path on top: no DNS prefetching or WebRTC UDP (neither passes the
 * egress guard's proxy), no images, and each renderer's JavaScript heap capped at `memoryMb` (a
 * renderer serves one browser context only, so this is a cap per context).
 */
export function upstreamBrowserFlags(memoryMb: number): string[] {
  return [
    ...BROWSER_FLAGS,
    '--dns-prefetch-disable',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--blink-settings=imagesEnabled=false',
    '--mute-audio',
    '--disable-extensions',
    // the browser's own calls (form autofill, hints, translation) would leave through the page's proxy
    '--disable-features=AutofillServerCommunication,OptimizationHints,Translate,MediaRouter,InterestFeedContentSuggestions',
    `--js-flags=--max-old-space-size=${memoryMb}`,
  ];
}

/** Launches the browser, or says clearly which dependency is missing (503). */
export async function launchBrowser(executablePath: string, args: string[], timeoutMs: number): Promise<Browser> {
  try {
    await fs.access(executablePath, fs.constants.X_OK);
  } catch {
    throw new DependencyDown(`headless browser not installed: no chromium executable at ${executablePath} (CHROMIUM_PATH); ${BROWSER_INSTALL_HINT}`);
  }
  try {
    // loaded on first use: the browser driver is ~80 MB of resident memory a process that never opens a page does not need
    const { chromium } = await import('playwright-core');
    return await chromium.launch({ executablePath, headless: true, args, timeout: timeoutMs });
  } catch (err) {
    throw new DependencyDown(`headless browser failed to start: ${(err as Error).name ?? 'Error'}`);
  }
}
