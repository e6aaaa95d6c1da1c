import { durable, type Sql } from '../db/client.js';
import { newId } from '../domain/ids.js';
import { planOf } from './plans.js';

/**
 * The grant an account approved for a client: one live grant per account and client, reused when
 * the same app asks again. Its key row (kind 'oauth', no secret) is what history, metering and
 * idempotency record the app's calls under.
 */
export async function approveGrant(sql: Sql, o: { accountId: string; clientId: string; scope: string }): Promise<string> {
  return sql.begin(async (tx) => {
    await durable(tx);
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`oauth-grant:${o.accountId}:${o.clientId}`}))`;
    const [live] = await tx`SELECT id FROM oauth_grants WHERE account_id = ${o.accountId} AND client_id = ${o.clientId} AND revoked_at IS NULL`;
    if (live) {
      await tx`UPDATE oauth_grants SET scope = ${o.scope} WHERE id = ${live.id}`;
      return live.id as string;
    }
    const [account] = await tx`SELECT plan FROM accounts WHERE id = ${o.accountId}`;
    const grantId = newId('grant', 20);
    const keyId = newId('key', 16);
    await tx`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min, role, kind)
      VALUES (${keyId}, ${o.accountId}, ${`oauth:${grantId}`}, 'oauth', NULL, ${planOf(account.plan).rate_limit_per_min}, 'user', 'oauth')`;
    await tx`INSERT INTO oauth_grants (id, account_id, client_id, key_id, scope) VALUES (${grantId}, ${o.accountId}, ${o.clientId}, ${keyId}, ${o.scope})`;
    return grantId;
  }) as Promise<string>;
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

/** The account's live grants, newest first, with their last 30 days of calls. */
export async function connectedApps(sql: Sql, accountId: string): Promise<ConnectedApp[]> {
  const rows = await sql`
    SELECT g.id AS grant_id, g.client_id, c.client_name, c.registration, c.redirect_uris, g.created_at, g.last_used_at,
      (SELECT count(*)::int FROM request_history h WHERE h.key_id = g.key_id AND h.created_at > now() - interval '30 days') AS calls_30d,
      (SELECT coalesce(sum(h.credits), 0)::int FROM request_history h WHERE h.key_id = g.key_id AND h.created_at > now() - interval '30 days') AS credits_30d
    FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
    WHERE g.account_id = ${accountId} AND g.revoked_at IS NULL
    ORDER BY g.created_at DESC`;
  return rows.map((r) => ({
    ...(r as unknown as ConnectedApp),
    redirect_hosts: [...new Set((r.redirect_uris as string[]).map(hostOf))],
  }));
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
export async function recentAppCalls(sql: Sql, accountId: string, limit: number): Promise<AppCall[]> {
  const rows = await sql`
    SELECT h.id, c.client_name, h.method, h.path, h.status, h.credits, h.created_at
    FROM request_history h JOIN oauth_grants g ON g.key_id = h.key_id JOIN oauth_clients c ON c.client_id = g.client_id
    WHERE h.account_id = ${accountId} AND g.account_id = ${accountId}
    ORDER BY h.created_at DESC LIMIT ${limit}`;
  return rows as unknown as AppCall[];
}

export function hostOf(uri: string): string {
  try {
    const u = new URL(uri);
    return u.host || u.protocol;
  } catch {
    return uri;
  }
}

/** Ends one of the account's grants: its tokens and its key stop at once. False when it is not the account's or already revoked. */
export async function revokeGrant(sql: Sql, accountId: string, grantId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    await durable(tx);
    const [g] = await tx`UPDATE oauth_grants SET revoked_at = now() WHERE id = ${grantId} AND account_id = ${accountId} AND revoked_at IS NULL RETURNING key_id`;
    if (!g) return false;
    await tx`UPDATE oauth_tokens SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`;
    await tx`UPDATE oauth_codes SET used_at = coalesce(used_at, now()) WHERE grant_id = ${grantId}`;
    await tx`UPDATE api_keys SET revoked_at = now() WHERE id = ${g.key_id} AND revoked_at IS NULL`;
    return true;
  }) as Promise<boolean>;
}

export interface AppLabel {
  client_id: string;
  name: string;
}

/** The app behind each of the account's app key rows (disconnected ones included): labels for history and usage reads. */
export async function appsByKey(sql: Sql, accountId: string): Promise<Map<string, AppLabel>> {
  const rows = await sql`
    SELECT g.key_id, g.client_id, c.client_name FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id
    WHERE g.account_id = ${accountId}`;
  return new Map(rows.map((r) => [r.key_id as string, { client_id: r.client_id as string, name: r.client_name as string }]));
}
