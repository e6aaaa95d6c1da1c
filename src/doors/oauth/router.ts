import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response, type Router } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { takeRateLimit } from '../../platform/rate-limit.js';
import { badText } from '../../core/validation.js';
import { DependencyDown, toApiError } from '../../domain/errors.js';
import { REGISTRATION_BODY_MAX_BYTES } from './client-metadata.js';
import { CLIENT_AUTH_METHODS, authenticateClient, registerClient } from './clients.js';
import { pruneExpired, redeemCode } from './codes.js';
import { OAuthProblem, invalidRequest } from './errors.js';
import { rotateRefreshToken, revokeToken, type TokenLifetimes } from './tokens.js';
import { MCP_SCOPE, oauthUrls, type OAuthUrls } from './urls.js';

/** What the token and revocation endpoints read: a form of a few short fields. */
const FORM_MAX_BYTES = 16 * 1024;

/** RFC 8414 authorization server metadata. */
function authorizationServerMetadata(u: OAuthUrls) {
  return {
    issuer: u.issuer,
    authorization_endpoint: u.authorization,
    token_endpoint: u.token,
    registration_endpoint: u.registration,
    revocation_endpoint: u.revocation,
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${u.issuer}/docs`,
  };
}

/** RFC 9728 protected resource metadata of /mcp. */
function protectedResourceMetadata(u: OAuthUrls) {
  return {
    resource: u.resource,
    authorization_servers: [u.issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Hotel-rate API (MCP)',
    resource_documentation: `${u.issuer}/docs`,
  };
}

/** Discovery and token endpoints carry no cookies: any origin may call them (browser-based MCP clients do). */
function cors(req: Request, res: Response, next: NextFunction) {
  res.set({ 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version' });
  if (req.method === 'OPTIONS') {
    res.set('access-control-allow-methods', 'GET, POST, OPTIONS');
    return void res.status(204).end();
  }
  next();
}

function single(form: Record<string, unknown>, name: string, required = false): string | undefined {
  const v = form[name];
  if (v === undefined || v === '') {
    if (required) throw invalidRequest(`${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalidRequest(`${name} must be given once`);
  if (badText(v)) throw invalidRequest(`${name} must not contain NUL characters or lone surrogates`);
  return v;
}

function sendProblem(deps: Pick<ServiceDeps, 'log'>, req: Request, res: Response, err: unknown) {
  if (err instanceof OAuthProblem) {
    if (err.status === 401 && /^Basic/i.test(req.get('authorization') ?? '')) res.set('www-authenticate', 'Basic realm="oauth"');
    return void res.status(err.status).json(err.body());
  }
  // the database behind the endpoint is away: RFC 6749's temporarily_unavailable, retryable
  if (toApiError(err) instanceof DependencyDown) {
    res.set('retry-after', '5');
    return void res
      .status(503)
      .json({ error: 'temporarily_unavailable', error_description: 'the authorization server cannot reach its database; retry shortly' });
  }
  deps.log.error({ err, requestId: req.id }, 'oauth endpoint error');
  res.status(500).json({ error: 'server_error', error_description: `internal error (request ${req.id})` });
}

/** The authorization server's own endpoints (the consent page is in the dashboard) and the resource metadata of /mcp. */
export function oauthRouter(deps: ServiceDeps): Router {
  const router = express.Router();
  const life = (): TokenLifetimes => ({ accessS: deps.config.OAUTH_ACCESS_TOKEN_TTL_S, refreshS: deps.config.OAUTH_REFRESH_TOKEN_TTL_S });
  // the token and revocation forms: small, and a form that cannot be read is answered in OAuth's shape (RFC 6749 §5.2)
  const formBody = express.urlencoded({ extended: false, limit: FORM_MAX_BYTES, parameterLimit: 20 });
  const formError: ErrorRequestHandler = (err: unknown, req, res, next) => {
    const e = err as { type?: string } | null;
    if (e?.type === 'entity.too.large')
      return sendProblem(deps, req, res, new OAuthProblem('invalid_request', `the form is limited to ${FORM_MAX_BYTES / 1024} KB`, 413));
    if (e?.type) return sendProblem(deps, req, res, invalidRequest('the form could not be read (application/x-www-form-urlencoded, at most 20 fields)'));
    next(err);
  };
  const noStore = (_req: Request, res: Response, next: NextFunction) => {
    res.set({ 'cache-control': 'no-store', pragma: 'no-cache' });
    next();
  };

  router.use(['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/oauth'], cors);
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    router.get(path, (req, res) => void res.json(protectedResourceMetadata(oauthUrls(deps.config, req))));
  }
  router.get('/.well-known/oauth-authorization-server', (req, res) => void res.json(authorizationServerMetadata(oauthUrls(deps.config, req))));

  // Registration is open to anyone: a small body, limited per address and for everyone together.
  const registrationBody = express.json({ limit: REGISTRATION_BODY_MAX_BYTES, type: () => true });
  const registrationBodyError: ErrorRequestHandler = (err: unknown, req, res, next) => {
    const e = err as { type?: string } | null;
    if (e?.type === 'entity.too.large')
      return sendProblem(deps, req, res, new OAuthProblem('invalid_client_metadata', `client metadata is limited to ${REGISTRATION_BODY_MAX_BYTES} bytes`));
    if (e?.type) return sendProblem(deps, req, res, new OAuthProblem('invalid_client_metadata', 'client metadata must be a JSON object'));
    next(err);
  };
  router.post('/oauth/register', noStore, registrationBody, registrationBodyError, async (req: Request, res: Response) => {
    try {
      const limited = (scope: string) => () => {
        throw new OAuthProblem('slow_down', `too many client registrations ${scope}; try again in a minute`, 429);
      };
      await takeRateLimit(deps.sql, `oauth-register:${req.ip ?? req.socket.remoteAddress}`, deps.config.OAUTH_REGISTRATIONS_PER_IP_PER_MIN).catch(
        limited('from this address'),
      );
      await takeRateLimit(deps.sql, 'oauth-register:*', deps.config.OAUTH_REGISTRATIONS_PER_MIN).catch(limited('right now'));
      res.status(201).json(await registerClient(deps.sql, req.body, deps.config.OAUTH_PENDING_CLIENTS_MAX));
    } catch (err) {
      sendProblem(deps, req, res, err);
    }
  });

  router.post('/oauth/token', formBody, formError, noStore, async (req: Request, res: Response) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const grantType = single(body, 'grant_type', true);
      const client = await authenticateClient(deps, req);
      const resource = single(body, 'resource');
      if (grantType === 'authorization_code') {
        const tokens = await redeemCode(deps.sql, single(body, 'code', true)!, {
          clientId: client.client_id,
          redirectUri: single(body, 'redirect_uri'),
          verifier: single(body, 'code_verifier'),
          resource,
          life: life(),
        });
        if (Math.random() < 0.02) void pruneExpired(deps.sql).catch(() => undefined);
        return void res.json(tokens);
      }
      if (grantType === 'refresh_token') {
        const tokens = await rotateRefreshToken(deps.sql, single(body, 'refresh_token', true)!, { clientId: client.client_id, resource, life: life() });
        return void res.json(tokens);
      }
      throw new OAuthProblem('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    } catch (err) {
      sendProblem(deps, req, res, err);
    }
  });

  router.post('/oauth/revoke', formBody, formError, noStore, async (req: Request, res: Response) => {
    try {
      const client = await authenticateClient(deps, req);
      await revokeToken(deps.sql, single((req.body ?? {}) as Record<string, unknown>, 'token', true)!, client.client_id);
      res.status(200).json({});
    } catch (err) {
      sendProblem(deps, req, res, err);
    }
  });
  return router;
}
