import { createHash, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../../db/client.js';
import { randomToken } from '../../domain/ids.js';
import { accountById } from '../../platform/accounts.js';
import { deleteSession, deleteStaleSessions, insertSession, touchSession } from '../../platform/dashboard-sessions.js';
import type { DashboardAccount } from './accounts.js';

export const SESSION_COOKIE = 'dash_session';
/** The cookie never leaves the dashboard: it is not even sent to `/v1/*`. */
const COOKIE_PATH = '/dashboard';

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
  await insertSession(sql, { tokenHash: hashToken(token), accountId, csrf, lifetimeS: life.absoluteS });
  if (Math.random() < 0.05) await deleteStaleSessions(sql, LIFETIME.signedIn.idleS);
  const account = accountId ? ((await accountById(sql, accountId)) as DashboardAccount | null) : null;
  return { token, csrf, account, maxAgeS: life.absoluteS };
}

/** The live session of a cookie value, or null (unknown, expired or idle too long). */
export async function readSession(sql: Sql, token: string | undefined): Promise<Session | null> {
  if (!token || !TOKEN.test(token)) return null;
  const row = await touchSession(sql, hashToken(token), { anonymousS: LIFETIME.anonymous.idleS, signedInS: LIFETIME.signedIn.idleS });
  if (!row) return null;
  return { token, csrf: row.csrf_token, account: row.account as DashboardAccount | null };
}

export async function destroySession(sql: Sql, token: string): Promise<void> {
  await deleteSession(sql, hashToken(token));
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
