/*
 * The one module that writes and reads watch events (migrations 015, 030, 035, 036): what a watch
 * tells (watch.triggered, and its health: watch.paused, watch.failing, watch.resumed), each event's
 * webhook delivery attempts and redeliveries (rounds), and an account's daily digest (watch.digest,
 * one per account, period and callback URL). The watches and checks they follow are watches.ts's,
 * which reads what it needs of the events through the fragments below (one statement each).
 */
import type { Db, Fragment, Sql, Tx } from '../db/client.js';

export type EventType = 'watch.triggered' | 'watch.paused' | 'watch.failing' | 'watch.resumed' | 'watch.digest';

export interface EventRow {
  id: string;
  /** null for an account's digest (watch.digest), which follows no one watch. */
  watch_id: string | null;
  /** null for an event that follows no check (watch.paused, watch.failing, watch.resumed, watch.digest). */
  check_id: string | null;
  type: EventType;
  payload: Record<string, unknown>;
  callback_url: string | null;
  callback_status: 'not_configured' | 'pending' | 'delivered' | 'failed';
  callback_attempts: number;
  callback_last_error: string | null;
  /** Redeliveries asked for (migration 035): each starts a new round of attempts. */
  round: number;
  redelivered_at: Date | null;
  /** The digest period (days since the epoch, in WATCH_HOUR_S days) of a watch.digest. */
  digest_period: string | null;
  created_at: Date;
}

/** The watch an event follows, as far as the event records it. */
interface EventWatch {
  id: string;
  account_id: string;
  callback_url: string | null;
}

/**
 * `at` is the instant the payload's `timestamp` states: stored as the row's `created_at`, so the day
 * digest that groups rows by `created_at` lists an event on its stated day (the transaction's start,
 * the column's default, can fall on the day before).
 */
export async function insertEvent(
  tx: Tx,
  e: { id: string; watch: EventWatch; checkId: string | null; type?: EventType; at: Date; payload: unknown },
): Promise<EventRow> {
  const [row] = await tx`INSERT INTO watch_events (id, watch_id, account_id, check_id, type, payload, callback_url, callback_status, created_at)
    VALUES (${e.id}, ${e.watch.id}, ${e.watch.account_id}, ${e.checkId}, ${e.type ?? 'watch.triggered'}, ${tx.json(e.payload as never)}, ${e.watch.callback_url},
            ${e.watch.callback_url ? 'pending' : 'not_configured'}, ${e.at})
    RETURNING *`;
  return row as EventRow;
}

export async function listEvents(sql: Sql | Tx, watchId: string, limit: number, offset = 0): Promise<EventRow[]> {
  return (await sql`SELECT * FROM watch_events WHERE watch_id = ${watchId}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`) as unknown as EventRow[];
}

export async function eventForDelivery(sql: Sql, eventId: string): Promise<EventRow | null> {
  const [row] = await sql`SELECT * FROM watch_events WHERE id = ${eventId}`;
  return (row as EventRow | undefined) ?? null;
}

/** One delivery attempt's outcome, only if no other run of the same attempt (of the same round) got there first. */
export async function deliveryDone(
  tx: Tx,
  eventId: string,
  at: { attempt: number; round: number },
  status: EventRow['callback_status'],
  error: string | null,
): Promise<boolean> {
  const done = await tx`UPDATE watch_events SET callback_attempts = ${at.attempt}, callback_last_error = ${error}, callback_status = ${status}
    WHERE id = ${eventId} AND callback_status = 'pending' AND callback_attempts = ${at.attempt - 1} AND round = ${at.round} RETURNING id`;
  return done.length > 0;
}

/**
 * A new round of delivery attempts of one of the account's events, to `callbackUrl`; null when the
 * event is not the account's watch's. An event whose round is still under way (pending) is left as it is.
 */
export async function restartDelivery(
  tx: Tx,
  e: { accountId: string; watchId: string | null; eventId: string; callbackUrl: string },
): Promise<{ event: EventRow; restarted: boolean } | null> {
  const [row] = await tx`SELECT * FROM watch_events WHERE id = ${e.eventId} AND account_id = ${e.accountId}
      AND ${e.watchId === null ? tx`watch_id IS NULL` : tx`watch_id = ${e.watchId}`} FOR UPDATE`;
  if (!row) return null;
  if (row.callback_status === 'pending') return { event: row as EventRow, restarted: false };
  const [updated] = await tx`UPDATE watch_events SET callback_url = ${e.callbackUrl}, callback_status = 'pending', callback_attempts = 0,
      callback_last_error = NULL, round = round + 1, redelivered_at = now()
    WHERE id = ${e.eventId} RETURNING *`;
  return { event: updated as EventRow, restarted: true };
}

/** A digest of the account for one period, to one callback URL (null: listed only); false when it exists already. */
export async function insertDigest(
  tx: Tx,
  d: { id: string; accountId: string; period: number; callbackUrl: string | null; payload: unknown },
): Promise<boolean> {
  const rows = await tx`INSERT INTO watch_events (id, watch_id, account_id, check_id, type, payload, callback_url, callback_status, digest_period)
    VALUES (${d.id}, NULL, ${d.accountId}, NULL, 'watch.digest', ${tx.json(d.payload as never)}, ${d.callbackUrl},
            ${d.callbackUrl ? 'pending' : 'not_configured'}, ${d.period})
    ON CONFLICT DO NOTHING RETURNING id`;
  return rows.length > 0;
}

export async function listDigests(sql: Sql, accountId: string, limit: number, offset = 0): Promise<EventRow[]> {
  return (await sql`SELECT * FROM watch_events WHERE account_id = ${accountId} AND digest_period IS NOT NULL
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`) as unknown as EventRow[];
}

export async function findDigest(sql: Sql, accountId: string, id: string): Promise<EventRow | null> {
  if (typeof id !== 'string' || id.length > 100) return null;
  const [row] = await sql`SELECT * FROM watch_events WHERE id = ${id} AND account_id = ${accountId} AND digest_period IS NOT NULL`;
  return (row as EventRow | undefined) ?? null;
}

/** How many events the watch `watchId` (a column of the caller's statement) has, as a value of that statement. */
export function eventCount(db: Db, watchId: Fragment): Fragment {
  return db`(SELECT count(*)::int FROM watch_events e WHERE e.watch_id = ${watchId})`;
}

/** Whether the account `accountId` (a column of the caller's statement) has its digest of `period`, as a condition of that statement. */
export function digestExists(db: Db, accountId: Fragment, period: number): Fragment {
  return db`EXISTS (SELECT 1 FROM watch_events e WHERE e.account_id = ${accountId} AND e.digest_period = ${period})`;
}

/** The events of the watches in [from, to), oldest first (what a digest tells of them). */
export async function eventsBetween(
  sql: Sql,
  watchIds: string[],
  from: Date,
  to: Date,
): Promise<Pick<EventRow, 'id' | 'watch_id' | 'type' | 'created_at' | 'payload'>[]> {
  return (await sql`SELECT id, watch_id, type, created_at, payload FROM watch_events
    WHERE watch_id = ANY(${watchIds}) AND created_at >= ${from} AND created_at < ${to} ORDER BY created_at, id`) as unknown as EventRow[];
}
