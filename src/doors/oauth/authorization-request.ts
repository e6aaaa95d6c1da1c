import type { ServiceDeps } from '../../core/service-deps.js';
import { findClient, type OAuthClient } from './clients.js';
import { OAuthProblem } from './errors.js';
import { redirectUriRegistered } from './redirect-uris.js';
import { MCP_SCOPE, sameResource, type OAuthUrls } from './urls.js';

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707) that are carried to the consent form. */
export const AUTHORIZATION_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;
type AuthorizationParams = Partial<Record<(typeof AUTHORIZATION_PARAMS)[number], string>>;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  scope: string;
}

export type Checked =
  | { ok: true; request: AuthorizationRequest }
  /** The client or its redirect URI cannot be trusted: tell the user, never redirect. */
  | { ok: false; fatal: string }
  /** A valid client and redirect URI, a bad request: back to the client with the error (RFC 6749 §4.1.2.1). */
  | { ok: false; redirect: string };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE = 1000;

/** Single string values only: a repeated or nested parameter makes the request ambiguous. */
function pickParams(source: Record<string, unknown>): AuthorizationParams | string {
  const out: AuthorizationParams = {};
  for (const name of AUTHORIZATION_PARAMS) {
    const v = source[name];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') return name;
    out[name] = v;
  }
  return out;
}

/** Where the client receives the outcome: the redirect URI with the parameters added, `iss` included (RFC 9207). */
export function clientRedirect(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  u.searchParams.set('iss', issuer);
  return u.href;
}

export async function checkAuthorizationRequest(
  deps: Pick<ServiceDeps, 'sql' | 'config' | 'safeFetch'>,
  urls: OAuthUrls,
  raw: Record<string, unknown>,
): Promise<Checked> {
  const p = pickParams(raw);
  if (typeof p === 'string') return { ok: false, fatal: `The request repeats the parameter "${p}".` };
  if (!p.client_id) return { ok: false, fatal: 'The request names no client (client_id is missing).' };
  let client: OAuthClient;
  try {
    client = await findClient(deps, p.client_id);
  } catch (err) {
    if (err instanceof OAuthProblem) return { ok: false, fatal: `The app could not be identified: ${err.description}` };
    throw err;
  }
  const redirectUri = p.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri) return { ok: false, fatal: 'The request names no redirect_uri and the app registered several.' };
  if (!redirectUriRegistered(client.redirect_uris, redirectUri)) {
    return { ok: false, fatal: 'The redirect_uri is not one the app registered, so the answer cannot be sent back to it.' };
  }
  const fail = (error: string, description: string): Checked => ({
    ok: false,
    redirect: clientRedirect(redirectUri, urls.issuer, { error, error_description: description, state: p.state }),
  });
  if (p.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
  if (!p.code_challenge) return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
  if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (!CHALLENGE.test(p.code_challenge)) return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
  if (p.state && p.state.length > MAX_STATE) return fail('invalid_request', `state is limited to ${MAX_STATE} characters`);
  if (p.resource !== undefined && !sameResource(p.resource, urls.resource))
    return fail('invalid_target', `this server issues tokens for ${urls.resource} only`);
  const asked = (p.scope ?? '').split(' ').filter(Boolean);
  if (asked.length > 0 && !asked.includes(MCP_SCOPE) && !asked.every((s) => s === 'offline_access')) {
    return fail('invalid_scope', `the only scope is "${MCP_SCOPE}"`);
  }
  return {
    ok: true,
    request: { client, redirectUri, state: p.state, codeChallenge: p.code_challenge, resource: urls.resource, scope: MCP_SCOPE },
  };
}
