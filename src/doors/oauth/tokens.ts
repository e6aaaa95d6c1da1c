import { createHash } from 'node:crypto';
import type { Db, Sql } from '../../db/client.js';
import { newId, randomToken } from '../../domain/ids.js';
import {
  clientToken,
  findLiveAccessToken,
  insertTokenPair,
  lockRefreshToken,
  markRotated,
  revokeFamily,
  revokeToken as revokeStoredToken,
  type LiveAccessToken,
} from '../../platform/oauth-store.js';
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

/** A new access token and refresh token in `familyId` (a new family when absent). */
export async function issueTokens(tx: Db, g: TokenGrant, life: TokenLifetimes, familyId = newId('fam', 20)): Promise<TokenResponse> {
  const access = PREFIX.access + randomToken(43);
  const refresh = PREFIX.refresh + randomToken(43);
  await insertTokenPair(tx, {
    grant_id: g.grantId,
    account_id: g.accountId,
    client_id: g.clientId,
    resource: g.resource,
    scope: g.scope,
    familyId,
    access: { hash: hashSecret(access), ttlS: life.accessS },
    refresh: { hash: hashSecret(refresh), ttlS: life.refreshS },
  });
  return { access_token: access, token_type: 'Bearer', expires_in: life.accessS, refresh_token: refresh, scope: g.scope };
}

/**
 * Refresh token rotation (OAuth 2.1 §4.3.1): the presented token is spent and a new pair issued in
 * the same family. A spent token presented again means it leaked: the whole family is revoked.
 */
export async function rotateRefreshToken(
  sql: Sql,
  presented: string,
  opts: { clientId: string; resource?: string; life: TokenLifetimes },
): Promise<TokenResponse> {
  if (!REFRESH_TOKEN_PATTERN.test(presented)) throw invalidGrant('unknown refresh token');
  const outcome = await sql.begin(async (tx) => {
    const row = await lockRefreshToken(tx, hashSecret(presented));
    if (!row || row.client_id !== opts.clientId) return invalidGrant('unknown refresh token');
    if (row.rotated_at && !row.revoked_at) {
      await revokeFamily(tx, row.family_id);
      return invalidGrant('refresh token already used: every token of this authorization is revoked');
    }
    if (row.revoked_at || row.grant_revoked_at) return invalidGrant('refresh token revoked');
    if (row.expired) return invalidGrant('refresh token expired');
    if (opts.resource !== undefined && !sameResource(opts.resource, row.resource)) {
      return new OAuthProblem('invalid_target', 'the resource is not the one this refresh token was issued for');
    }
    await markRotated(tx, hashSecret(presented));
    return issueTokens(
      tx,
      { grantId: row.grant_id, accountId: row.account_id, clientId: row.client_id, resource: row.resource, scope: row.scope },
      opts.life,
      row.family_id,
    );
  });
  // The family revocation commits before the refusal is reported.
  if (outcome instanceof OAuthProblem) throw outcome;
  return outcome;
}

/**
 * Token revocation (RFC 7009): a refresh token takes its whole family with it, an access token only
 * itself. A token of another client, or no token at all, is answered the same way (nothing revealed).
 */
export async function revokeToken(sql: Db, presented: string, clientId: string): Promise<void> {
  const row = await clientToken(sql, hashSecret(presented), clientId);
  if (!row) return;
  if (row.kind === 'refresh') await revokeFamily(sql, row.family_id);
  else await revokeStoredToken(sql, hashSecret(presented));
}

export type { LiveAccessToken };

/** The live access token (not expired, not revoked, its grant live), with what the caller needs. */
export async function findAccessToken(sql: Db, presented: string): Promise<LiveAccessToken | null> {
  if (!ACCESS_TOKEN_PATTERN.test(presented)) return null;
  return findLiveAccessToken(sql, hashSecret(presented));
}
