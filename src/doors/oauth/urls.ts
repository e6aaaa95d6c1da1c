import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import type { Config } from '../../config/config.js';

/** The one scope: use the account's tools on /mcp. */
export const MCP_SCOPE = 'mcp';

export interface OAuthUrls {
  /** Issuer identifier (RFC 8414): the service's base URL, no trailing slash. */
  issuer: string;
  /** The /mcp endpoint: the resource identifier (RFC 8707 / RFC 9728) tokens are bound to. */
  resource: string;
  resourceMetadata: string;
  authorization: string;
  token: string;
  registration: string;
  revocation: string;
}

/**
 * URLs of the authorization server and the /mcp resource, from baseUrl: PUBLIC_BASE_URL, which a
 * production start cannot do without.
 */
export function oauthUrls(config: Pick<Config, 'PUBLIC_BASE_URL'>, req: Request): OAuthUrls {
  const base = baseUrl(config, req);
  return {
    issuer: base,
    resource: `${base}/mcp`,
    resourceMetadata: getOAuthProtectedResourceMetadataUrl(new URL(`${base}/mcp`)),
    authorization: `${base}/dashboard/oauth/authorize`,
    token: `${base}/oauth/token`,
    registration: `${base}/oauth/register`,
    revocation: `${base}/oauth/revoke`,
  };
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The service's own base URL: PUBLIC_BASE_URL when set. Without it the service listens on a
 * loopback address only (assertPublicBaseUrl refuses any other start), and the URL is this
 * machine's: the loopback name the request used (clients compare it with the URL they were given)
 * and the port it really came in on. A forged Host can choose between localhost, 127.0.0.1 and
 * [::1], never another host or port.
 */
export function baseUrl(config: Pick<Config, 'PUBLIC_BASE_URL'>, req: Request): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const named = /^(\[[^\]]*\]|[^:]*)/.exec((req.headers.host ?? '').toLowerCase())?.[1] ?? '';
  const host = LOOPBACK_NAMES.has(named) ? named : '127.0.0.1';
  return `http://${host}:${req.socket.localPort}`;
}

/** RFC 8707 resource values compare without a fragment, a trailing slash or case in scheme and host. */
export function sameResource(a: string, b: string): boolean {
  const norm = (v: string) => {
    try {
      const u = new URL(v);
      u.hash = '';
      return u.href.replace(/\/$/, '');
    } catch {
      return null;
    }
  };
  const na = norm(a);
  return na !== null && na === norm(b);
}
