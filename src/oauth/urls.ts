import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import type { Config } from '../config.js';

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
 * URLs of the authorization server and the /mcp resource. PUBLIC_BASE_URL fixes them; without it
 * they follow the request's own origin, which is right for a service reached under one name
 * (localhost) and the reason a deployment sets PUBLIC_BASE_URL: a token is only accepted under
 * the name it was issued for.
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

export function baseUrl(config: Pick<Config, 'PUBLIC_BASE_URL'>, req: Request): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host')}`;
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
