import { createHash, timingSafeEqual } from 'node:crypto';
import { durable, type Db, type Sql } from '../../db/client.js';
import { newId, randomToken } from '../../domain/ids.js';
import { insertCode, lockCode, markCodeUsed, pruneExpiredCodesAndTokens, revokeFamily } from '../../platform/oauth-store.js';
import { OAuthProblem, invalidGrant } from './errors.js';
import { hashSecret, issueTokens, type TokenLifetimes, type TokenResponse } from './tokens.js';
import { sameResource } from './urls.js';

/** Authorization codes live two minutes: the client redeems one right after the redirect. */
const CODE_TTL_S = 120;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface CodeRequest {
  grantId: string;
  accountId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string;
}

export async function issueCode(sql: Db, c: CodeRequest): Promise<string> {
  const code = `hr_ac_${randomToken(43)}`;
  const row = {
    grant_id: c.grantId,
    account_id: c.accountId,
    client_id: c.clientId,
    redirect_uri: c.redirectUri,
    code_challenge: c.codeChallenge,
    resource: c.resource,
    scope: c.scope,
  };
  await insertCode(sql, hashSecret(code), row, CODE_TTL_S);
  return code;
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge of the authorization request. */
function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The authorization_code grant: one exchange per code, by the client it was issued to, with the
 * same redirect URI and the PKCE verifier. A second exchange of a code revokes the tokens the first
 * one obtained (RFC 6749 §4.1.2): the code was intercepted or replayed.
 */
export async function redeemCode(
  sql: Sql,
  code: string,
  o: { clientId: string; redirectUri: string | undefined; verifier: string | undefined; resource: string | undefined; life: TokenLifetimes },
): Promise<TokenResponse> {
  const outcome = await sql.begin(async (tx) => {
    await durable(tx);
    const row = await lockCode(tx, hashSecret(code));
    if (!row || row.client_id !== o.clientId) return invalidGrant('unknown authorization code');
    if (row.used_at) {
      if (row.family_id) await revokeFamily(tx, row.family_id);
      return invalidGrant('authorization code already used: the tokens it was exchanged for are revoked');
    }
    if (row.expired) return invalidGrant('authorization code expired');
    if (row.grant_revoked_at) return invalidGrant('the authorization was revoked');
    if (o.redirectUri !== row.redirect_uri) return invalidGrant('redirect_uri differs from the authorization request');
    if (!o.verifier || !pkceMatches(o.verifier, row.code_challenge)) return invalidGrant('PKCE verification failed (code_verifier)');
    if (o.resource !== undefined && !sameResource(o.resource, row.resource)) {
      return new OAuthProblem('invalid_target', 'the resource is not the one of the authorization request');
    }
    const familyId = newId('fam', 20);
    await markCodeUsed(tx, hashSecret(code), familyId);
    return issueTokens(
      tx,
      { grantId: row.grant_id, accountId: row.account_id, clientId: row.client_id, resource: row.resource, scope: row.scope },
      o.life,
      familyId,
    );
  });
  if (outcome instanceof OAuthProblem) throw outcome;
  return outcome;
}

/** Expired codes and long-dead tokens go now and then (hashes of spent secrets are worth nothing). */
export async function pruneExpired(sql: Db): Promise<void> {
  await pruneExpiredCodesAndTokens(sql);
}
