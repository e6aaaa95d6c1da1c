/**
 * Where search_hotels' photos may load from in its app: Google's image hosts, which serve a
 * thumbnail of every property on its result pages (lh3…lh6.googleusercontent.com). The app's
 * resource declares them in `_meta.ui.csp.resourceDomains` (src/doors/mcp/mcp-apps.ts) and shows
 * no photo from any other host, which the host's CSP would refuse.
 */
export const THUMBNAIL_ORIGINS = ['https://*.googleusercontent.com'];
