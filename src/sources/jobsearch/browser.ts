import fs from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import type { AppDeps } from '../../app/deps.js';
import { DependencyDown } from '../../domain/errors.js';

/** Debian's chromium package; CHROMIUM_PATH overrides it. */
export const DEFAULT_BROWSER_PATH = '/usr/bin/chromium';

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

/** One headless browser per service, launched on first use and reused; relaunched if it died. */
export class JobsBrowser {
  #browser: Promise<Browser> | null = null;
  #closed = false;

  async get(executablePath: string, timeoutMs: number): Promise<Browser> {
    if (this.#closed) throw new DependencyDown('headless browser is shut down');
    if (this.#browser) {
      const current = await this.#browser.catch(() => null);
      if (current?.isConnected()) return current;
      this.#browser = null;
    }
    const launching = launch(executablePath, timeoutMs);
    this.#browser = launching;
    try {
      return await launching;
    } catch (err) {
      if (this.#browser === launching) this.#browser = null;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const b = await this.#browser?.catch(() => null);
    this.#browser = null;
    await b?.close().catch(() => undefined);
  }
}

async function launch(executablePath: string, timeoutMs: number): Promise<Browser> {
  try {
    await fs.access(executablePath, fs.constants.X_OK);
  } catch {
    throw new DependencyDown(`headless browser not installed (no executable at ${executablePath})`);
  }
  try {
    // loaded on first use: the browser driver is ~80 MB of resident memory a process without job searches never needs
    const { chromium } = await import('playwright-core');
    return await chromium.launch({ executablePath, headless: true, args: BROWSER_FLAGS, timeout: timeoutMs });
  } catch (err) {
    throw new DependencyDown(`headless browser failed to start: ${(err as Error).name ?? 'Error'}`);
  }
}

export function browserPath(deps: AppDeps): string {
  return deps.config.CHROMIUM_PATH;
}

/** The service's browser holder, created on first use (no browser is launched until a page is needed). */
export function jobsBrowser(deps: AppDeps): JobsBrowser {
  return (deps.services.jobsBrowser ??= new JobsBrowser());
}

/** For shutdown: closes the browser if one was launched. */
export async function closeJobsBrowser(deps: AppDeps): Promise<void> {
  await deps.services.jobsBrowser?.close();
}
