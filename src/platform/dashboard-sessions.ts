import type { Db } from '../db/client.js';
import { accountOf, type AccountRow } from './accounts.js';

/*
 * The owner of dashboard_sessions: one row per dashboard cookie, keyed by the SHA-256 of its random
 * token (src/doors/dashboard/sessions.ts makes and checks the tokens). A row without account is the
 * pre-sign-in session that binds the sign-in form's CSRF token.
 */

export interface StoredSession {
  csrf_token: string;
  account: AccountRow | null;
}

export async function insertSession(db: Db, s: { tokenHash: Buffer; accountId: string | null; csrf: string; lifetimeS: number }): Promise<void> {
  await db`INSERT INTO dashboard_sessions (token_hash, account_id, csrf_token, expires_at)
    VALUES (${s.tokenHash}, ${s.accountId}, ${s.csrf}, now() + make_interval(secs => ${s.lifetimeS}))`;
}

/** Deletes sessions past their absolute lifetime or idle longer than `idleS`. */
export async function deleteStaleSessions(db: Db, idleS: number): Promise<void> {
  await db`DELETE FROM dashboard_sessions WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => ${idleS})`;
}

/**
 * The live session of a token hash, marked as seen now, with its account; null when unknown,
 * expired, or idle longer than its kind allows (anonymous or signed in).
 */
export async function touchSession(db: Db, tokenHash: Buffer, idle: { anonymousS: number; signedInS: number }): Promise<StoredSession | null> {
  const [row] = await db<StoredSession[]>`
    WITH s AS (
      UPDATE dashboard_sessions SET last_seen_at = now()
      WHERE token_hash = ${tokenHash} AND expires_at > now()
        AND last_seen_at > now() - make_interval(secs => CASE WHEN account_id IS NULL THEN ${idle.anonymousS}::int ELSE ${idle.signedInS}::int END)
      RETURNING account_id, csrf_token)
    SELECT s.csrf_token, row_to_json(a) AS account FROM s LEFT JOIN LATERAL ${accountOf(db, db`s.account_id`)} a ON true`;
  return row ?? null;
}

export async function deleteSession(db: Db, tokenHash: Buffer): Promise<void> {
  await db`DELETE FROM dashboard_sessions WHERE token_hash = ${tokenHash}`;
}

/** Ends every session of the account (its password changed). */
export async function endAccountSessions(db: Db, accountId: string): Promise<void> {
  await db`DELETE FROM dashboard_sessions WHERE account_id = ${accountId}`;
}
