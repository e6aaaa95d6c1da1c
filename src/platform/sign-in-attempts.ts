import type { Db, Sql } from '../db/client.js';

/*
 * The owner of dashboard_sign_in_attempts: the dashboard's password checks, counted per email and
 * per client IP to throttle guessing.
 */

/** Failed password checks allowed in a sliding window, per email and per client IP. */
export const SIGN_IN_LIMITS = { perEmail: 5, perIp: 20, windowS: 15 * 60 } as const;

// Advisory-lock classes: one email's (and one IP's) attempts are counted one at a time.
const LOCK_EMAIL = 727_101;
const LOCK_IP = 727_102;

export type Attempt = { allowed: true; id: number } | { allowed: false; retryAfterS: number };

/**
 * Admits a password check or refuses it. An admitted attempt is written as a failure up front,
 * so that concurrent guesses count before their (slow) scrypt finishes; `attemptSucceeded` turns it
 * into a success. A success clears the email's count, never the IP's.
 */
export async function beginAttempt(sql: Sql, email: string, ip: string): Promise<Attempt> {
  const { perEmail, perIp, windowS } = SIGN_IN_LIMITS;
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCK_EMAIL}, hashtext(${email})), pg_advisory_xact_lock(${LOCK_IP}, hashtext(${ip}))`;
    const [c] = await tx<{ by_email: number; email_oldest: Date | null; by_ip: number; ip_oldest: Date | null; now: Date }[]>`
      WITH recent AS (
        SELECT id, email, ip, created_at FROM dashboard_sign_in_attempts
        WHERE outcome = 'failure' AND created_at > now() - make_interval(secs => ${windowS}) AND (email = ${email} OR ip = ${ip})),
      last_ok AS (
        SELECT coalesce(max(id), 0) AS id FROM dashboard_sign_in_attempts WHERE email = ${email} AND outcome = 'success')
      SELECT
        count(*) FILTER (WHERE r.email = ${email} AND r.id > l.id)::int AS by_email,
        min(r.created_at) FILTER (WHERE r.email = ${email} AND r.id > l.id) AS email_oldest,
        count(*) FILTER (WHERE r.ip = ${ip})::int AS by_ip,
        min(r.created_at) FILTER (WHERE r.ip = ${ip}) AS ip_oldest,
        now() AS now
      FROM last_ok l LEFT JOIN recent r ON true
      GROUP BY l.id`;
    const blockedUntil: Date[] = [];
    if (c.by_email >= perEmail) blockedUntil.push(c.email_oldest!);
    if (c.by_ip >= perIp) blockedUntil.push(c.ip_oldest!);
    if (blockedUntil.length > 0) {
      await tx`INSERT INTO dashboard_sign_in_attempts (email, ip, outcome) VALUES (${email}, ${ip}, 'refused')`;
      const freeAt = Math.max(...blockedUntil.map((d) => d.getTime())) + windowS * 1000;
      return { allowed: false as const, retryAfterS: Math.max(1, Math.ceil((freeAt - c.now.getTime()) / 1000)) };
    }
    const [row] = await tx<{ id: number }[]>`INSERT INTO dashboard_sign_in_attempts (email, ip, outcome) VALUES (${email}, ${ip}, 'failure') RETURNING id`;
    if (Math.random() < 0.02) await tx`DELETE FROM dashboard_sign_in_attempts WHERE created_at < now() - interval '1 day'`;
    return { allowed: true as const, id: row.id };
  });
}

export async function attemptSucceeded(db: Db, id: number): Promise<void> {
  await db`UPDATE dashboard_sign_in_attempts SET outcome = 'success' WHERE id = ${id}`;
}
