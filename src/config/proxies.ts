/** The proxy settings (MARKET_PROXIES, DEFAULT_PROXY_URL), parsed and checked at start. */

/**
 * Parses `US=http://user:pass@host:port,GB=socks5://host:1080` into `{ US: '…', GB: '…' }`.
 * Throws with a message naming the bad entry; config.ts turns it into a ConfigError.
 */
export function parseMarketProxies(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf('=');
    if (eq < 1) throw new Error(`market proxy entry "${redactProxy(entry)}" is not MARKET=URL`);
    const market = entry.slice(0, eq).trim().toUpperCase();
    const url = entry.slice(eq + 1).trim();
    if (!/^[A-Z]{2}$/.test(market)) throw new Error(`market proxy key "${market}" is not a two-letter country code`);
    assertProxyUrl(url);
    out[market] = url;
  }
  return out;
}

export function assertProxyUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`proxy URL "${redactProxy(url)}" is not a URL`);
  }
  if (!['http:', 'https:', 'socks5:', 'socks:'].includes(parsed.protocol)) {
    throw new Error(`proxy URL "${redactProxy(url)}" must be http, https or socks5`);
  }
}

/** Proxy URL without its credentials, for logs and error messages. */
export function redactProxy(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
