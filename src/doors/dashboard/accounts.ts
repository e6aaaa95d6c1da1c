import type { Sql } from '../../db/client.js';
import { createAccount } from '../../platform/keys.js';
import type { PlanCode } from '../../platform/plans.js';
import { hashPassword, temporaryPassword } from './password.js';

export interface DashboardAccount {
  id: string;
  name: string;
  email: string;
  plan: string;
  must_change_password: boolean;
  /** Set with must_change_password when the password signed in with breaks a rule added since it was chosen. */
  password_rule_problem: string | null;
}

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
    const [taken] = await tx`SELECT id FROM accounts WHERE lower(email) = ${email}`;
    if (taken) throw new Error(`an account with email ${email} already exists`);
    const id = await createAccount(tx as unknown as Sql, { name: opts.name ?? email, plan: opts.plan, email });
    await tx`UPDATE accounts SET password_hash = ${hash}, must_change_password = true WHERE id = ${id}`;
    return id;
  });
  return { accountId, email, plan: opts.plan, temporaryPassword: password };
}

/** A new temporary password for an existing account; its sessions end. Null when no account has that email. */
export async function resetTemporaryPassword(sql: Sql, rawEmail: string): Promise<string | null> {
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  return sql.begin(async (tx) => {
    const [row] = await tx`
      UPDATE accounts SET password_hash = ${hash}, must_change_password = true, password_rule_problem = NULL, password_changed_at = now()
      WHERE lower(email) = ${normalizeEmail(rawEmail)} RETURNING id`;
    if (!row) return null;
    await tx`DELETE FROM dashboard_sessions WHERE account_id = ${row.id}`;
    return password;
  });
}

export async function accountForSignIn(sql: Sql, email: string): Promise<(DashboardAccount & { password_hash: string | null }) | null> {
  const [row] = await sql`
    SELECT id, name, email, plan, must_change_password, password_rule_problem, password_hash FROM accounts
    WHERE lower(email) = ${normalizeEmail(email)} ORDER BY created_at LIMIT 1`;
  return (row as (DashboardAccount & { password_hash: string | null }) | undefined) ?? null;
}

export async function passwordHashOf(sql: Sql, accountId: string): Promise<string | null> {
  const [row] = await sql`SELECT password_hash FROM accounts WHERE id = ${accountId}`;
  return row?.password_hash ?? null;
}

/** Stores the new password and ends every other session of the account. */
export async function changePassword(sql: Sql, accountId: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await sql.begin(async (tx) => {
    await tx`UPDATE accounts SET password_hash = ${hash}, must_change_password = false, password_rule_problem = NULL, password_changed_at = now() WHERE id = ${accountId}`;
    await tx`DELETE FROM dashboard_sessions WHERE account_id = ${accountId}`;
  });
}

/**
 * A password chosen before today's rules that breaks one: the account must replace it before any
 * other page opens (found at sign-in, the only moment the password itself is at hand).
 */
export async function requirePasswordChange(sql: Sql, accountId: string, problem: string): Promise<void> {
  await sql`UPDATE accounts SET must_change_password = true, password_rule_problem = ${problem} WHERE id = ${accountId}`;
}
