/**
 * Redirect URIs a client may register: HTTPS, HTTP on a loopback host (native apps, RFC 8252 §7.3),
 * or a private-use scheme of a native app (RFC 8252 §7.1). Never one that a browser would run
 * or read locally.
 */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'about:', 'blob:', 'filesystem:', 'ftp:', 'ws:', 'wss:']);
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const MAX_URI = 2000;

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || LOOPBACK_IPS.has(hostname);
}

/** Why a URI cannot be registered as a redirect URI, or null when it can. */
export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0) return 'a redirect URI must be a non-empty string';
  if (raw.length > MAX_URI) return `a redirect URI is limited to ${MAX_URI} characters`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'a redirect URI must be an absolute URI';
  }
  if (u.hash || raw.includes('#')) return 'a redirect URI must not contain a fragment';
  if (u.username || u.password) return 'a redirect URI must not contain credentials';
  if (REFUSED_SCHEMES.has(u.protocol)) return `redirect URIs with the ${u.protocol} scheme are not allowed`;
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
    return 'an http redirect URI must point to a loopback host (127.0.0.1, [::1] or localhost); use https otherwise';
  return null;
}

/**
 * Exact string match against the registered URIs, with the one exception OAuth 2.1 (§8.4.2)
 * requires: a native app's loopback IP redirect may use any port, chosen at request time.
 */
export function redirectUriRegistered(registered: string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  let p: URL;
  try {
    p = new URL(presented);
  } catch {
    return false;
  }
  if (p.protocol !== 'http:' || !LOOPBACK_IPS.has(p.hostname)) return false;
  return registered.some((r) => {
    try {
      const u = new URL(r);
      if (u.protocol !== 'http:' || u.hostname !== p.hostname) return false;
      u.port = p.port;
      return u.href === p.href && r.replace(/^http:\/\/[^/]+/, '') === presented.replace(/^http:\/\/[^/]+/, '');
    } catch {
      return false;
    }
  });
}
