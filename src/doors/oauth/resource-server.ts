import { OAuthError, OAuthErrorCode, bearerAuthChallengeResponse, verifyBearerToken, type AuthInfo } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { presentedKey, requireKey } from '../../platform/auth.js';
import { Unauthorized } from '../../domain/errors.js';
import type { AuthedKey } from '../../platform/keys.js';
import { touchGrant } from '../../platform/oauth-store.js';
import { billedPlan, planOf } from '../../platform/plans.js';
import { ACCESS_TOKEN_PATTERN, findAccessToken, type LiveAccessToken } from './tokens.js';
import { MCP_SCOPE, oauthUrls } from './urls.js';

const REQUIRED_SCOPES = [MCP_SCOPE];
const refused = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);

/**
 * The caller of an access token, shaped like the key it acts through: the connected app's own key
 * row (history, idempotency), its account's plan (credits, concurrency) and one rate-limit window
 * shared by every app of the account, at the plan's rate.
 */
function callerOf(t: LiveAccessToken): AuthedKey {
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
 * Bearer sk_…`), or an OAuth access token. Tokens go through the MCP SDK's bearer check: audience
 * (RFC 8707: this /mcp and nothing else), scope and expiry. Refusals are OAuthErrors.
 */
async function mcpCaller(deps: Pick<ServiceDeps, 'platform' | 'config' | 'sql'>, req: Request): Promise<AuthedKey> {
  const presented = presentedKey(req, false);
  if (presented === undefined || !ACCESS_TOKEN_PATTERN.test(presented) || req.get('x-api-key')) {
    try {
      return await requireKey(deps, req);
    } catch (err) {
      if (err instanceof Unauthorized) throw refused(err.message);
      throw err;
    }
  }
  const info: AuthInfo = await verifyBearerToken(req.get('authorization'), {
    expectedResource: new URL(oauthUrls(deps.config, req).resource),
    requiredScopes: REQUIRED_SCOPES,
    verifier: {
      async verifyAccessToken(token) {
        const t = await findAccessToken(deps.sql, token);
        if (!t) throw refused('the access token is unknown, expired or revoked');
        return {
          token,
          clientId: t.client_id,
          scopes: t.scope.split(' '),
          expiresAt: Math.floor(t.expires_at.getTime() / 1000),
          resource: new URL(t.resource),
          extra: { token: t },
        };
      },
    },
  });
  const t = info.extra!.token as LiveAccessToken;
  await touchGrant(deps.sql, t.grant_id);
  return callerOf(t);
}

/**
 * For the /mcp handler: the caller, or null once the refusal has been sent: 401 (403 for a missing
 * scope) with the SDK's Bearer challenge pointing at the resource metadata (RFC 9728 §5.1), and
 * the usual `{detail}` body. Any other failure (the database is down) is thrown, for the handler to
 * answer in its protocol.
 */
export async function authenticateMcp(deps: Pick<ServiceDeps, 'platform' | 'config' | 'sql'>, req: Request, res: Response): Promise<AuthedKey | null> {
  try {
    return await mcpCaller(deps, req);
  } catch (err) {
    if (!(err instanceof OAuthError) || err.code === String(OAuthErrorCode.ServerError)) throw err;
    const answer = bearerAuthChallengeResponse(err, { requiredScopes: REQUIRED_SCOPES, resourceMetadataUrl: oauthUrls(deps.config, req).resourceMetadata });
    res.set('www-authenticate', answer.headers.get('www-authenticate') ?? '');
    res.status(answer.status).json({ detail: err.message });
    return null;
  }
}
