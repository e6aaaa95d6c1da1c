/**
 * The upstream browser path: one call opens the upstream page in a fresh headless Chromium context
 * (from a bounded pool), lets the page's own scripts run (its challenge, its signed requests), and
 * hands back the reply the caller wants (the document itself, or one of the page's requests
 * captured by URL pattern) as an UpstreamResponse, for the source's own pure parser. Nothing is
 * read from the rendered DOM, and nothing is signed by us. A call has a page of its own in a context
 * kept warm per source (browser-contexts.ts), cleared of cookies and storage after each call, so
 * nothing of one call reaches another caller.
 */
import type { Logger } from 'pino';
import type { Browser, Page, Response } from 'playwright-core';
import { ApiError, DependencyDown, UpstreamFailed, upstreamStatusFailure } from '../domain/errors.js';
import { UpstreamBlocked, detectBlock, isScriptChallenge, type BlockVerdict } from './blocked.js';
import { BrowserContexts, type ContextUse } from './browser-contexts.js';
import { EgressRules, type BlockReason, type BlockedRequest } from './browser-egress.js';
import { upstreamBrowserFlags } from './browser-launch.js';
import { BrowserBusy, BrowserPool, type PoolStats } from './browser-pool.js';
import { acceptLanguage, type Expect } from './devices.js';
import { BROWSER_HOSTS, CHALLENGE_HOSTS, type Alias } from '../config/hosts.js';
import { harvestOf, type HarvestRequest } from './clearance.js';
import { makeResponse, type UpstreamResponse } from './response.js';
import type { UpstreamSession } from './session.js';

/** Outcome labels of /metrics' browser counters. */
type BrowserOutcome = 'ok' | 'blocked' | 'timeout' | 'busy' | 'unavailable' | 'failed';

export interface BrowserObserver {
  call(source: Alias, outcome: BrowserOutcome, seconds: number): void;
  blocked(source: Alias, reason: BlockReason): void;
}

export interface BrowserSettings {
  executablePath: string;
  contexts: number;
  queue: number;
  timeoutMs: number;
  /** Bound of Chromium's start; default timeoutMs (a call's start-up is part of its budget). */
  launchTimeoutMs?: number;
  memoryMb: number;
  recyclePages: number;
  /** Idle this long, Chromium is closed until the next call (0: kept while the process runs). */
  idleCloseMs?: number;
  /** Idle this long, a source's context is closed rather than kept for its next call (0: a fresh context per call). */
  warmContextMs?: number;
  allowPrivate: boolean;
  /** Where a reply a parser rejects is kept (withContractGuard), for operations that may keep one. */
  dataDir: string | null;
}

/**
 * The browser path's way to this reply. Absent: the request's own URL opened as a page (its
 * document is the reply), or for an API request (POST, JSON) the site's root page first and the
 * request then made from it.
 */
export interface BrowserPlan {
  /** The page whose own script makes the request (relative to the base URL, like `path`). */
  page?: { path: string; query?: Record<string, string | number | boolean | undefined> };
  /** Which of the page's requests carries the reply, by URL; absent: the page's document. */
  capture?: RegExp;
  /** What a usable captured reply is (default: the request's `expect`). */
  expect?: Expect;
}

/** One request as the browser path makes it (URLs already resolved against the source's base). */
export interface BrowserCall {
  source: Alias;
  /** The source's base URL: its host is the one the page may reach besides its asset hosts. */
  base: string;
  target: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: { data: string; contentType: string };
  expect: Expect;
  /** The page whose script makes the request; null: the target itself (a page) or, for an API request, the site's root page. */
  page: URL | null;
  /** Which of the page's requests carries the reply; null: the page's own document. */
  capture: RegExp | null;
  /** What a usable captured reply is. */
  captureExpect: Expect;
  market?: string;
  signal?: AbortSignal;
  session: UpstreamSession;
  /**
   * A visit that clears a wall for plain requests: once the reply is in, the cookies of `walls`
   * the context holds for the source's host go to `keep` with the user agent (nothing else of the context).
   */
  harvest?: HarvestRequest;
}

/** A script challenge reloads the page: how many documents one call follows. */
const MAX_DOCUMENTS = 4;
/** Headers the page's own fetch may not set (the browser sets them). */
const FORBIDDEN_HEADERS = /^(user-agent|cookie|host|content-length|accept-encoding|accept-language|origin|referer|connection|sec-.*)$/i;

/** A kept context serves calls for at most this long after it was opened (whatever its idle setting). */
const WARM_CONTEXT_MAX_AGE_MS = 10 * 60_000;

class DeadlinePassed extends Error {}

/** What one call saw, for the answer when the deadline passes. */
interface CallState {
  challenge: BlockVerdict | null;
  blocked: BlockedRequest[];
  awaited: URL;
}

export class BrowserFetcher {
  readonly #pool: BrowserPool;
  readonly #contexts: BrowserContexts;
  readonly #reachable = new Map<string, Promise<boolean>>();

  constructor(
    private readonly settings: BrowserSettings,
    private readonly log: Logger,
    private readonly observer: BrowserObserver | null = null,
  ) {
    this.#pool = new BrowserPool({
      executablePath: settings.executablePath,
      args: upstreamBrowserFlags(settings.memoryMb),
      contexts: settings.contexts,
      queue: settings.queue,
      recyclePages: settings.recyclePages,
      idleCloseMs: settings.idleCloseMs,
      launchTimeoutMs: settings.launchTimeoutMs ?? settings.timeoutMs,
    });
    this.#contexts = new BrowserContexts({
      warmMs: settings.warmContextMs ?? 0,
      maxUses: settings.recyclePages,
      maxAgeMs: WARM_CONTEXT_MAX_AGE_MS,
      maxIdle: settings.contexts,
    });
  }

  stats(): PoolStats & { warm: number; reused: number } {
    return { ...this.#pool.stats(), ...this.#contexts.stats() };
  }

  /** Starts Chromium ahead of the first call (see BrowserPool.warm). */
  warm(): Promise<void> {
    return this.#pool.warm();
  }

  /**
   * Whether the browser path may open this source's pages at all: its base host must pass the
   * egress rules (a private address only with UPSTREAM_BROWSER_ALLOW_PRIVATE). Without it an
   * `auto` source keeps its plain answer instead of a browser attempt bound to be refused.
   */
  reachable(base: string): Promise<boolean> {
    const known = this.#reachable.get(base);
    if (known) return known;
    const url = new URL(base);
    const rules = new EgressRules(base, [], this.settings.allowPrivate);
    const verdict = rules.resolve(url.hostname, url.port || (url.protocol === 'https:' ? '443' : '80'));
    // a name that did not resolve this time is asked again next time
    const answer = verdict.then((r) => ('unresolved' in r ? null : 'address' in r));
    this.#reachable.set(
      base,
      answer.then((r) => r ?? false),
    );
    void answer.then((r) => r === null && this.#reachable.delete(base));
    return answer.then((r) => r ?? false);
  }

  async fetch(call: BrowserCall): Promise<UpstreamResponse> {
    const started = performance.now();
    const deadline = Date.now() + this.settings.timeoutMs;
    let outcome: BrowserOutcome = 'failed';
    try {
      const lease = await this.#pool.acquire(deadline, call.signal);
      try {
        const res = await this.#run(lease.browser, call, deadline, started);
        outcome = 'ok';
        return res;
      } finally {
        lease.release();
      }
    } catch (err) {
      outcome = classify(err);
      throw err instanceof ApiError ? err : new UpstreamFailed(`Browser${(err as Error).name ?? 'Error'}`);
    } finally {
      this.observer?.call(call.source, outcome, (performance.now() - started) / 1000);
    }
  }

  async close(): Promise<void> {
    await this.#contexts.closeAll();
    await this.#pool.close();
  }

  async #run(browser: Browser, call: BrowserCall, deadline: number, started: number): Promise<UpstreamResponse> {
    const rules = new EgressRules(call.base, [...BROWSER_HOSTS[call.source], ...CHALLENGE_HOSTS], this.settings.allowPrivate);
    const state: CallState = { challenge: null, blocked: [], awaited: call.page ?? call.target };
    const refuse = (b: BlockedRequest) => {
      state.blocked.push(b);
      this.observer?.blocked(call.source, b.reason);
    };
    let use: ContextUse | null = null;
    let ok = false;
    const cleanups: (() => void)[] = [];
    try {
      const language = acceptLanguage(call.market);
      const spec = { source: call.source, base: call.base, market: call.market, userAgent: userAgentOf(browser), language, rules };
      use = await this.#contexts.open(browser, spec, refuse);
      const { context, page } = use;
      const stop = new Promise<never>((_, reject) => {
        // over UPSTREAM_BROWSER_MEMORY_MB the renderer dies of its heap cap
        page.once('crash', () => reject(new UpstreamFailed('BrowserPageCrashed')));
        const timer = setTimeout(() => reject(new DeadlinePassed()), Math.max(0, deadline - Date.now()));
        const onAbort = () => reject(new UpstreamFailed('Aborted'));
        call.signal?.addEventListener('abort', onAbort, { once: true });
        cleanups.push(
          () => clearTimeout(timer),
          () => call.signal?.removeEventListener('abort', onAbort),
        );
      });
      const work = this.#obtain(page, call, state, deadline);
      // the loser of the race must not reject unobserved
      work.catch(() => undefined);
      stop.catch(() => undefined);
      const reply = await Promise.race([work, stop]).catch((err) => {
        throw err instanceof DeadlinePassed ? this.#late(state) : err;
      });
      if (call.harvest) call.harvest.keep(harvestOf(await context.cookies(), call.base, call.harvest, userAgentOf(browser)));
      ok = true;
      return toResponse(call, reply, started, this.settings.dataDir);
    } finally {
      for (const c of cleanups) c();
      if (state.blocked.length)
        this.log.warn({ source: call.source, blocked: state.blocked.slice(0, 20) }, 'browser page requests refused by the egress rules');
      await use?.done(ok);
    }
  }

  /** The reply the call wants, once the page has produced it. */
  async #obtain(page: Page, call: BrowserCall, state: CallState, deadline: number): Promise<Captured> {
    const documents = trackDocuments(page);
    if (call.capture) {
      const pattern = call.capture;
      state.awaited = call.page ?? call.target;
      const captured = page.waitForResponse((r) => pattern.test(r.url()), { timeout: 0 });
      captured.catch(() => undefined);
      // the page may first be a script challenge; the capture waits through its reload (the page is a page, whatever the capture is)
      const doc = await this.#settle(page, state.awaited, 'html', documents, state, deadline);
      // a page that is not there makes no request worth waiting for
      if (doc.status >= 400) throw upstreamStatusFailure(doc.status, { retryAfter: doc.headers['retry-after'] })!;
      return read(await captured, call.captureExpect);
    }
    if (call.method === 'GET' && call.expect !== 'json') return this.#settle(page, call.target, call.expect, documents, state, deadline);
    // an API request: pass the site's page first (its challenge sets its cookies), then ask from that page
    await this.#settle(page, new URL('/', call.target), 'html', documents, state, deadline);
    state.awaited = call.target;
    const answer = page.waitForResponse((r) => r.url() === call.target.href && r.request().method() === call.method, { timeout: 0 });
    answer.catch(() => undefined);
    const headers = Object.fromEntries(
      Object.entries({ ...call.headers, ...(call.body ? { 'content-type': call.body.contentType } : {}) }).filter(([k]) => !FORBIDDEN_HEADERS.test(k)),
    );
    await page.evaluate(
      ({ url, method, headers, body }) => {
        void fetch(url, { method, headers, body, credentials: 'include' }).catch(() => undefined);
      },
      { url: call.target.href, method: call.method, headers, body: call.body?.data },
    );
    return read(await answer, call.expect);
  }

  /**
   * Opens `url` and follows the page through script challenges (each reloads it once its cookie is
   * set) to the first document that is not one.
   */
  async #settle(page: Page, url: URL, expect: Expect, documents: DocumentLog, state: CallState, deadline: number): Promise<Captured> {
    let response: Response | null;
    try {
      response = await page.goto(url.href, { waitUntil: 'commit', timeout: Math.max(1, deadline - Date.now()) });
    } catch (err) {
      response = documents.latest();
      if (!response) throw this.#navigationError(err, state);
    }
    if (!response) throw new UpstreamFailed('BrowserNavigationFailed');
    for (let n = 1; ; n++) {
      const doc = await read(response, expect).catch((err: unknown) => (err instanceof UpstreamBlocked ? err : null));
      const next = documents.after(response);
      if (doc && !(doc instanceof UpstreamBlocked)) return doc;
      if (doc instanceof UpstreamBlocked) {
        if (!isScriptChallenge(doc) || n >= MAX_DOCUMENTS) throw doc;
        state.challenge = { detail: doc.detail, marker: doc.marker };
      }
      // a challenge (or a document replaced before it could be read): the page's next document
      response = next ?? (await documents.next(response, deadline));
    }
  }

  #navigationError(err: unknown, state: CallState): ApiError {
    if (err instanceof ApiError) return err;
    if (state.blocked.length) return new UpstreamFailed('BrowserRequestBlocked');
    return new UpstreamFailed(`BrowserNavigation${(err as Error).name === 'TimeoutError' ? 'Timeout' : 'Failed'}`);
  }

  /** The deadline passed: the challenge that never cleared, the refused request it needed, or a timeout. */
  #late(state: CallState): ApiError {
    if (state.challenge) return new UpstreamBlocked(state.challenge.detail, state.challenge.marker);
    const awaitedOrigin = state.awaited.origin;
    if (state.blocked.some((b) => b.origin === awaitedOrigin || b.origin.endsWith(`//${state.awaited.host}`)))
      return new UpstreamFailed('BrowserRequestBlocked');
    return new UpstreamFailed('BrowserTimeout');
  }
}

interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: string;
  wireBytes: number;
}

/** A reply's body and headers; a block page or challenge throws its verdict, as the plain client does. */
async function read(r: Response, expect: Expect): Promise<Captured> {
  const [body, headers] = await Promise.all([r.body(), r.allHeaders()]);
  const verdict = detectBlock({ status: r.status(), url: r.url(), headers, body, expect });
  if (verdict) throw new UpstreamBlocked(verdict.detail, verdict.marker);
  const sizes = await r
    .request()
    .sizes()
    .catch(() => null);
  return { status: r.status(), headers, body, url: r.url(), wireBytes: sizes?.responseBodySize || body.length };
}

function toResponse(call: BrowserCall, c: Captured, started: number, dataDir: string | null): UpstreamResponse {
  return makeResponse({
    status: c.status,
    headers: c.headers,
    body: c.body,
    wireBytes: c.wireBytes,
    url: c.url,
    elapsedMs: Math.round(performance.now() - started),
    egressMode: 'browser',
    attempts: 1,
    source: call.source,
    framing: 'length',
    expect: call.capture ? call.captureExpect : call.expect,
    dataDir: call.session.keep ? dataDir : null,
    owner: call.session.keep,
  });
}

interface DocumentLog {
  latest(): Response | null;
  after(r: Response): Response | null;
  next(r: Response, deadline: number): Promise<Response>;
}

/** The main frame's document replies in order (a challenge's reload adds one). */
function trackDocuments(page: Page): DocumentLog {
  const docs: Response[] = [];
  const waiters = new Set<() => void>();
  page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) {
      docs.push(r);
      for (const w of waiters) w();
    }
  });
  const after = (r: Response) => docs[docs.indexOf(r) + 1] ?? null;
  return {
    latest: () => docs.at(-1) ?? null,
    after,
    next: (r, deadline) =>
      new Promise<Response>((resolve, reject) => {
        const check = () => {
          const n = after(r);
          if (!n) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(n);
        };
        const timer = setTimeout(
          () => {
            waiters.delete(check);
            reject(new DeadlinePassed());
          },
          Math.max(0, deadline - Date.now()),
        );
        waiters.add(check);
        check();
      }),
  };
}

/** Chromium's own user agent without the "Headless" mark, at its reduced form (as Chrome sends it). */
function userAgentOf(browser: Browser): string {
  const major = browser.version().split('.')[0];
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

function classify(err: unknown): BrowserOutcome {
  if (err instanceof BrowserBusy) return 'busy';
  if (err instanceof DependencyDown) return 'unavailable';
  if (err instanceof UpstreamBlocked) return 'blocked';
  if (err instanceof UpstreamFailed && /timeout/i.test(err.detail)) return 'timeout';
  return 'failed';
}
