import dns from 'node:dns';
import net from 'node:net';
import { Agent, request } from 'undici';
import type { Config } from '../config/config.js';
import { ApiError, BadRequest, UpstreamFailed } from '../domain/errors.js';
import { errorName } from './transfer.js';
import { CookieJar } from './cookie-jar.js';
import { bodyText, decodeBody, readCapped } from './decode.js';
import { deviceHeaders } from './devices.js';
import { isPublicAddress } from './ip-ranges.js';
import { flattenHeaders } from './response.js';

/**
 * Fetches arbitrary websites (hotel sites, careers pages) without letting a URL, a DNS answer or
 * a redirect steer us into private space. The address check runs inside the socket's own DNS
 * lookup, so the connection goes to exactly the address that was checked (no rebinding race).
 */
export interface SafeFetchOptions {
  /** TEST ONLY (config SAFE_FETCH_ALLOW_PRIVATE): lets the fetcher reach loopback/private addresses. */
  allowPrivate?: boolean;
  /** TEST ONLY: exact addresses let through although non-public (to test refusal of the rest). */
  allowAddresses?: string[];
  timeoutMs?: number;
  /** Cap on the body, on the wire and after decoding. */
  maxBytes?: number;
  maxRedirects?: number;
}

export interface SafeFetchInit {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Ends the fetch early, e.g. when the caller's own deadline has passed. */
  signal?: AbortSignal;
  /**
   * The cookies of one multi-request exchange (a booking engine's page, then its API): sent and
   * kept across this fetch's redirects and the exchange's later fetches. Default: a fresh jar per
   * fetch. It belongs to the caller's one operation and is never shared with another caller.
   */
  jar?: CookieJar;
}

export interface SafeFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  /** Final URL after redirects. */
  url: string;
  /** Every URL that redirected, in order. */
  redirects: string[];
  wireBytes: number;
}

const DEFAULTS = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };

class NonPublicAddress extends Error {
  readonly code = 'ENONPUBLIC';
  constructor(readonly host: string) {
    super(`${host} resolves to a non-public address`);
  }
}

export class SafeFetcher {
  readonly #opts: Required<SafeFetchOptions>;
  readonly #agent: Agent;
  readonly #permitted: (ip: string) => boolean;

  constructor(opts: SafeFetchOptions = {}) {
    this.#opts = { allowPrivate: false, allowAddresses: [], ...DEFAULTS, ...opts };
    const allowed = new Set(this.#opts.allowAddresses);
    this.#permitted = (ip) => this.#opts.allowPrivate || allowed.has(ip) || isPublicAddress(ip);
    this.#agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: { timeout: Math.min(10_000, this.#opts.timeoutMs), lookup: guardedLookup(this.#permitted) },
    });
  }

  static fromConfig(config: Pick<Config, 'SAFE_FETCH_ALLOW_PRIVATE' | 'UPSTREAM_TIMEOUT_MS'>): SafeFetcher {
    return new SafeFetcher({ allowPrivate: config.SAFE_FETCH_ALLOW_PRIVATE, timeoutMs: config.UPSTREAM_TIMEOUT_MS });
  }

  /**
   * Refusals: a bad or non-public starting URL → BadRequest; a redirect into private space →
   * UpstreamFailed('UnsafeRedirect'); network failure → UpstreamFailed(<error class>). Any HTTP
   * status is returned to the caller.
   */
  async fetch(target: string, init: SafeFetchInit = {}): Promise<SafeFetchResponse> {
    const timeout = AbortSignal.timeout(this.#opts.timeoutMs);
    const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
    const jar = init.jar ?? new CookieJar();
    const redirects: string[] = [];
    let url = this.#check(target, 0);
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        const headers: Record<string, string> = { ...deviceHeaders('desktop', undefined, 'html') };
        for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
        const cookie = jar.header(url);
        if (cookie) headers.cookie = cookie;
        res = await request(url, {
          method,
          headers,
          body,
          signal,
          dispatcher: this.#agent,
          headersTimeout: this.#opts.timeoutMs,
          bodyTimeout: this.#opts.timeoutMs,
        });
      } catch (err) {
        if (findNonPublic(err)) throw refusal(hop, url.hostname);
        throw new UpstreamFailed(errorName(err));
      }
      jar.storeFromHeaders(url, res.headers['set-cookie']);
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        await res.body.dump();
        if (hop >= this.#opts.maxRedirects) throw new UpstreamFailed('TooManyRedirects');
        redirects.push(url.href);
        // a Location that is no URL at all (`http://[`) is a broken reply, like any other
        if (!URL.canParse(location, url)) throw new UpstreamFailed('BadRedirect');
        url = this.#check(new URL(location, url).href, hop + 1);
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      let raw: Buffer;
      try {
        raw = await readCapped(res.body, this.#opts.maxBytes);
      } catch (err) {
        throw err instanceof ApiError ? err : new UpstreamFailed(errorName(err));
      }
      const headers = flattenHeaders(res.headers);
      const decoded = decodeBody(raw, headers['content-encoding'], this.#opts.maxBytes);
      return {
        status: res.statusCode,
        headers,
        body: decoded,
        text: () => bodyText(decoded, headers['content-type']),
        url: url.href,
        redirects,
        wireBytes: raw.length,
      };
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** Scheme, credentials and IP-literal checks; host names are checked at connect time. */
  #check(raw: string, hop: number): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw hop === 0 ? new BadRequest('url is not a valid URL') : new UpstreamFailed('UnsafeRedirect');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw hop === 0 ? new BadRequest('url must use http or https') : new UpstreamFailed('UnsafeRedirect');
    }
    if (url.username || url.password) {
      throw hop === 0 ? new BadRequest('url must not carry credentials') : new UpstreamFailed('UnsafeRedirect');
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !this.#permitted(host)) throw refusal(hop, host);
    return url;
  }
}

function refusal(hop: number, host: string): ApiError {
  return hop === 0 ? new BadRequest(`url host ${host} is not a public address`) : new UpstreamFailed('UnsafeRedirect');
}

function findNonPublic(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof NonPublicAddress || e.code === 'ENONPUBLIC') return true;
  }
  return false;
}

/** dns.lookup that refuses the whole host when any of its addresses is non-public. */
function guardedLookup(permitted: (ip: string) => boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0 || addresses.some((a) => !permitted(a.address))) {
        return callback(new NonPublicAddress(hostname), '');
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
