import type { Sql } from '../../db/client.js';
import { createKey, liveKeysOf, rotateKey, type CreatedKey, type KeySummary } from '../../platform/keys.js';
import { planOf } from '../../platform/plans.js';
import type { DashboardAccount } from './accounts.js';

export type { KeySummary };

export type KeyOutcome = { ok: true; key: CreatedKey } | { ok: false; reason: string };

/** Key name of a dashboard account: rotation keeps it, and with it the rate limit. */
const accountKeyName = (email: string) => `acct-${email}`;

/** The account's live keys (a dashboard account has at most one; an admin may have issued others). */
export function liveKeys(sql: Sql, accountId: string): Promise<KeySummary[]> {
  return liveKeysOf(sql, accountId);
}

/** Creates the account's first key, at its plan's rate limit; refused while a live key exists. */
export async function createAccountKey(sql: Sql, account: DashboardAccount): Promise<KeyOutcome> {
  if ((await liveKeys(sql, account.id)).length > 0) return { ok: false, reason: 'This account already has a key: rotate it instead.' };
  try {
    const key = await createKey(sql, {
      name: accountKeyName(account.email),
      accountId: account.id,
      rateLimit: planOf(account.plan).rate_limit_per_min,
      role: 'user',
    });
    return { ok: true, key };
  } catch (err) {
    // The unique live-name index settles a double submit: the second create loses.
    if ((err as { code?: string }).code === '23505') return { ok: false, reason: 'A key with this name already exists: rotate it instead.' };
    throw err;
  }
}

/** Replaces one of the account's own live keys; the old one stops at once. */
export async function rotateAccountKey(sql: Sql, accountId: string, name: string): Promise<KeyOutcome> {
  const owned = (await liveKeys(sql, accountId)).some((k) => k.name === name);
  if (!owned) return { ok: false, reason: 'No such key on this account.' };
  const key = await rotateKey(sql, name);
  if (!key || key.account_id !== accountId) return { ok: false, reason: 'The key changed meanwhile: reload the page.' };
  return { ok: true, key };
}
