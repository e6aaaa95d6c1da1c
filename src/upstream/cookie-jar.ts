import { Cookie, CookieJar as ToughCookieJar } from 'tough-cookie';

/**
 * The cookies of one upstream session (one logical operation: see session.ts), kept by
 * tough-cookie: RFC 6265 domain, path, expiry and Secure rules, and the Public Suffix List, so a
 * reply can set a cookie for its own site or a parent of it but never for a public suffix
 * (`co.uk`, `github.io`) that other sites share. A cookie an upstream sets against those rules is
 * dropped, never an error of the call. Secure cookies go over HTTPS only, loopback included (the
 * tests' replay server is plain HTTP, as no real upstream is).
 */
export interface CookieInit {
  name: string;
  value: string;
  /** `.example.com` style domain for a domain cookie; omit for a host-only cookie. */
  domain?: string;
  path?: string;
  maxAgeSeconds?: number;
}

export class CookieJar {
  readonly #jar = new ToughCookieJar(undefined, { rejectPublicSuffixes: true, allowSecureOnLocal: false, looseMode: false });

  /** Stores the Set-Cookie headers of a reply to `url`. */
  storeFromHeaders(url: URL, setCookie: string[] | string | undefined): void {
    if (!setCookie) return;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) this.#jar.setCookieSync(line, url, { ignoreError: true });
  }

  /** A cookie of our own (the consent choices some hosts ask for), under the same rules. */
  set(url: URL, init: CookieInit): void {
    const cookie = new Cookie({
      key: init.name,
      value: init.value,
      domain: init.domain ? init.domain.replace(/^\./, '').toLowerCase() : null,
      path: init.path ?? '/',
      maxAge: init.maxAgeSeconds ?? null,
    });
    this.#jar.setCookieSync(cookie, url, { ignoreError: true });
  }

  /** Value for the Cookie request header, or undefined when nothing matches. */
  header(url: URL): string | undefined {
    return this.#jar.getCookieStringSync(url) || undefined;
  }
}
