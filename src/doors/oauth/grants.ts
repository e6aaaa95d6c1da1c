import { durable, type Db, type Sql } from '../../db/client.js';
import { newId } from '../../domain/ids.js';
import { planOfAccount } from '../../platform/accounts.js';
import { latestCalls, recentTotalsByKey } from '../../platform/history.js';
import { createAppKey, revokeKeyById } from '../../platform/keys.js';
import { appsByKey, insertGrant, liveGrantId, liveGrantsOf, lockGrantPair, revokeGrantRows, setGrantScope, type AppLabel } from '../../platform/oauth-store.js';
import { planOf } from '../../platform/plans.js';

export { appsByKey, type AppLabel };

/**
 * The grant an account approved for a client: one live grant per account and client, reused when
 * the same app asks again. Its key row (kind 'oauth', no secret) is what history, metering and
 * idempotency record the app's calls under.
 */
export async function approveGrant(sql: Sql, o: { accountId: string; clientId: string; scope: string }): Promise<string> {
  return sql.begin(async (tx) => {
    await durable(tx);
    await lockGrantPair(tx, o.accountId, o.clientId);
    const live = await liveGrantId(tx, o.accountId, o.clientId);
    if (live) {
      await setGrantScope(tx, live, o.scope);
      return live;
    }
    const plan = await planOfAccount(tx, o.accountId);
    const grantId = newId('grant', 20);
    const keyId = await createAppKey(tx, { accountId: o.accountId, grantId, rateLimit: planOf(plan ?? 'free').rate_limit_per_min });
    await insertGrant(tx, { id: grantId, accountId: o.accountId, clientId: o.clientId, keyId, scope: o.scope });
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

/** The account's live grants, newest first, with their last 30 days of calls. */
export async function connectedApps(db: Db, accountId: string): Promise<ConnectedApp[]> {
  const grants = await liveGrantsOf(db, accountId);
  const totals = grants.length ? await recentTotalsByKey(db, grants.map((g) => g.key_id), 30) : new Map<string, { calls: number; credits: number }>();
  return grants.map(({ redirect_uris, key_id, ...g }) => ({
    ...g,
    redirect_hosts: [...new Set(redirect_uris.map(hostOf))],
    calls_30d: totals.get(key_id)?.calls ?? 0,
    credits_30d: totals.get(key_id)?.credits ?? 0,
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

/** Ends one of the account's grants: its tokens and its key stop at once. False when it is not the account's or already revoked. */
export async function revokeGrant(sql: Sql, accountId: string, grantId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    await durable(tx);
    const keyId = await revokeGrantRows(tx, accountId, grantId);
    if (!keyId) return false;
    await revokeKeyById(tx, keyId);
    return true;
  });
}
