import type { Browser } from 'playwright-core';
import { DependencyDown } from '../../domain/errors.js';
import { BROWSER_FLAGS, launchBrowser } from '../../upstream/browser-launch.js';

export { DEFAULT_BROWSER_PATH } from '../../upstream/browser-launch.js';

/** One headless browser per process (built by the dependency builder, closed with it), launched on first use and reused; relaunched if it died. */
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

function launch(executablePath: string, timeoutMs: number): Promise<Browser> {
  return launchBrowser(executablePath, BROWSER_FLAGS, timeoutMs);
}
