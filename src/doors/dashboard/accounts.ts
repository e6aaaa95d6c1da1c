import type { Sql } from '../../db/client.js';
import { accountByEmail, createAccount, setChosenPassword, setTemporaryPassword, type AccountRow } from '../../platform/accounts.js';
import { endAccountSessions } from '../../platform/dashboard-sessions.js';
import type { PlanCode } from '../../platform/plans.js';
import { hashPassword, temporaryPassword } from './password.js';

/** A dashboard account always has its sign-in email. */
export type DashboardAccount = AccountRow & { email: string };

export interface IssuedAccount {
  accountId: string;
  email: string;
  plan: PlanCode;
  /** Shown once; only its scrypt hash is stored. */
  temporaryPassword: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function isEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

/** Creates an account with a temporary password that must be changed at first sign-in. */
export async function createDashboardAccount(sql: Sql, opts: { email: string; plan: PlanCode; name?: string }): Promise<IssuedAccount> {
  const email = normalizeEmail(opts.email);
  if (!isEmail(email)) throw new Error(`not an email address: ${opts.email}`);
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  const accountId = await sql.begin(async (tx) => {
    if (await accountByEmail(tx, email)) throw new Error(`an account with email ${email} already exists`);
    return createAccount(tx, { name: opts.name ?? email, plan: opts.plan, email, temporaryPasswordHash: hash });
  });
  return { accountId, email, plan: opts.plan, temporaryPassword: password };
}

/** A new temporary password for an existing account; its sessions end. Null when no account has that email. */
export async function resetTemporaryPassword(sql: Sql, rawEmail: string): Promise<string | null> {
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  return sql.begin(async (tx) => {
    const accountId = await setTemporaryPassword(tx, normalizeEmail(rawEmail), hash);
    if (!accountId) return null;
    await endAccountSessions(tx, accountId);
    return password;
  });
}

export async function accountForSignIn(sql: Sql, email: string): Promise<(DashboardAccount & { password_hash: string | null }) | null> {
  return (await accountByEmail(sql, normalizeEmail(email))) as (DashboardAccount & { password_hash: string | null }) | null;
}

/** Stores the new password and ends every other session of the account. */
export async function changePassword(sql: Sql, accountId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await sql.begin(async (tx) => {
    await setChosenPassword(tx, accountId, hash);
    await endAccountSessions(tx, accountId);
  });
}
