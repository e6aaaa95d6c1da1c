import type { Db, Fragment } from '../db/client.js';
import { newId } from '../domain/ids.js';
import type { PlanCode, UNMETERED } from './plans.js';

/*
 * The owner of `accounts`: who owns keys, history, credits and everything stored; its plan, and
 * the dashboard's credentials (email, scrypt password hash, whether it must be changed). Other
 * owners that need an account's fields in their own statement join `accountOf`.
 */

/** An account as the dashboard shows it (never its password hash). */
export interface AccountRow {
  id: string;
  name: string;
  email: string | null;
  plan: string;
  must_change_password: boolean;
  /** Set with must_change_password when the password signed in with breaks a rule added since it was chosen. */
  password_rule_problem: string | null;
}

/**
 * The account that `id` (a column of the caller's statement) names, as a relation for
 * `JOIN LATERAL ${accountOf(db, db`t.account_id`)} a ON true`: one statement, planned as a join.
 */
export function accountOf(db: Db, id: Fragment): Fragment {
  return db`(SELECT a.id, a.name, a.email, a.plan, a.must_change_password, a.password_rule_problem FROM accounts a WHERE a.id = ${id})`;
}

export interface NewAccount {
  name: string;
  plan: PlanCode | typeof UNMETERED;
  email?: string;
  /** A temporary password's hash: the account must change it at its first sign-in. */
  temporaryPasswordHash?: string;
}

export async function createAccount(db: Db, a: NewAccount): Promise<string> {
  const id = newId('acct', 16);
  const hash = a.temporaryPasswordHash ?? null;
  await db`INSERT INTO accounts (id, name, plan, email, password_hash, must_change_password)
    VALUES (${id}, ${a.name}, ${a.plan}, ${a.email ?? null}, ${hash}, ${hash !== null})`;
  return id;
}

/** The plan code an account is on ('none' when it is not metered); null for an unknown account. */
export async function planOfAccount(db: Db, accountId: string): Promise<string | null> {
  const [row] = await db<{ plan: string }[]>`SELECT plan FROM accounts WHERE id = ${accountId}`;
  return row?.plan ?? null;
}

export async function accountById(db: Db, id: string): Promise<AccountRow | null> {
  const [row] = await db<AccountRow[]>`SELECT id, name, email, plan, must_change_password, password_rule_problem FROM accounts WHERE id = ${id}`;
  return row ?? null;
}

/** `email` normalised (lower case) by the caller; the oldest account when several share it. */
export async function accountByEmail(db: Db, email: string): Promise<(AccountRow & { password_hash: string | null }) | null> {
  const [row] = await db<(AccountRow & { password_hash: string | null })[]>`
    SELECT id, name, email, plan, must_change_password, password_rule_problem, password_hash FROM accounts
    WHERE lower(email) = ${email} ORDER BY created_at LIMIT 1`;
  return row ?? null;
}

export async function passwordHashOf(db: Db, accountId: string): Promise<string | null> {
  const [row] = await db<{ password_hash: string | null }[]>`SELECT password_hash FROM accounts WHERE id = ${accountId}`;
  return row?.password_hash ?? null;
}

/** A temporary password for the account with `email` (normalised); its id, or null when none has it. */
export async function setTemporaryPassword(db: Db, email: string, hash: string): Promise<string | null> {
  const [row] = await db<{ id: string }[]>`
    UPDATE accounts SET password_hash = ${hash}, must_change_password = true, password_rule_problem = NULL, password_changed_at = now()
    WHERE lower(email) = ${email} RETURNING id`;
  return row?.id ?? null;
}

/** The password the account chose: nothing more to change. */
export async function setChosenPassword(db: Db, accountId: string, hash: string): Promise<void> {
  await db`UPDATE accounts SET password_hash = ${hash}, must_change_password = false, password_rule_problem = NULL, password_changed_at = now()
    WHERE id = ${accountId}`;
}

/**
 * A password chosen before today's rules that breaks one: the account must replace it before any
 * other page opens (found at sign-in, the only moment the password itself is at hand).
 */
export async function requirePasswordChange(db: Db, accountId: string, problem: string): Promise<void> {
  await db`UPDATE accounts SET must_change_password = true, password_rule_problem = ${problem} WHERE id = ${accountId}`;
}
