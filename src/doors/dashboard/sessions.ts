import { createHash, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../../db/client.js';
import { randomToken } from '../../domain/ids.js';
import type { DashboardAccount } from './accounts.js';

export const SESSION_COOKIE = 'dash_session';
/** The cookie never leaves the dashboard: it is not even sent to `/v1/*`. */
export const COOKIE_PATH = '/dashboard';

const LIFETIME = {
  signedIn: { absoluteS: 12 * 3600, idleS: 2 * 3600 },
  // Only binds the sign-in form's CSRF token.
  anonymous: { absoluteS: 3600, idleS: 3600 },
};
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface Session {
  token: string;
  csrf: string;
  account: DashboardAccount | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** A new session (signed in when an account is given) with its own CSRF token. */
export async function createSession(sql: Sql, accountId: string | null): Promise<Session & { maxAgeS: number }> {
  const token = randomToken(43);
  const csrf = randomToken(43);
  const life = accountId ? LIFETIME.signedIn : LIFETIME.anonymous;
  await sql`INSERT INTO dashboard_sessions (token_hash, account_id, csrf_token, expires_at)
    VALUES (${hashToken(token)}, ${accountId}, ${csrf}, now() + make_interval(secs => ${life.absoluteS}))`;
  if (Math.random() < 0.05) {
    await sql`DELETE FROM dashboard_sessions WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => ${LIFETIME.signedIn.idleS})`;
  }
  const account = accountId ? await accountById(sql, accountId) : null;
  return { token, csrf, account, maxAgeS: life.absoluteS };
}

async function accountById(sql: Sql, id: string): Promise<DashboardAccount | null> {
  const [row] = await sql`SELECT id, name, email, plan, must_change_password, password_rule_problem FROM accounts WHERE id = ${id}`;
  return (row as DashboardAccount | undefined) ?? null;
}

/** The live session of a cookie value, or null (unknown, expired or idle too long). */
export async function readSession(sql: Sql, token: string | undefined): Promise<Session | null> {
  if (!token || !TOKEN.test(token)) return null;
  const [row] = await sql`
    WITH s AS (
      UPDATE dashboard_sessions SET last_seen_at = now()
      WHERE token_hash = ${hashToken(token)} AND expires_at > now()
        AND last_seen_at > now() - make_interval(secs => CASE WHEN account_id IS NULL THEN ${LIFETIME.anonymous.idleS}::int ELSE ${LIFETIME.signedIn.idleS}::int END)
      RETURNING account_id, csrf_token)
    SELECT s.account_id, s.csrf_token, a.name, a.email, a.plan, a.must_change_password, a.password_rule_problem
    FROM s LEFT JOIN accounts a ON a.id = s.account_id`;
  if (!row) return null;
  const account = row.account_id
    ? { id: row.account_id, name: row.name, email: row.email, plan: row.plan, must_change_password: row.must_change_password, password_rule_problem: row.password_rule_problem }
    : null;
  return { token, csrf: row.csrf_token, account };
}

export async function destroySession(sql: Sql, token: string): Promise<void> {
  await sql`DELETE FROM dashboard_sessions WHERE token_hash = ${hashToken(token)}`;
}

/** Synchronizer-token check: the form's token must equal the one stored with this session. */
export function csrfMatches(session: Session | null, presented: unknown): boolean {
  if (!session || typeof presented !== 'string') return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(token: string, opts: { secure: boolean; maxAgeS: number }): string {
  const attrs = [`${SESSION_COOKIE}=${token}`, `Path=${COOKIE_PATH}`, `Max-Age=${opts.maxAgeS}`, 'HttpOnly', 'SameSite=Lax'];
  if (opts.secure) attrs.push('Secure');
  return attrs.join('; ');
}

export function clearedCookie(secure: boolean): string {
  return [`${SESSION_COOKIE}=`, `Path=${COOKIE_PATH}`, 'Max-Age=0', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}
