/**
 * How a request reaches its upstream. A domain enum: the settings choose one, the upstream client
 * acts on it and every observation's provenance records the one used.
 */
export const EGRESS_MODES = ['direct', 'market_proxy', 'proxy_fallback'] as const;
export type EgressMode = (typeof EGRESS_MODES)[number];
