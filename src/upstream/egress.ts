/** How plain requests reach their upstream (the EGRESS_MODE setting). */
export const EGRESS_MODES = ['direct', 'market_proxy', 'proxy_fallback'] as const;
export type EgressSetting = (typeof EGRESS_MODES)[number];
/** How a reply was obtained: one of the settings, or `browser` (the page's own script fetched it in headless Chromium). */
export const REPLY_EGRESS_MODES = [...EGRESS_MODES, 'browser'] as const;
export type EgressMode = (typeof REPLY_EGRESS_MODES)[number];

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

/** Proxy for a market: the market's own, else the default; null when neither is configured. */
export function proxyForMarket(
  proxies: Record<string, string>,
  defaultProxy: string | undefined,
  market: string | undefined,
): string | null {
  const own = market ? proxies[market.toUpperCase()] : undefined;
  return own ?? defaultProxy ?? null;
}

/** Proxy URL without its credentials, for logs and error messages. */
export function redactProxy(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
