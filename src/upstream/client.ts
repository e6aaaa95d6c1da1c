import type { Logger } from 'pino';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import type { Config } from '../config/config.js';
import { ApiError, DependencyDown, UpstreamFailed, detailText, upstreamStatusFailure } from '../domain/errors.js';
import { UpstreamBlocked, detectBlock, isConsentUrl, isScriptChallenge, isSorryUrl } from './blocked.js';
import type { BrowserFetcher, BrowserPlan } from './browser-fetch.js';
import { CONSENT_COOKIES } from './consent-cookies.js';
import type { CookieJar } from './cookie-jar.js';
import { bodyText, decodeBody, readCapped, TRUNCATED } from './decode.js';
import { deviceHeaders, type Device, type Expect } from './devices.js';
import { keepRawReply } from './diagnostics.js';
import { redactProxy } from '../config/proxies.js';
import { proxyForMarket, type EgressMode } from './egress.js';
import type { Alias } from '../config/hosts.js';
import type { WallId } from '../config/walls.js';
import type { UpstreamMode } from '../config/upstream-modes.js';
import { flattenHeaders, makeResponse, textLooksCut, type Framing, type UpstreamResponse } from './response.js';
import { encodeBody, errorName, framingOf, isRetryable, sleep, type EncodedBody } from './transfer.js';
import { newUpstreamSession, type UpstreamSession } from './session.js';
import { applyClearance, type ClearanceKeeper, type HarvestRequest } from './clearance.js';
import type { WallClearance } from '../platform/wall-clearances.js';
import type { PathEvent } from '../ops/metrics.js';

export type { UpstreamResponse } from './response.js';

export interface UpstreamRequest {
  source: Alias;
  method?: 'GET' | 'POST';
  /** Path (and optionally query) relative to the alias's base URL; never an absolute URL. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: string | object;
  device?: Device;
  /** Two-letter country: Accept-Language and, with market_proxy, the proxy. */
  market?: string;
  timeoutMs?: number;
  /** What a usable reply is; 'html' and 'json' make an empty 2xx body a failure. Default 'html'. */
  expect?: Expect;
  /** A base URL from the operator's configuration (a point of sale's own domain) instead of the alias's host. */
  baseUrl?: string;
  /** Ends the request (and its retries) early, e.g. when the caller's own deadline has passed. */
  signal?: AbortSignal;
  /** The logical operation this request belongs to (its cookies, whether raw replies may be kept); absent: its own. */
  session?: UpstreamSession;
  /** How the browser path obtains this reply (the page whose script makes the request, and which of its replies to take). */
  browser?: BrowserPlan;
  /** 'browser': through headless Chromium now (the source found the plain reply refused); absent: as the source's mode says. */
  via?: 'browser';
  /**
   * The request is for the caller's object (a property, listing, job, app): a 404/410 means it does
   * not exist, answered as NotFound with this detail. Without it a 404 is an upstream error.
   */
  notFound?: string;
  /**
   * Error statuses (≥ 400) the source reads itself: their replies are returned. Every other error
   * status is raised by the failure table (domain/errors.ts upstreamStatusFailure).
   */
  statuses?: readonly number[];
}

export type UpstreamClientConfig = Pick<
  Config,
  | 'upstreamHosts'
  | 'UPSTREAM_TIMEOUT_MS'
  | 'UPSTREAM_RETRIES'
  | 'UPSTREAM_BACKOFF_MS'
  | 'EGRESS_MODE'
  | 'MARKET_PROXIES'
  | 'DEFAULT_PROXY_URL'
  | 'dataDir'
  | 'upstreamModes'
>;

const MAX_REDIRECTS = 5;
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const BACKOFF_CAP_MS = 8_000;

/** Where the upstream paths' events go (ops/outcome-store.ts counts them per source, all processes together). */
export interface PathEvents {
  event(source: string, name: PathEvent): void;
}

export interface UpstreamClientOptions {
  /** Kept anti-bot clearance shared by every process; null: each challenged call clears for itself. */
  clearances?: ClearanceKeeper | null;
  events?: PathEvents | null;
  /** The walls known in front of each source (its manifest's guards): the clearance cookies it keeps beyond the wall a challenge names. */
  walls?: Partial<Record<Alias, readonly WallId[]>>;
}

/** The egress a clearance is bound to: browser visits go direct, so only a direct plain request can send what one earned. */
const DIRECT = 'direct';

/** A plain request, with the kept clearance it sends (its cookies and user agent). */
type PlainRequest = UpstreamRequest & { clearance?: WallClearance };

interface Hop {
  status: number;
  headers: Record<string, string>;
  raw: Buffer;
  url: string;
  framing: Framing;
}

/**
 * One per process: keep-alive pools per origin, retries, decoding, block detection. Nothing an
 * upstream reply teaches (cookies) outlives the request's session, so no caller's state reaches another.
 */
export class UpstreamClient {
  /**
   * Hosts that asked for the consent choice once. Only our own constant consent cookies are sent
   * to them from the start; nothing of the upstream's reply is kept.
   */
  readonly #consentHosts = new Set<string>();
  readonly #log: Logger;
  readonly #direct: Agent;
  readonly #proxies = new Map<string, ProxyAgent>();
  readonly #clearances: ClearanceKeeper | null;
  readonly #events: PathEvents | null;
  readonly #walls: Partial<Record<Alias, readonly WallId[]>>;
  #closed = false;

  constructor(
    private readonly config: UpstreamClientConfig,
    log: Logger,
    private readonly dataDir: string | null = config.dataDir,
    private readonly browser: BrowserFetcher | null = null,
    opts: UpstreamClientOptions = {},
  ) {
    this.#log = log.child({ component: 'upstream' });
    this.#direct = new Agent(this.#agentOptions());
    this.#clearances = opts.clearances ?? null;
    this.#events = opts.events ?? null;
    this.#walls = opts.walls ?? {};
  }

  /** How the source is reached (`UPSTREAM_<ALIAS>_MODE`). */
  modeOf(source: Alias): UpstreamMode {
    return this.config.upstreamModes[source];
  }

  /**
   * Whether a refused plain reply of this request may be retried through the browser: the source
   * is `auto` and its pages are reachable under the browser's egress rules.
   */
  async browserFallback(req: Pick<UpstreamRequest, 'source' | 'baseUrl'>): Promise<boolean> {
    if (this.modeOf(req.source) !== 'auto' || !this.browser) return false;
    return this.browser.reachable(req.baseUrl ?? this.config.upstreamHosts[req.source]);
  }

  /**
   * By the source's mode: `http` plain only; `browser` headless Chromium only; `auto` plain, and a
   * script challenge retried once through the browser (whose answer, or failure, is then reported).
   * A plain request sends the source's kept clearance (clearance.ts) when there is one; a challenge
   * then refuses it, and one browser visit across processes renews it for every waiting call.
   */
  async fetch(req: UpstreamRequest): Promise<UpstreamResponse> {
    return judged(req, await this.#fetch(req));
  }

  async #fetch(req: UpstreamRequest): Promise<UpstreamResponse> {
    const scoped = { ...req, session: req.session ?? newUpstreamSession() };
    const mode = this.modeOf(req.source);
    // a source asks for the browser only after browserFallback said yes; an `http` source never goes there
    if (mode === 'browser' || (req.via === 'browser' && mode === 'auto')) return this.#viaBrowser(scoped);
    scoped.session.paths.add('http');
    const egress = this.#clearanceEgress(req);
    if (egress) {
      return this.#clearances!.through({
        source: req.source,
        egress,
        walls: this.#walls[req.source] ?? [],
        signal: req.signal,
        plain: (clearance) => this.#plainOn(scoped, clearance),
        browser: (harvest) => this.#viaBrowser(scoped, harvest),
        mayBrowse: () => this.browserFallback(req),
      });
    }
    try {
      return await this.#plain(scoped);
    } catch (err) {
      if (!isScriptChallenge(err) || !(await this.browserFallback(req))) throw err;
      this.#log.warn({ source: req.source, detail: (err as UpstreamBlocked).detail }, 'script challenge, retrying once through the browser');
      return this.#viaBrowser(scoped);
    }
  }

  /** A plain request, with the clearance's cookies and user agent when one is held. */
  async #plainOn(req: UpstreamRequest & { session: UpstreamSession }, clearance: WallClearance | null): Promise<UpstreamResponse> {
    if (!clearance) return this.#plain(req);
    const res = await this.#plain({ ...req, clearance });
    this.#events?.event(req.source, 'plain_on_clearance');
    return res;
  }

  /** The egress whose clearance a plain request of `req` may send: the direct one, when it goes direct (and clearances are kept). */
  #clearanceEgress(req: UpstreamRequest): string | null {
    if (!this.#clearances || !this.browser) return null;
    if (this.config.EGRESS_MODE !== 'market_proxy') return DIRECT;
    return proxyForMarket(this.config.MARKET_PROXIES, this.config.DEFAULT_PROXY_URL, req.market) ? null : DIRECT;
  }

  async #viaBrowser(req: UpstreamRequest & { session: UpstreamSession }, harvest?: HarvestRequest): Promise<UpstreamResponse> {
    if (!this.browser) throw new DependencyDown('headless browser path not configured');
    req.session.paths.add('browser');
    this.#events?.event(req.source, 'browser_visit');
    const plan = req.browser ?? {};
    return this.browser.fetch({
      harvest,
      source: req.source,
      base: req.baseUrl ?? this.config.upstreamHosts[req.source],
      target: this.#url(req),
      method: req.method ?? 'GET',
      headers: req.headers ?? {},
      body: encodeBody(req.body),
      expect: req.expect ?? 'html',
      page: plan.page ? this.#url({ ...req, path: plan.page.path, query: plan.page.query }) : null,
      capture: plan.capture ?? null,
      captureExpect: plan.expect ?? req.expect ?? 'html',
      market: req.market,
      signal: req.signal,
      session: req.session,
    });
  }

  async #plain(req: PlainRequest): Promise<UpstreamResponse> {
    const started = performance.now();
    const mode = this.config.EGRESS_MODE;
    const proxyUrl = proxyForMarket(this.config.MARKET_PROXIES, this.config.DEFAULT_PROXY_URL, req.market);
    const state = { attempts: 0, started, session: req.session ?? newUpstreamSession() };
    if (mode === 'market_proxy' && proxyUrl) return this.#attempts(req, proxyUrl, 'market_proxy', state);
    if (mode === 'market_proxy') this.#log.warn({ source: req.source, market: req.market }, 'no proxy for market, going direct');
    try {
      return await this.#attempts(req, null, 'direct', state);
    } catch (err) {
      if (mode !== 'proxy_fallback' || !proxyUrl || !(err instanceof UpstreamBlocked)) throw err;
      this.#log.warn({ source: req.source, detail: err.detail, proxy: redactProxy(proxyUrl) }, 'blocked direct, retrying through proxy');
      return this.#attempts(req, proxyUrl, 'proxy_fallback', state);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([this.#direct.close(), ...[...this.#proxies.values()].map((p) => p.close()), this.browser?.close()]);
  }

  async #attempts(
    req: PlainRequest,
    proxyUrl: string | null,
    egressMode: EgressMode,
    state: { attempts: number; started: number; session: UpstreamSession },
  ): Promise<UpstreamResponse> {
    const url = this.#url(req);
    const dispatcher = proxyUrl ? this.#proxy(proxyUrl) : this.#direct;
    const max = this.config.UPSTREAM_RETRIES + 1;
    const timeoutMs = req.timeoutMs ?? this.config.UPSTREAM_TIMEOUT_MS;
    for (let i = 1; ; i++) {
      if (req.signal?.aborted) throw new UpstreamFailed('Aborted');
      state.attempts++;
      let hop: Hop;
      let body: Buffer;
      try {
        hop = await this.#exchange(req, url, dispatcher, timeoutMs, state.session.cookies);
        body = decodeBody(hop.raw, hop.headers['content-encoding'], MAX_BODY_BYTES);
        // a reply ended only by the connection closing may have been cut without any error
        if (hop.framing === 'close' && textLooksCut(bodyText(body, hop.headers['content-type']), 'close')) throw new UpstreamFailed(TRUNCATED);
      } catch (err) {
        // a transfer cut mid-way (reset socket, short body, cut compressed stream) is retried like any network failure
        if (err instanceof ApiError && !isTruncation(err)) throw err;
        if (req.signal?.aborted) throw new UpstreamFailed('Aborted');
        const detail = err instanceof ApiError ? detailText(err) : errorName(err);
        if (i < max && isRetryable(err)) {
          this.#log.debug({ source: req.source, attempt: i, err: detail }, 'upstream network error, retrying');
          await sleep(this.#backoff(i));
          continue;
        }
        this.#log.warn({ source: req.source, url: url.origin + url.pathname, attempts: state.attempts, err: detail }, 'upstream unreachable');
        throw new UpstreamFailed(detail);
      }

      const verdict = detectBlock({ status: hop.status, url: hop.url, headers: hop.headers, body, expect: req.expect ?? 'html' });
      if (verdict) {
        this.#log.warn({ source: req.source, status: hop.status, ...verdict }, 'upstream blocked or unusable reply');
        await this.#keep(state.session, req.source, body, { url: hop.url, status: hop.status, reason: 'blocked', ...verdict });
        throw new UpstreamBlocked(verdict.detail, verdict.marker);
      }
      if (hop.status === 429 || hop.status >= 500) {
        if (i < max) {
          await sleep(this.#backoff(i, hop.headers['retry-after']));
          continue;
        }
        this.#log.warn({ source: req.source, status: hop.status, attempts: state.attempts }, 'upstream retries exhausted');
        throw upstreamStatusFailure(hop.status, { retryAfter: hop.headers['retry-after'] })!;
      }
      return makeResponse({
        status: hop.status,
        headers: hop.headers,
        body,
        wireBytes: hop.raw.length,
        url: hop.url,
        elapsedMs: Math.round(performance.now() - state.started),
        egressMode,
        attempts: state.attempts,
        source: req.source,
        framing: hop.framing,
        expect: req.expect ?? 'html',
        dataDir: state.session.keep ? this.dataDir : null,
        owner: state.session.keep,
      });
    }
  }

  /** One attempt: follows redirects by hand so every hop feeds the cookie jar and /sorry/ or consent hops are caught. */
  async #exchange(req: PlainRequest, start: URL, dispatcher: Dispatcher, timeoutMs: number, cookies: CookieJar): Promise<Hop> {
    if (req.clearance) applyClearance(cookies, start, req.clearance);
    const signal = req.signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), req.signal]) : AbortSignal.timeout(timeoutMs);
    let method: 'GET' | 'POST' = req.method ?? 'GET';
    let body = encodeBody(req.body);
    let url = start;
    let consentTried = false;
    if (this.#consentHosts.has(start.hostname)) this.#acceptConsent(cookies, start);
    for (let hop = 0; ; hop++) {
      const res = await request(url, {
        method,
        headers: this.#headers(req, url, body, cookies),
        body: body?.data,
        dispatcher,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      cookies.storeFromHeaders(url, res.headers['set-cookie']);
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        await res.body.dump();
        const next = new URL(location, url);
        if (isSorryUrl(next.href)) throw new UpstreamBlocked('CaptchaChallenge', 'redirect:/sorry/');
        if (isConsentUrl(next.href)) {
          if (consentTried) throw new UpstreamBlocked('ConsentWall', 'redirect:consent.');
          consentTried = true;
          this.#consentHosts.add(start.hostname);
          this.#acceptConsent(cookies, start);
          url = start;
          method = req.method ?? 'GET';
          body = encodeBody(req.body);
          continue;
        }
        if (hop >= MAX_REDIRECTS) throw new UpstreamFailed('TooManyRedirects');
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      const raw = await readCapped(res.body, MAX_BODY_BYTES, res.headers['content-length']);
      const headers = flattenHeaders(res.headers);
      return { status: res.statusCode, headers, raw, url: url.href, framing: framingOf(headers) };
    }
  }

  #url(req: UpstreamRequest): URL {
    if (!req.path.startsWith('/')) throw new Error(`upstream path must start with "/": ${req.path}`);
    const url = new URL((req.baseUrl ?? this.config.upstreamHosts[req.source]) + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  #headers(req: PlainRequest, url: URL, body: EncodedBody | undefined, cookies: CookieJar): Record<string, string> {
    const headers = deviceHeaders(req.device ?? 'desktop', req.market, req.expect ?? 'html');
    if (req.clearance) {
      // the clearance is bound to the browser that earned it: its user agent, and no client hints of another browser
      headers['user-agent'] = req.clearance.userAgent;
      for (const name of Object.keys(headers)) if (name.startsWith('sec-ch-ua')) delete headers[name];
    }
    if (body) headers['content-type'] = body.contentType;
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    const jar = cookies.header(url);
    if (jar) headers.cookie = headers.cookie ? `${headers.cookie}; ${jar}` : jar;
    return headers;
  }

  #acceptConsent(cookies: CookieJar, url: URL): void {
    const host = url.hostname;
    const isIp = /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
    const domain = isIp ? undefined : `.${host.replace(/^www\./, '')}`;
    for (const c of CONSENT_COOKIES) cookies.set(url, { ...c, domain, maxAgeSeconds: 400 * 24 * 3600 });
  }

  #backoff(attempt: number, retryAfter?: string): number {
    const base = Math.min(BACKOFF_CAP_MS, this.config.UPSTREAM_BACKOFF_MS * 2 ** (attempt - 1));
    const jittered = base / 2 + Math.random() * (base / 2);
    const hinted = retryAfter && /^\d+$/.test(retryAfter) ? Math.min(BACKOFF_CAP_MS, Number(retryAfter) * 1000) : 0;
    return Math.max(jittered, hinted);
  }

  #proxy(proxyUrl: string): ProxyAgent {
    let agent = this.#proxies.get(proxyUrl);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxyUrl, ...this.#agentOptions() });
      this.#proxies.set(proxyUrl, agent);
    }
    return agent;
  }

  #agentOptions(): Agent.Options {
    return {
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 32,
      connect: { timeout: Math.min(10_000, this.config.UPSTREAM_TIMEOUT_MS) },
    };
  }

  async #keep(session: UpstreamSession, source: Alias, body: Buffer, meta: Record<string, unknown>): Promise<void> {
    if (!this.dataDir || !session.keep) return;
    try {
      await keepRawReply(this.dataDir, source, body, { ...meta, ...session.keep });
    } catch (err) {
      this.#log.warn({ source, err: (err as Error).message }, 'could not keep raw reply');
    }
  }
}

/** The failure table applied to a reply's status, unless the source reads that status itself. */
function judged(req: UpstreamRequest, res: UpstreamResponse): UpstreamResponse {
  if (res.status < 400 || req.statuses?.includes(res.status)) return res;
  throw upstreamStatusFailure(res.status, { notFound: req.notFound, retryAfter: res.headers['retry-after'] })!;
}

function isTruncation(err: ApiError): boolean {
  return err instanceof UpstreamFailed && err.detail === TRUNCATED;
}
