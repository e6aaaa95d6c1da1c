import { durable, type Db, type Sql } from '../db/client.js';
import { newId } from '../domain/ids.js';
import { accountOf, planOfAccount } from './accounts.js';
import { latestCalls, recentTotalsByKey } from './history.js';
import { createAppKey, revokeKeyById } from './keys.js';
import { planOf } from './plans.js';

/*
 * The owner of the OAuth tables (oauth_clients, oauth_grants, oauth_codes, oauth_tokens) of the
 * authorization server for /mcp. Codes and tokens are stored only as SHA-256 hashes of the random
 * values handed out. The protocol (what a request may do, PKCE, rotation, revocation cascades)
 * lives in src/doors/oauth; this module reads and writes rows, in the caller's transaction when it
 * passes one, and runs the grant's own transactions (approve, revoke), where the grant's key row is
 * made and ended through the keys owner.
 */

// ---- clients ----

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

export interface OAuthClient {
  client_id: string;
  registration: 'metadata_document' | 'dynamic';
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  client_secret_hash: Buffer | null;
}

export async function insertDynamicClient(
  db: Db,
  c: {
    clientId: string;
    name: string;
    clientUri: string | null;
    redirectUris: string[];
    method: ClientAuthMethod;
    secretHash: Buffer | null;
    metadata: unknown;
  },
): Promise<void> {
  await db`INSERT INTO oauth_clients (client_id, registration, client_name, client_uri, redirect_uris, token_endpoint_auth_method, client_secret_hash, metadata)
    VALUES (${c.clientId}, 'dynamic', ${c.name}, ${c.clientUri}, ${c.redirectUris}, ${c.method}, ${c.secretHash}, ${db.json(c.metadata as never)})`;
}

/** The stored client, with when its cached metadata document must be fetched again (null for a registration). */
export async function findClientRow(db: Db, clientId: string): Promise<(OAuthClient & { refresh_after: Date | null }) | null> {
  const [row] = await db<(OAuthClient & { refresh_after: Date | null })[]>`
    SELECT client_id, registration, client_name, client_uri, redirect_uris, token_endpoint_auth_method, client_secret_hash, refresh_after
    FROM oauth_clients WHERE client_id = ${clientId}`;
  return row ?? null;
}

/** Caches a fetched Client ID Metadata Document until `cacheS` seconds from now. */
export async function upsertMetadataDocumentClient(
  db: Db,
  c: { clientId: string; name: string; clientUri: string | null; redirectUris: string[]; metadata: unknown; cacheS: number },
): Promise<OAuthClient> {
  const [row] = await db<OAuthClient[]>`
    INSERT INTO oauth_clients (client_id, registration, client_name, client_uri, redirect_uris, token_endpoint_auth_method, metadata, refresh_after)
    VALUES (${c.clientId}, 'metadata_document', ${c.name}, ${c.clientUri}, ${c.redirectUris}, 'none', ${db.json(c.metadata as never)},
            now() + make_interval(secs => ${c.cacheS}))
    ON CONFLICT (client_id) DO UPDATE SET client_name = EXCLUDED.client_name, client_uri = EXCLUDED.client_uri,
      redirect_uris = EXCLUDED.redirect_uris, metadata = EXCLUDED.metadata, refresh_after = EXCLUDED.refresh_after
    RETURNING client_id, registration, client_name, client_uri, redirect_uris, token_endpoint_auth_method, client_secret_hash`;
  return row;
}

/** Keeps at most `max` clients that no account approved (registrations and cached documents), newest kept. */
export async function evictPendingClients(db: Db, max: number): Promise<number> {
  const rows = await db<{ client_id: string }[]>`
    DELETE FROM oauth_clients WHERE client_id IN (
      SELECT c.client_id FROM oauth_clients c WHERE NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.client_id)
      ORDER BY c.created_at DESC, c.client_id OFFSET ${max})
    RETURNING client_id`;
  return rows.length;
}

/** Deletes registrations no account approved within a week. */
export async function deleteStaleRegistrations(db: Db): Promise<number> {
  const rows = await db<{ client_id: string }[]>`
    DELETE FROM oauth_clients c WHERE c.registration = 'dynamic' AND c.created_at < now() - interval '7 days'
      AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.client_id)
    RETURNING client_id`;
  return rows.length;
}

// ---- grants (connected apps) ----

/**
 * The grant an account approved for a client: one live grant per account and client, reused when
 * the same app asks again. Its key row (kind 'oauth', no secret) is what history, metering and
 * idempotency record the app's calls under.
 */
export async function approveGrant(sql: Sql, o: { accountId: string; clientId: string; scope: string }): Promise<string> {
  return sql.begin(async (tx) => {
    await durable(tx);
    // One live grant per account and client: approvals of one pair wait for each other.
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`oauth-grant:${o.accountId}:${o.clientId}`}))`;
    const [live] = await tx<{ id: string }[]>`
      SELECT id FROM oauth_grants WHERE account_id = ${o.accountId} AND client_id = ${o.clientId} AND revoked_at IS NULL`;
    if (live) {
      await tx`UPDATE oauth_grants SET scope = ${o.scope} WHERE id = ${live.id}`;
      return live.id;
    }
    const plan = await planOfAccount(tx, o.accountId);
    const grantId = newId('grant', 20);
    const keyId = await createAppKey(tx, { accountId: o.accountId, grantId, rateLimit: planOf(plan ?? 'free').rate_limit_per_min });
    await tx`INSERT INTO oauth_grants (id, account_id, client_id, key_id, scope) VALUES (${grantId}, ${o.accountId}, ${o.clientId}, ${keyId}, ${o.scope})`;
    return grantId;
  });
}

export interface ConnectedApp {
  grant_id: string;
  client_id: string;
  client_name: string;
  registration: 'metadata_document' | 'dynamic';
  redirect_hosts: string[];
  created_at: Date;
  last_used_at: Date | null;
  calls_30d: number;
  credits_30d: number;
}

interface LiveGrant extends Omit<ConnectedApp, 'redirect_hosts' | 'calls_30d' | 'credits_30d'> {
  redirect_uris: string[];
  key_id: string;
}

/** The account's live grants, newest first, with their last 30 days of calls (from the history owner). */
export async function connectedApps(db: Db, accountId: string): Promise<ConnectedApp[]> {
  const grants = await db<LiveGrant[]>`
    SELECT g.id AS grant_id, g.client_id, c.client_name, c.registration, c.redirect_uris, g.key_id, g.created_at, g.last_used_at
    FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
    WHERE g.account_id = ${accountId} AND g.revoked_at IS NULL
    ORDER BY g.created_at DESC`;
  const totals = grants.length
    ? await recentTotalsByKey(
        db,
        grants.map((g) => g.key_id),
        30,
      )
    : new Map<string, { calls: number; credits: number }>();
  return grants.map(({ redirect_uris, key_id, ...g }) => ({
    ...g,
    redirect_hosts: [...new Set(redirect_uris.map(hostOf))],
    calls_30d: totals.get(key_id)?.calls ?? 0,
    credits_30d: totals.get(key_id)?.credits ?? 0,
  }));
}

export interface AppLabel {
  client_id: string;
  name: string;
}

/** The app behind each of the account's app key rows (disconnected ones included): labels for history and usage reads. */
export async function appsByKey(db: Db, accountId: string): Promise<Map<string, AppLabel>> {
  const rows = await db<{ key_id: string; client_id: string; client_name: string }[]>`
    SELECT g.key_id, g.client_id, c.client_name FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
    WHERE g.account_id = ${accountId}`;
  return new Map(rows.map((r) => [r.key_id, { client_id: r.client_id, name: r.client_name }]));
}

export interface AppCall {
  id: string;
  client_name: string;
  method: string;
  path: string;
  status: number;
  credits: number;
  created_at: Date;
}

/** The latest calls the account's apps made (disconnected ones included), newest first. */
export async function recentAppCalls(db: Db, accountId: string, limit: number): Promise<AppCall[]> {
  const apps = await appsByKey(db, accountId);
  if (!apps.size) return [];
  const calls = await latestCalls(db, accountId, [...apps.keys()], limit);
  return calls.map((h) => ({
    id: h.id,
    client_name: apps.get(h.key_id)!.name,
    method: h.method,
    path: h.path,
    status: h.status,
    credits: h.credits,
    created_at: h.created_at,
  }));
}

export function hostOf(uri: string): string {
  try {
    const u = new URL(uri);
    return u.host || u.protocol;
  } catch {
    return uri;
  }
}

/** Ends one of the account's grants: its tokens, its codes and its key stop at once. False when it is not the account's or already revoked. */
export async function revokeGrant(sql: Sql, accountId: string, grantId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    await durable(tx);
    const [g] = await tx<{ key_id: string }[]>`
      UPDATE oauth_grants SET revoked_at = now() WHERE id = ${grantId} AND account_id = ${accountId} AND revoked_at IS NULL RETURNING key_id`;
    if (!g) return false;
    await tx`UPDATE oauth_tokens SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`;
    await tx`UPDATE oauth_codes SET used_at = coalesce(used_at, now()) WHERE grant_id = ${grantId}`;
    await revokeKeyById(tx, g.key_id);
    return true;
  });
}

/** Notes that the grant was used (at most once a minute: the dashboard shows it to the minute). */
export async function touchGrant(db: Db, grantId: string): Promise<void> {
  await db`UPDATE oauth_grants SET last_used_at = now() WHERE id = ${grantId} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
}

// ---- authorization codes ----

export interface CodeRow {
  grant_id: string;
  account_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
}

export async function insertCode(db: Db, codeHash: Buffer, c: CodeRow, ttlS: number): Promise<void> {
  await db`INSERT INTO oauth_codes (code_hash, grant_id, account_id, client_id, redirect_uri, code_challenge, resource, scope, expires_at)
    VALUES (${codeHash}, ${c.grant_id}, ${c.account_id}, ${c.client_id}, ${c.redirect_uri}, ${c.code_challenge}, ${c.resource}, ${c.scope},
            now() + make_interval(secs => ${ttlS}))`;
}

/** The code, locked for its exchange, with whether it expired and whether its grant was revoked. */
export async function lockCode(
  tx: Db,
  codeHash: Buffer,
): Promise<(CodeRow & { used_at: Date | null; family_id: string | null; expired: boolean; grant_revoked_at: Date | null }) | null> {
  const [row] = await tx<(CodeRow & { used_at: Date | null; family_id: string | null; expired: boolean; grant_revoked_at: Date | null })[]>`
    SELECT c.grant_id, c.account_id, c.client_id, c.redirect_uri, c.code_challenge, c.resource, c.scope, c.used_at, c.family_id,
      c.expires_at <= now() AS expired, g.revoked_at AS grant_revoked_at
    FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id
    WHERE c.code_hash = ${codeHash} FOR UPDATE OF c`;
  return row ?? null;
}

/** The code's one exchange, and the token family it started. */
export async function markCodeUsed(tx: Db, codeHash: Buffer, familyId: string): Promise<void> {
  await tx`UPDATE oauth_codes SET used_at = now(), family_id = ${familyId} WHERE code_hash = ${codeHash}`;
}

/** Expired codes and long-dead tokens (hashes of spent secrets are worth nothing). */
export async function pruneExpiredCodesAndTokens(db: Db): Promise<void> {
  await db`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`;
  await db`DELETE FROM oauth_tokens WHERE expires_at < now() - interval '7 days'`;
}

// ---- tokens ----

export interface TokenGrantRow {
  grant_id: string;
  account_id: string;
  client_id: string;
  resource: string;
  scope: string;
}

/** An access token and a refresh token of one family, each with its own lifetime. */
export async function insertTokenPair(
  db: Db,
  t: TokenGrantRow & { familyId: string; access: { hash: Buffer; ttlS: number }; refresh: { hash: Buffer; ttlS: number } },
): Promise<void> {
  await db`INSERT INTO oauth_tokens (token_hash, kind, family_id, grant_id, account_id, client_id, resource, scope, expires_at) VALUES
    (${t.access.hash}, 'access', ${t.familyId}, ${t.grant_id}, ${t.account_id}, ${t.client_id}, ${t.resource}, ${t.scope}, now() + make_interval(secs => ${t.access.ttlS})),
    (${t.refresh.hash}, 'refresh', ${t.familyId}, ${t.grant_id}, ${t.account_id}, ${t.client_id}, ${t.resource}, ${t.scope}, now() + make_interval(secs => ${t.refresh.ttlS}))`;
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db`UPDATE oauth_tokens SET revoked_at = now() WHERE family_id = ${familyId} AND revoked_at IS NULL`;
}

export interface RefreshTokenRow extends TokenGrantRow {
  family_id: string;
  rotated_at: Date | null;
  revoked_at: Date | null;
  expired: boolean;
  grant_revoked_at: Date | null;
}

/** The refresh token, locked for its rotation, with whether it expired and whether its grant was revoked. */
export async function lockRefreshToken(tx: Db, tokenHash: Buffer): Promise<RefreshTokenRow | null> {
  const [row] = await tx<RefreshTokenRow[]>`
    SELECT t.family_id, t.grant_id, t.account_id, t.client_id, t.resource, t.scope, t.rotated_at, t.revoked_at,
           t.expires_at <= now() AS expired, g.revoked_at AS grant_revoked_at
    FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
    WHERE t.token_hash = ${tokenHash} AND t.kind = 'refresh' FOR UPDATE OF t`;
  return row ?? null;
}

export async function markRotated(tx: Db, tokenHash: Buffer): Promise<void> {
  await tx`UPDATE oauth_tokens SET rotated_at = now() WHERE token_hash = ${tokenHash}`;
}

/** A token of `clientId` (either kind), for its revocation. */
export async function clientToken(db: Db, tokenHash: Buffer, clientId: string): Promise<{ kind: 'access' | 'refresh'; family_id: string } | null> {
  const [row] = await db<{ kind: 'access' | 'refresh'; family_id: string }[]>`
    SELECT kind, family_id FROM oauth_tokens WHERE token_hash = ${tokenHash} AND client_id = ${clientId}`;
  return row ?? null;
}

export async function revokeToken(db: Db, tokenHash: Buffer): Promise<void> {
  await db`UPDATE oauth_tokens SET revoked_at = now() WHERE token_hash = ${tokenHash} AND revoked_at IS NULL`;
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

/** The live access token (not expired, not revoked, its grant live), with its client, key row and account plan. */
export async function findLiveAccessToken(db: Db, tokenHash: Buffer): Promise<LiveAccessToken | null> {
  const [row] = await db<LiveAccessToken[]>`
    SELECT t.grant_id, t.account_id, t.client_id, c.client_name, t.resource, t.scope, t.expires_at, g.key_id, a.plan
    FROM oauth_tokens t
      JOIN oauth_grants g ON g.id = t.grant_id AND g.revoked_at IS NULL
      JOIN oauth_clients c ON c.client_id = t.client_id
      JOIN LATERAL ${accountOf(db, db`t.account_id`)} a ON true
    WHERE t.token_hash = ${tokenHash} AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()`;
  return row ?? null;
}
