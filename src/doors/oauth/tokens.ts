import { createHash } from 'node:crypto';
import type { Sql } from '../../db/client.js';
import { newId, randomToken } from '../../domain/ids.js';
import { OAuthProblem, invalidGrant } from './errors.js';
import { sameResource } from './urls.js';

/**
 * Opaque random tokens (256 bits), stored only as SHA-256: every /mcp call looks its token up
 * anyway (the caller's account, plan and grant), so a signed JWT would add key management and
 * delay revocation without saving a query.
 */
const PREFIX = { access: 'hr_at_', refresh: 'hr_rt_' } as const;
export const ACCESS_TOKEN_PATTERN = /^hr_at_[A-Za-z0-9_-]{43}$/;
const REFRESH_TOKEN_PATTERN = /^hr_rt_[A-Za-z0-9_-]{43}$/;

export const hashSecret = (value: string) => createHash('sha256').update(value).digest();

export interface TokenLifetimes {
  accessS: number;
  refreshS: number;
}

export interface TokenGrant {
  grantId: string;
  accountId: string;
  clientId: string;
  resource: string;
  scope: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Tx = Sql;

/** A new access token and refresh token in `familyId` (a new family when absent). */
export async function issueTokens(tx: Tx, g: TokenGrant, life: TokenLifetimes, familyId = newId('fam', 20)): Promise<TokenResponse> {
  const access = PREFIX.access + randomToken(43);
  const refresh = PREFIX.refresh + randomToken(43);
  await tx`INSERT INTO oauth_tokens (token_hash, kind, family_id, grant_id, account_id, client_id, resource, scope, expires_at) VALUES
    (${hashSecret(access)}, 'access', ${familyId}, ${g.grantId}, ${g.accountId}, ${g.clientId}, ${g.resource}, ${g.scope}, now() + make_interval(secs => ${life.accessS})),
    (${hashSecret(refresh)}, 'refresh', ${familyId}, ${g.grantId}, ${g.accountId}, ${g.clientId}, ${g.resource}, ${g.scope}, now() + make_interval(secs => ${life.refreshS}))`;
  return { access_token: access, token_type: 'Bearer', expires_in: life.accessS, refresh_token: refresh, scope: g.scope };
}

export async function revokeFamily(tx: Tx, familyId: string): Promise<void> {
  await tx`UPDATE oauth_tokens SET revoked_at = now() WHERE family_id = ${familyId} AND revoked_at IS NULL`;
}

/**
 * Refresh token rotation (OAuth 2.1 §4.3.1): the presented token is spent and a new pair issued in
 * the same family. A spent token presented again means it leaked: the whole family is revoked.
 */
export async function rotateRefreshToken(sql: Sql, presented: string, opts: { clientId: string; resource?: string; life: TokenLifetimes }): Promise<TokenResponse> {
  if (!REFRESH_TOKEN_PATTERN.test(presented)) throw invalidGrant('unknown refresh token');
  const outcome = await sql.begin(async (tx) => {
    const [row] = await tx`
      SELECT t.family_id, t.grant_id, t.account_id, t.client_id, t.resource, t.scope, t.rotated_at, t.revoked_at,
             t.expires_at <= now() AS expired, g.revoked_at AS grant_revoked_at
      FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
      WHERE t.token_hash = ${hashSecret(presented)} AND t.kind = 'refresh' FOR UPDATE OF t`;
    if (!row || row.client_id !== opts.clientId) return invalidGrant('unknown refresh token');
    if (row.rotated_at && !row.revoked_at) {
      await revokeFamily(tx as unknown as Sql, row.family_id);
      return invalidGrant('refresh token already used: every token of this authorization is revoked');
    }
    if (row.revoked_at || row.grant_revoked_at) return invalidGrant('refresh token revoked');
    if (row.expired) return invalidGrant('refresh token expired');
    if (opts.resource !== undefined && !sameResource(opts.resource, row.resource)) {
      return new OAuthProblem('invalid_target', 'the resource is not the one this refresh token was issued for');
    }
    await tx`UPDATE oauth_tokens SET rotated_at = now() WHERE token_hash = ${hashSecret(presented)}`;
    return issueTokens(
      tx as unknown as Sql,
      { grantId: row.grant_id, accountId: row.account_id, clientId: row.client_id, resource: row.resource, scope: row.scope },
      opts.life,
      row.family_id,
    );
  });
  // The family revocation commits before the refusal is reported.
  if (outcome instanceof OAuthProblem) throw outcome;
  return outcome as TokenResponse;
}

/**
 * Token revocation (RFC 7009): a refresh token takes its whole family with it, an access token only
 * itself. A token of another client, or no token at all, is answered the same way (nothing revealed).
 */
export async function revokeToken(sql: Sql, presented: string, clientId: string): Promise<void> {
  const [row] = await sql`SELECT kind, family_id FROM oauth_tokens WHERE token_hash = ${hashSecret(presented)} AND client_id = ${clientId}`;
  if (!row) return;
  if (row.kind === 'refresh') await revokeFamily(sql, row.family_id);
  else await sql`UPDATE oauth_tokens SET revoked_at = now() WHERE token_hash = ${hashSecret(presented)} AND revoked_at IS NULL`;
}

export interface LiveAccessToken {
  grant_id: string;
  account_id: string;
  client_id: string;
  client_name: string;
  resource: string;
  scope: string;
  expires_at: Date;
  key_id: string;
  plan: string;
}

/** The live access token (not expired, not revoked, its grant live), with what the caller needs. */
export async function findAccessToken(sql: Sql, presented: string): Promise<LiveAccessToken | null> {
  if (!ACCESS_TOKEN_PATTERN.test(presented)) return null;
  const [row] = await sql`
    SELECT t.grant_id, t.account_id, t.client_id, c.client_name, t.resource, t.scope, t.expires_at, g.key_id, a.plan
    FROM oauth_tokens t
      JOIN oauth_grants g ON g.id = t.grant_id AND g.revoked_at IS NULL
      JOIN oauth_clients c ON c.client_id = t.client_id
      JOIN accounts a ON a.id = t.account_id
    WHERE t.token_hash = ${hashSecret(presented)} AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()`;
  return (row as LiveAccessToken | undefined) ?? null;
}
