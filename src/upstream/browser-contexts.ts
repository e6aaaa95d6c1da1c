/**
 * The browser path's contexts, kept warm between calls. Opening a Chromium context with its egress
 * proxy, request gate and consent cookies costs about as much as a small page load (on a loaded
 * 2-core machine 0.7–1 s more per call than a warm one; bench/browser-pool.ts compares both), so a
 * context is kept per source and market for the next call, within bounds: idle at most `warmMs`,
 * at most `maxUses` calls and `maxAgeMs` old, at most `maxIdle` kept at once.
 *
 * Nothing of a call reaches the next one, whoever makes it: each call gets a page of its own
 * (session storage dies with it), and after the call every cookie of the context goes and every
 * origin the call's requests reached has its storage cleared (local storage, IndexedDB, cache
 * storage, service workers: CDP Storage.clearDataForOrigin) before the context is kept. The HTTP
 * cache holds nothing: the request gate (a route) turns it off for the context. A call that failed,
 * or whose clearing failed, closes its context instead.
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { startEgressGuard, type BlockedRequest, type EgressGuard, type EgressRules } from './browser-egress.js';
import { CONSENT_COOKIES } from './consent-cookies.js';

export interface WarmSettings {
  /** How long an idle context is kept for the next call; 0: a fresh context per call. */
  warmMs: number;
  maxUses: number;
  maxAgeMs: number;
  /** Idle contexts kept at once (the oldest goes first). */
  maxIdle: number;
}

/** What a context is opened with: everything that must be the same for a kept one to serve a call. */
export interface ContextSpec {
  source: string;
  /** The source's base URL (the consent cookies go to its site). */
  base: string;
  market: string | undefined;
  userAgent: string;
  language: string;
  rules: EgressRules;
}

/** A context and a fresh page for one call; `done` clears and keeps it, or closes it. */
export interface ContextUse {
  context: BrowserContext;
  page: Page;
  /** Whether this call's context had served an earlier call. */
  reused: boolean;
  done(ok: boolean): Promise<void>;
}

interface Entry {
  key: string;
  browser: Browser;
  context: BrowserContext;
  guard: EgressGuard;
  /** Where the current call's refused requests are reported. */
  refuse: (b: BlockedRequest) => void;
  /** Origins the current call's requests reached: whose storage is cleared after it. */
  origins: Set<string>;
  created: number;
  uses: number;
  idleTimer: NodeJS.Timeout | null;
}

/** Loaded by nothing the answer needs. */
const SKIPPED_RESOURCES = new Set(['image', 'font', 'media']);
const ignore = () => undefined;

export class BrowserContexts {
  readonly #idle = new Map<string, Entry>();
  #reused = 0;

  constructor(private readonly settings: WarmSettings) {}

  /** Idle contexts kept now, and calls served by a kept one so far. */
  stats(): { warm: number; reused: number } {
    return { warm: this.#idle.size, reused: this.#reused };
  }

  async open(browser: Browser, spec: ContextSpec, refuse: (b: BlockedRequest) => void): Promise<ContextUse> {
    const key = `${spec.source}|${spec.market ?? ''}|${spec.userAgent}|${spec.language}`;
    let entry = this.#take(key, browser);
    const reused = entry !== null;
    entry ??= await this.#create(key, browser, spec);
    entry.refuse = refuse;
    entry.origins.clear();
    entry.uses++;
    if (reused) this.#reused++;
    let page: Page;
    try {
      page = await entry.context.newPage();
    } catch (err) {
      await this.#discard(entry);
      throw err;
    }
    const used = entry;
    return { context: used.context, page, reused, done: (ok) => this.#release(used, page, spec, ok) };
  }

  async closeAll(): Promise<void> {
    const all = [...this.#idle.values()];
    this.#idle.clear();
    await Promise.all(all.map((e) => this.#discard(e)));
  }

  /** The kept context for this key, if it still belongs to the running browser. */
  #take(key: string, browser: Browser): Entry | null {
    const entry = this.#idle.get(key);
    if (!entry) return null;
    this.#idle.delete(key);
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = null;
    if (entry.browser === browser && browser.isConnected()) return entry;
    void this.#discard(entry);
    return null;
  }

  async #create(key: string, browser: Browser, spec: ContextSpec): Promise<Entry> {
    const entry = { key, browser, origins: new Set<string>(), created: Date.now(), uses: 0, idleTimer: null } as Omit<Entry, 'context' | 'guard' | 'refuse'> &
      Partial<Entry>;
    entry.refuse = ignore;
    const report = (b: BlockedRequest) => entry.refuse!(b);
    const guard = await startEgressGuard(spec.rules, report);
    try {
      const context = await browser.newContext({
        userAgent: spec.userAgent,
        locale: spec.language.split(',')[0],
        extraHTTPHeaders: { 'accept-language': spec.language },
        serviceWorkers: 'block',
        acceptDownloads: false,
        // '<-loopback>': loopback goes through the guard too (Chromium would bypass the proxy for it)
        proxy: { server: guard.proxyUrl, bypass: '<-loopback>' },
      });
      await addConsent(context, spec.base);
      await context.route('**/*', (route) => gate(route, spec.rules, report, entry.origins));
      // no source needs a WebSocket: each one the page opens is closed without reaching the network
      await context.routeWebSocket(
        () => true,
        (ws) => ws.close(),
      );
      return Object.assign(entry, { context, guard }) as Entry;
    } catch (err) {
      await guard.close();
      throw err;
    }
  }

  /** After a call: cleared and kept for the next one, or closed. */
  async #release(entry: Entry, page: Page, spec: ContextSpec, ok: boolean): Promise<void> {
    entry.refuse = ignore;
    const keep =
      ok &&
      this.settings.warmMs > 0 &&
      entry.uses < this.settings.maxUses &&
      Date.now() - entry.created < this.settings.maxAgeMs &&
      entry.browser.isConnected() &&
      !this.#idle.has(entry.key);
    if (!keep) {
      await page.close().catch(ignore);
      return this.#discard(entry);
    }
    try {
      await clearStorage(entry.context, page, entry.origins);
      await page.close();
      await entry.context.clearCookies();
      await addConsent(entry.context, spec.base);
    } catch {
      return this.#discard(entry);
    }
    // raced by another call of the same key meanwhile: one kept is enough
    if (this.#idle.has(entry.key)) return this.#discard(entry);
    while (this.#idle.size >= this.settings.maxIdle) {
      const [oldest] = this.#idle.values();
      if (!oldest) break;
      this.#idle.delete(oldest.key);
      if (oldest.idleTimer) clearTimeout(oldest.idleTimer);
      void this.#discard(oldest);
    }
    entry.idleTimer = setTimeout(() => {
      if (this.#idle.get(entry.key) === entry) this.#idle.delete(entry.key);
      void this.#discard(entry);
    }, this.settings.warmMs);
    entry.idleTimer.unref();
    this.#idle.set(entry.key, entry);
  }

  async #discard(entry: Entry): Promise<void> {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = null;
    await entry.context.close().catch(ignore);
    await entry.guard.close().catch(ignore);
  }
}

/** The search engine's sites ask for a consent choice in some markets: our constant "reject all", as the plain client sends it. */
async function addConsent(context: BrowserContext, base: string): Promise<void> {
  if (/(^|\.)google\.com$/.test(new URL(base).hostname))
    await context.addCookies(CONSENT_COOKIES.map((c) => ({ ...c, domain: '.google.com', path: '/', secure: true })));
}

/** Every origin's storage a call reached (cookies go with the context's clearCookies). */
async function clearStorage(context: BrowserContext, page: Page, origins: Set<string>): Promise<void> {
  if (origins.size === 0) return;
  const cdp = await context.newCDPSession(page);
  try {
    for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  } finally {
    await cdp.detach().catch(ignore);
  }
}

/** Every request of the page: skipped media, refused hosts (the guard refuses them anyway), the rest as the page asked. */
async function gate(route: Route, rules: EgressRules, refuse: (b: BlockedRequest) => void, origins: Set<string>): Promise<void> {
  const req = route.request();
  try {
    const url = new URL(req.url());
    if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    if (SKIPPED_RESOURCES.has(req.resourceType())) return await route.abort('blockedbyclient');
    const reason = rules.check(url);
    if (reason) {
      refuse({ origin: url.origin, reason });
      return await route.abort('blockedbyclient');
    }
    await route.continue();
  } catch {
    // the page or its context closed meanwhile
  }
}
