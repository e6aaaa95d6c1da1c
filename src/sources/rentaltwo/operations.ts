/**
 * Persisted operations of the rental platform's web client, as public clients captured them
 * (2026-09); they rotate with site releases, and a stale one answers `PersistedQueryNotFound`: then
 * persisted-query.ts finds the current one in the site's scripts and keeps it for every process
 * (these are sent until then). The API key is the public key the site's own
 * pages publish (`api_config.key`), sent by its web client on every call.
 */
export const STAYS_SEARCH_HASH = '0afc7d440ee66286e44038530dc8d2af77d795e434e5cc5c8a8034c93cb377cf';
export const PDP_SECTIONS_HASH = '80c7889b4b0027d99ffea830f6c0d4911a6e863a957cbe1044823f0fc746bf1f';
export const CALENDAR_HASH = 'be60714ead0a30db42ce6471ddad6a8f3855df0ed400b79282dd0bb8cecdf201';

export const WEB_CLIENT_HEADERS: Record<string, string> = {
  'x-airbnb-api-key': 'd306zoyjsyarp7ifhu67rjxn52tv0t20',
  'x-airbnb-graphql-platform': 'web',
  'x-airbnb-graphql-platform-client': 'minimalist-niobe',
};
