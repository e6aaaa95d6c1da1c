import type { Browser } from 'playwright-core';
import { DependencyDown, UpstreamFailed } from '../domain/errors.js';
import { launchBrowser } from './browser-launch.js';

/** 503 when every context is in use and the queue is full (or the wait outlasted the call): retryable, free like every error. */
export class BrowserBusy extends DependencyDown {
  constructor(contexts: number, waiting: number) {
    super(`browser_busy: all ${contexts} browser contexts are in use and ${waiting} calls are waiting; retry with backoff`);
  }
}

export interface BrowserPoolOptions {
  executablePath: string;
  args: string[];
  /** Calls holding a context at once. */
  contexts: number;
  /** Calls that may wait for one; beyond it: BrowserBusy at once. */
  queue: number;
  /** Pages after which the browser process is replaced (once its running calls end). */
  recyclePages: number;
  launchTimeoutMs: number;
  /** Idle this long (no call holding or awaiting a context), the browser process is closed; the next call launches one. 0: kept. */
  idleCloseMs?: number;
}

/** One browser process and what it has served; a retiring one takes no new calls and closes after its last. */
interface Generation {
  browser: Promise<Browser>;
  pages: number;
  active: number;
  retiring: boolean;
}

interface Waiter {
  grant(): void;
  fail(err: Error): void;
}

export interface BrowserLease {
  browser: Browser;
  release(): void;
}

export interface PoolStats {
  busy: number;
  waiting: number;
  /** Browser processes launched so far (recycling and idle closing add one each time). */
  launched: number;
  /** Browser processes up now (or starting): 0 before the first call and after an idle close. */
  running: number;
}

/**
 * A bounded pool of browser contexts over one headless Chromium process, launched on first use.
 * A slot is one context at a time (the caller opens and closes it); callers beyond the slots wait
 * in a bounded queue until their deadline. The process is replaced after `recyclePages` pages, so
 * whatever it accumulates does not outlive a bounded amount of work, and closed after `idleCloseMs`
 * without a call, so an idle service does not keep Chromium's memory.
 */
export class BrowserPool {
  #gen: Generation | null = null;
  readonly #retiring = new Set<Generation>();
  readonly #waiting: Waiter[] = [];
  #active = 0;
  #launched = 0;
  #closed = false;
  #idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: BrowserPoolOptions) {}

  stats(): PoolStats {
    return { busy: this.#active, waiting: this.#waiting.length, launched: this.#launched, running: this.#retiring.size + (this.#gen ? 1 : 0) };
  }

  /**
   * Launches the browser process now rather than on the first call, so that call's deadline is
   * spent on its page, not on Chromium's start (slow on a loaded machine). Rejects as a launch would.
   */
  async warm(): Promise<void> {
    if (this.#closed) throw new DependencyDown('headless browser is shut down');
    await this.#current().browser;
    if (this.#active === 0) this.#armIdleClose();
  }

  /** A context slot and the browser to open it in; BrowserBusy when none frees up before `deadline` (epoch ms). */
  async acquire(deadline: number, signal?: AbortSignal): Promise<BrowserLease> {
    if (this.#closed) throw new DependencyDown('headless browser is shut down');
    this.#disarmIdleClose();
    await this.#slot(deadline, signal);
    let gen: Generation;
    let browser: Browser;
    try {
      gen = this.#current();
      browser = await gen.browser;
      if (!browser.isConnected()) {
        // it died (crash, killed): a fresh one for this call and the next
        if (this.#gen === gen) this.#gen = null;
        gen = this.#current();
        browser = await gen.browser;
      }
    } catch (err) {
      this.#free();
      throw err;
    }
    gen.active++;
    gen.pages++;
    if (gen.pages >= this.opts.recyclePages && !gen.retiring) this.#retire(gen);
    let released = false;
    return {
      browser,
      release: () => {
        if (released) return;
        released = true;
        gen.active--;
        if (gen.retiring && gen.active === 0) this.#closeGeneration(gen);
        this.#free();
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#disarmIdleClose();
    for (const w of this.#waiting.splice(0)) w.fail(new DependencyDown('headless browser is shut down'));
    const all = [...this.#retiring, ...(this.#gen ? [this.#gen] : [])];
    this.#gen = null;
    this.#retiring.clear();
    await Promise.all(
      all.map((g) =>
        g.browser
          .then(
            (b) => b.close(),
            () => undefined,
          )
          .catch(() => undefined),
      ),
    );
  }

  #slot(deadline: number, signal?: AbortSignal): Promise<void> {
    if (this.#active < this.opts.contexts) {
      this.#active++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.opts.queue) return Promise.reject(new BrowserBusy(this.opts.contexts, this.#waiting.length));
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.#waiting.indexOf(waiter);
        if (i >= 0) this.#waiting.splice(i, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          done();
          resolve();
        },
        fail: (err) => {
          done();
          reject(err);
        },
      };
      const onAbort = () => waiter.fail(new UpstreamFailed('Aborted'));
      // waited as long as the whole call may take: as busy as a full queue
      const timer = setTimeout(() => waiter.fail(new BrowserBusy(this.opts.contexts, this.#waiting.length - 1)), Math.max(0, deadline - Date.now()));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** A slot came free: the first waiter takes it over, else it is counted free. */
  #free(): void {
    const next = this.#waiting[0];
    if (next) next.grant();
    else if (--this.#active === 0) this.#armIdleClose();
  }

  #armIdleClose(): void {
    const ms = this.opts.idleCloseMs ?? 0;
    if (ms <= 0 || this.#closed) return;
    this.#disarmIdleClose();
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      const gen = this.#gen;
      // still idle: nothing holds or awaits a context (a call arriving meanwhile disarmed this timer)
      if (!gen || this.#active > 0 || this.#waiting.length > 0) return;
      this.#retire(gen);
      if (gen.active === 0) this.#closeGeneration(gen);
    }, ms);
    this.#idleTimer.unref();
  }

  #disarmIdleClose(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  #current(): Generation {
    if (!this.#gen) {
      const browser = launchBrowser(this.opts.executablePath, this.opts.args, this.opts.launchTimeoutMs);
      const gen: Generation = { browser, pages: 0, active: 0, retiring: false };
      this.#launched++;
      this.#gen = gen;
      // a failed launch is not kept: the next call tries again (and says again what is missing)
      browser.catch(() => {
        if (this.#gen === gen) this.#gen = null;
      });
      browser.then(
        (b) => b.on('disconnected', () => this.#gen === gen && (this.#gen = null)),
        () => undefined,
      );
    }
    return this.#gen;
  }

  #retire(gen: Generation): void {
    gen.retiring = true;
    if (this.#gen === gen) this.#gen = null;
    this.#retiring.add(gen);
  }

  #closeGeneration(gen: Generation): void {
    this.#retiring.delete(gen);
    void gen.browser
      .then(
        (b) => b.close(),
        () => undefined,
      )
      .catch(() => undefined);
  }
}
