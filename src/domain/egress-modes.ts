/**
 * How a request reaches its upstream. A domain enum: the settings choose one of EGRESS_MODES, the
 * upstream client acts on it and every observation's provenance records the one used, which may
 * also be `browser` (the page's own script fetched the reply in headless Chromium).
 */
export const EGRESS_MODES = ['direct', 'market_proxy', 'proxy_fallback'] as const;
/** How a reply was obtained: one of the settings, or `browser`. */
export const REPLY_EGRESS_MODES = [...EGRESS_MODES, 'browser'] as const;
export type EgressMode = (typeof REPLY_EGRESS_MODES)[number];
