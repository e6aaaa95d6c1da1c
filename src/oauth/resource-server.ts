import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.js';
import type { Sql } from '../db/client.js';
import { presentedKey, requireKey } from '../platform/auth.js';
import { ApiError, Unauthorized } from '../platform/errors.js';
import type { AuthedKey } from '../platform/keys.js';
import { billedPlan, planOf } from '../platform/plans.js';
import { sendError } from '../registry/http-errors.js';
import { ACCESS_TOKEN_PATTERN, findAccessToken } from './tokens.js';
import { MCP_SCOPE, oauthUrls, sameResource } from './urls.js';

/** A refused /mcp call: 401 (or 403) with the Bearer challenge that points OAuth clients at the resource metadata. */
export class BearerChallenge extends ApiError {
  constructor(
    readonly error: 'invalid_token' | undefined,
    readonly description: string | undefined,
  ) {
    super(401, description ?? new Unauthorized().detail);
  }
}

const quoted = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;

/** `WWW-Authenticate` per RFC 6750 §3 and RFC 9728 §5.1. */
export function bearerChallengeHeader(resourceMetadataUrl: string, c?: BearerChallenge): string {
  const params = [`resource_metadata=${quoted(resourceMetadataUrl)}`, `scope=${quoted(MCP_SCOPE)}`];
  if (c?.error) params.push(`error=${quoted(c.error)}`);
  if (c?.description) params.push(`error_description=${quoted(c.description)}`);
  return `Bearer ${params.join(', ')}`;
}

/**
 * The caller of an access token, shaped like the key it acts through: the connected app's own key
 * row (history, idempotency), its account's plan (credits, concurrency) and one rate-limit window
 * shared by every app of the account, at the plan's rate. Null when the token is not live or was
 * issued for another resource.
 */
export async function callerForAccessToken(sql: Sql, token: string, resource: string): Promise<AuthedKey | null> {
  const t = await findAccessToken(sql, token);
  if (!t || !sameResource(t.resource, resource) || !t.scope.split(' ').includes(MCP_SCOPE)) return null;
  await sql`UPDATE oauth_grants SET last_used_at = now() WHERE id = ${t.grant_id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  return {
    id: t.key_id,
    name: `oauth:${t.grant_id}`,
    prefix: 'oauth',
    role: 'user',
    rate_limit_per_min: planOf(t.plan).rate_limit_per_min,
    account_id: t.account_id,
    plan: billedPlan(t.plan),
    rateBucket: `oauth:${t.account_id}`,
    app: { grant_id: t.grant_id, client_id: t.client_id, client_name: t.client_name },
  };
}

/**
 * /mcp authentication: an API key exactly as everywhere else (`x-api-key`, or `Authorization:
 * Bearer sk_…`), or an OAuth access token bound to this /mcp. Refusals carry the Bearer challenge.
 */
export async function mcpCaller(deps: AppDeps, req: Request): Promise<AuthedKey> {
  const presented = presentedKey(req, false);
  if (presented === undefined || !ACCESS_TOKEN_PATTERN.test(presented) || req.get('x-api-key')) {
    try {
      return await requireKey(deps.sql, req);
    } catch (err) {
      if (err instanceof Unauthorized) throw new BearerChallenge(presented === undefined ? undefined : 'invalid_token', undefined);
      throw err;
    }
  }
  const caller = await callerForAccessToken(deps.sql, presented, oauthUrls(deps.config, req).resource);
  if (!caller) throw new BearerChallenge('invalid_token', 'the access token is expired, revoked or not issued for this resource');
  return caller;
}

/** For the /mcp handler: the caller, or null once the refusal (with its challenge) has been sent. */
export async function authenticateMcp(deps: AppDeps, req: Request, res: Response): Promise<AuthedKey | null> {
  try {
    return await mcpCaller(deps, req);
  } catch (err) {
    if (err instanceof BearerChallenge) res.set('www-authenticate', bearerChallengeHeader(oauthUrls(deps.config, req).resourceMetadata, err));
    sendError(deps, req, res, err);
    return null;
  }
}
