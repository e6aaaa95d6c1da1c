/** The egress modes (a domain enum) and which proxy a market's request goes through. */
export { REPLY_EGRESS_MODES, type EgressMode } from '../domain/egress-modes.js';

/** Proxy for a market: the market's own, else the default; null when neither is configured. */
export function proxyForMarket(proxies: Record<string, string>, defaultProxy: string | undefined, market: string | undefined): string | null {
  const own = market ? proxies[market.toUpperCase()] : undefined;
  return own ?? defaultProxy ?? null;
}
