/**
 * A small in-memory cookie jar: enough for consent cookies and the session cookies upstream
 * sites set on their first reply. Not a full RFC 6265 implementation (no public-suffix list).
 */
interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  expiresAt: number | null;
}

export interface CookieInit {
  name: string;
  value: string;
  /** `.example.com` style domain for a domain cookie; omit for a host-only cookie. */
  domain?: string;
  path?: string;
  maxAgeSeconds?: number;
}

export class CookieJar {
  #cookies = new Map<string, StoredCookie>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Stores the Set-Cookie headers of a reply to `url`. */
  storeFromHeaders(url: URL, setCookie: string[] | string | undefined): void {
    if (!setCookie) return;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) this.#storeLine(url, line);
  }

  set(url: URL, init: CookieInit): void {
    const domain = init.domain ? init.domain.replace(/^\./, '').toLowerCase() : url.hostname.toLowerCase();
    this.#put({
      name: init.name,
      value: init.value,
      domain,
      hostOnly: !init.domain,
      path: init.path ?? '/',
      secure: false,
      expiresAt: init.maxAgeSeconds === undefined ? null : this.now() + init.maxAgeSeconds * 1000,
    });
  }

  /** Value for the Cookie request header, or undefined when nothing matches. */
  header(url: URL): string | undefined {
    const host = url.hostname.toLowerCase();
    const now = this.now();
    const pairs: string[] = [];
    for (const [key, c] of this.#cookies) {
      if (c.expiresAt !== null && c.expiresAt <= now) {
        this.#cookies.delete(key);
        continue;
      }
      const domainOk = c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`);
      if (!domainOk || !pathMatches(url.pathname, c.path)) continue;
      if (c.secure && url.protocol !== 'https:') continue;
      pairs.push(`${c.name}=${c.value}`);
    }
    return pairs.length ? pairs.join('; ') : undefined;
  }

  #storeLine(url: URL, line: string): void {
    const [pair, ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq < 1) return;
    const cookie: StoredCookie = {
      name: pair.slice(0, eq).trim(),
      value: pair.slice(eq + 1).trim(),
      domain: url.hostname.toLowerCase(),
      hostOnly: true,
      path: defaultPath(url.pathname),
      secure: false,
      expiresAt: null,
    };
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
      const val = i < 0 ? '' : attr.slice(i + 1).trim();
      if (key === 'domain' && val) {
        const domain = val.replace(/^\./, '').toLowerCase();
        const host = url.hostname.toLowerCase();
        // A site may only set cookies for itself or a parent domain of itself.
        if (host !== domain && !host.endsWith(`.${domain}`)) return;
        cookie.domain = domain;
        cookie.hostOnly = false;
      } else if (key === 'path' && val.startsWith('/')) cookie.path = val;
      else if (key === 'secure') cookie.secure = true;
      else if (key === 'max-age' && /^-?\d+$/.test(val)) cookie.expiresAt = this.now() + Number(val) * 1000;
      else if (key === 'expires' && cookie.expiresAt === null) {
        const t = Date.parse(val);
        if (!Number.isNaN(t)) cookie.expiresAt = t;
      }
    }
    this.#put(cookie);
  }

  #put(c: StoredCookie): void {
    const key = `${c.domain};${c.path};${c.name}`;
    if (c.expiresAt !== null && c.expiresAt <= this.now()) this.#cookies.delete(key);
    else this.#cookies.set(key, c);
  }
}

function defaultPath(pathname: string): string {
  const i = pathname.lastIndexOf('/');
  return i <= 0 ? '/' : pathname.slice(0, i);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath || cookiePath === '/') return true;
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/');
}
