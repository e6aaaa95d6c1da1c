/*
 * The one module that writes and reads watches and their checks (migration 015); their events, the
 * events' deliveries and the accounts' digests are watch-events.ts's.
 * Every read is of one account; another account's watch is not found (404), never told apart.
 *
 * Watch states: active ⇄ paused (paused_reason paused_by_user | insufficient_credits | gone); a
 * paused watch has no slot in the queue (its seq moved on), resuming gives it a new one.
 * active → ended (ended_reason end_date | stay_passed, migration 030) for good.
 * Slots: `seq` is the schedule slot to check next. A slot ends with exactly one of: a committed
 * check (watch_checks.period = seq), or, when every attempt failed, a miss (periods_missed + 1,
 * nothing charged). Either way seq moves on in the same transaction.
 */
import type { Sql, Tx } from '../db/client.js';
import { accountOf } from './accounts.js';
import { digestExists, eventCount, eventsBetween, type EventRow } from './watch-events.js';
import { NotFound } from '../domain/errors.js';
import type { Change, Rule } from '../domain/watch-rules.js';
import type { Observation, Operation } from '../domain/watch-observation.js';

export interface WatchRow {
  id: string;
  account_id: string;
  key_id: string;
  name: string | null;
  operation: Operation;
  target: Record<string, unknown>;
  rule: Rule;
  every_hours: number;
  callback_url: string | null;
  status: 'active' | 'paused' | 'ended';
  paused_reason: 'paused_by_user' | 'insufficient_credits' | 'gone' | null;
  ends_at: Date | null;
  ended_reason: 'end_date' | 'stay_passed' | null;
  credits_per_check: number;
  seq: number;
  next_check_at: Date;
  claimed_until: Date | null;
  claimed_by: string | null;
  failures: number;
  last_error: string | null;
  last_check_id: string | null;
  last_check_at: Date | null;
  periods_missed: number;
  /** Periods missed one after another (migration 036); failing_since: since when it counts as failing. */
  misses_in_row: number;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CheckRow {
  id: string;
  watch_id: string;
  period: number | null;
  trigger: 'schedule' | 'request';
  credits: number;
  currency: string | null;
  cheapest: number | null;
  observation: Observation;
  changes: Change[];
  fired: boolean;
  parity: Record<string, unknown> | null;
  run: Record<string, unknown> | null;
  created_at: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function findWatch(sql: Sql | Tx, accountId: string, id: string, lock = false): Promise<WatchRow> {
  // no id has a NUL, which PostgreSQL refuses in text (an error that would abort the caller's transaction)
  if (typeof id !== 'string' || id.length > 100 || id.includes('\u0000')) throw new NotFound('watch not found');
  const [row] = await sql`SELECT * FROM watches WHERE id = ${id} AND account_id = ${accountId} ${lock ? sql`FOR UPDATE` : sql``}`;
  if (!row) throw new NotFound('watch not found');
  return row as WatchRow;
}

/** The watch, locked until the caller's transaction ends (a check commits against it); null when deleted. */
export async function lockWatch(tx: Tx, id: string): Promise<WatchRow | null> {
  const [row] = await tx`SELECT * FROM watches WHERE id = ${id} FOR UPDATE`;
  return (row as WatchRow | undefined) ?? null;
}

/** What a queue entry's watch re-prices (its lease depends on it); null when deleted. */
export async function watchTarget(sql: Sql, id: string): Promise<Pick<WatchRow, 'operation' | 'target'> | null> {
  const [row] = await sql`SELECT operation, target FROM watches WHERE id = ${id}`;
  return (row as Pick<WatchRow, 'operation' | 'target'> | undefined) ?? null;
}

/** Active watches of the account (the plan's limit counts these). */
export async function activeWatches(sql: Sql | Tx, accountId: string): Promise<number> {
  const [r] = await sql`SELECT count(*)::int AS n FROM watches WHERE account_id = ${accountId} AND status = 'active'`;
  return r.n as number;
}

/** Serialises one account's watch creations and resumptions, so that its plan limit cannot be overrun. */
export async function lockAccountWatches(tx: Tx, accountId: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtext(${`watches|${accountId}`}))`;
}

export async function insertWatch(
  tx: Tx,
  w: Omit<
    WatchRow,
    | 'seq'
    | 'claimed_until'
    | 'claimed_by'
    | 'failures'
    | 'last_error'
    | 'last_check_id'
    | 'last_check_at'
    | 'periods_missed'
    | 'misses_in_row'
    | 'failing_since'
    | 'created_at'
    | 'updated_at'
    | 'status'
    | 'paused_reason'
    | 'ended_reason'
  >,
): Promise<WatchRow> {
  const [row] =
    await tx`INSERT INTO watches (id, account_id, key_id, name, operation, target, rule, every_hours, callback_url, credits_per_check, next_check_at, ends_at)
    VALUES (${w.id}, ${w.account_id}, ${w.key_id}, ${w.name}, ${w.operation}, ${tx.json(w.target as never)}, ${tx.json(w.rule)}, ${w.every_hours},
            ${w.callback_url}, ${w.credits_per_check}, ${w.next_check_at}, ${w.ends_at})
    RETURNING *`;
  return row as WatchRow;
}

export interface WatchChanges {
  name?: string | null;
  rule?: Rule;
  every_hours?: number;
  callback_url?: string | null;
  ends_at?: Date | null;
  status?: 'active' | 'paused';
  paused_reason?: WatchRow['paused_reason'];
  next_check_at?: Date;
  /** A new slot: the queued one (if any) no longer applies. */
  newSlot?: boolean;
}

export async function updateWatch(tx: Tx, id: string, c: WatchChanges): Promise<WatchRow> {
  const [row] = await tx`UPDATE watches SET
      name = ${c.name === undefined ? tx`name` : c.name},
      rule = ${c.rule === undefined ? tx`rule` : tx`${tx.json(c.rule)}::jsonb`},
      every_hours = ${c.every_hours ?? tx`every_hours`},
      callback_url = ${c.callback_url === undefined ? tx`callback_url` : c.callback_url},
      ends_at = ${c.ends_at === undefined ? tx`ends_at` : c.ends_at},
      status = ${c.status ?? tx`status`},
      paused_reason = ${c.paused_reason === undefined ? tx`paused_reason` : c.paused_reason},
      next_check_at = ${c.next_check_at ?? tx`next_check_at`},
      seq = seq + ${c.newSlot ? 1 : 0},
      claimed_until = ${c.newSlot ? null : tx`claimed_until`},
      claimed_by = ${c.newSlot ? null : tx`claimed_by`},
      failures = ${c.newSlot ? 0 : tx`failures`},
      updated_at = now()
    WHERE id = ${id} RETURNING *`;
  return row as WatchRow;
}

export async function deleteWatch(sql: Sql, accountId: string, id: string): Promise<void> {
  const gone = await sql`DELETE FROM watches WHERE id = ${id} AND account_id = ${accountId} RETURNING id`;
  if (!gone.length) throw new NotFound('watch not found');
}

export async function listWatches(sql: Sql | Tx, accountId: string, limit: number, offset = 0): Promise<WatchRow[]> {
  return (await sql`SELECT * FROM watches WHERE account_id = ${accountId}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`) as unknown as WatchRow[];
}

export async function recentChecks(sql: Sql | Tx, watchId: string, limit: number, offset = 0): Promise<CheckRow[]> {
  return (await sql`SELECT * FROM watch_checks WHERE watch_id = ${watchId}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`) as unknown as CheckRow[];
}

/** A check by its id (a parity range's check, settled when its batch finishes); null when gone with its watch. */
export async function checkById(tx: Tx, id: string): Promise<CheckRow | null> {
  const [row] = await tx`SELECT * FROM watch_checks WHERE id = ${id}`;
  return (row as CheckRow | undefined) ?? null;
}

/** Parity range checks still pending after `olderThanS` seconds (the sweep settles those whose batch finished). */
export async function pendingCheckIds(sql: Sql, olderThanS: number, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`SELECT id FROM watch_checks WHERE (observation->>'pending') IS NOT NULL
    AND created_at < now() - make_interval(secs => ${olderThanS}) ORDER BY created_at LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** The watch's latest check before `check` whose observation is settled (what a settling check is compared with). */
export async function previousSettledCheck(tx: Tx, check: CheckRow): Promise<CheckRow | null> {
  const [row] = await tx`SELECT * FROM watch_checks WHERE watch_id = ${check.watch_id} AND id <> ${check.id} AND created_at <= ${check.created_at}
      AND (observation->>'pending') IS NULL
    ORDER BY created_at DESC, id DESC LIMIT 1`;
  return (row as CheckRow | undefined) ?? null;
}

/** A pending check settled with what was seen; null when it was settled already (a replay of the batch's end). */
export async function settleCheck(
  tx: Tx,
  id: string,
  s: Pick<CheckRow, 'currency' | 'cheapest' | 'observation' | 'changes' | 'fired'>,
): Promise<CheckRow | null> {
  const [row] = await tx`UPDATE watch_checks SET currency = ${s.currency}, cheapest = ${s.cheapest}, observation = ${tx.json(s.observation as never)},
      changes = ${tx.json(s.changes)}, fired = ${s.fired}
    WHERE id = ${id} AND (observation->>'pending') IS NOT NULL RETURNING *`;
  return (row as CheckRow | undefined) ?? null;
}

export interface WatchTotals {
  checks: number;
  credits: number;
  events: number;
  /** The cheapest price of the last check ({key, total, currency, provenance}), or null. */
  last_price: Record<string, unknown> | null;
}

/** Totals of the watches' checks and events, for the list and the resource. */
export async function watchTotals(sql: Sql | Tx, ids: string[]): Promise<Map<string, WatchTotals>> {
  if (!ids.length) return new Map();
  const rows = await sql<({ id: string } & WatchTotals)[]>`
    SELECT w.id,
      (SELECT count(*)::int FROM watch_checks c WHERE c.watch_id = w.id) AS checks,
      (SELECT coalesce(sum(credits), 0)::int FROM watch_checks c WHERE c.watch_id = w.id) AS credits,
      ${eventCount(sql, sql`w.id`)} AS events,
      l.observation -> 'cheapest' AS last_price
    FROM watches w LEFT JOIN watch_checks l ON l.id = w.last_check_id
    WHERE w.id = ANY(${ids})`;
  return new Map(rows.map((r) => [r.id, { checks: r.checks, credits: r.credits, events: r.events, last_price: r.last_price ?? null }]));
}

export interface NewCheck {
  id: string;
  watch: WatchRow;
  period: number | null;
  credits: number;
  currency: string | null;
  cheapest: number | null;
  observation: unknown;
  changes: unknown[];
  fired: boolean;
  parity: unknown;
  run: unknown;
}

/** The check's row; a second commit of the same slot fails on UNIQUE (watch_id, period) and rolls its transaction back. */
export async function insertCheck(tx: Tx, c: NewCheck): Promise<CheckRow> {
  const [row] =
    await tx`INSERT INTO watch_checks (id, watch_id, account_id, period, trigger, credits, currency, cheapest, observation, changes, fired, parity, run)
    VALUES (${c.id}, ${c.watch.id}, ${c.watch.account_id}, ${c.period}, ${c.period === null ? 'request' : 'schedule'}, ${c.credits}, ${c.currency}, ${c.cheapest},
            ${tx.json(c.observation as never)}, ${tx.json(c.changes as never)}, ${c.fired}, ${c.parity === null ? null : tx.json(c.parity as never)}, ${c.run === null ? null : tx.json(c.run as never)})
    RETURNING *`;
  return row as CheckRow;
}

/** After a check committed: the watch's last check, and for a scheduled one the next slot. */
export async function afterCheck(tx: Tx, watch: WatchRow, check: CheckRow, next: { at: Date; missed: number } | null): Promise<WatchRow> {
  const [row] = await tx`UPDATE watches SET last_check_id = ${check.id}, last_check_at = ${check.created_at},
      ${next ? tx`seq = seq + 1, next_check_at = ${next.at}, periods_missed = periods_missed + ${next.missed}, claimed_until = NULL, claimed_by = NULL, failures = 0, last_error = NULL, misses_in_row = 0, failing_since = NULL,` : tx``}
      updated_at = now()
    WHERE id = ${watch.id} RETURNING *`;
  return row as WatchRow;
}

/**
 * Takes the watch's slot `seq` for one attempt until `leaseS` from now. 'taken': run it; 'gone':
 * the slot is no longer due (checked, paused, deleted); 'held': another worker holds it.
 */
export async function claimSlot(
  sql: Sql,
  watchId: string,
  seq: number,
  leaseS: number,
  holder: string,
): Promise<{ state: 'taken'; watch: WatchRow } | { state: 'gone' | 'held' }> {
  const [row] = await sql`UPDATE watches SET claimed_until = now() + make_interval(secs => ${leaseS}), claimed_by = ${holder}, updated_at = now()
    WHERE id = ${watchId} AND seq = ${seq} AND status = 'active' AND (claimed_until IS NULL OR claimed_until < now())
    RETURNING *`;
  if (row) return { state: 'taken', watch: row as WatchRow };
  const [w] = await sql`SELECT seq, status FROM watches WHERE id = ${watchId}`;
  return { state: w && w.seq === seq && w.status === 'active' ? 'held' : 'gone' };
}

/** A failed attempt of the slot: charged nothing; `retryAt` keeps the slot (a later attempt), null gives it up (a missed period). */
export async function slotFailed(
  tx: Tx,
  watchId: string,
  seq: number,
  error: string,
  next: { retry: boolean; at: Date; missed: number },
): Promise<WatchRow | null> {
  const [row] = await tx`UPDATE watches SET claimed_until = NULL, claimed_by = NULL, last_error = ${error}, updated_at = now(),
      ${next.retry ? tx`failures = failures + 1` : tx`failures = 0, seq = seq + 1, next_check_at = ${next.at}, periods_missed = periods_missed + ${next.missed}, misses_in_row = misses_in_row + ${next.missed}`}
    WHERE id = ${watchId} AND seq = ${seq} RETURNING *`;
  return (row as WatchRow | undefined) ?? null;
}

/**
 * The watch pauses, its slot given up: the account cannot pay a check (`insufficient_credits`, until
 * it can), or its target no longer exists upstream (`gone`, until the caller resumes it).
 */
export async function pauseUnpaid(
  tx: Tx | Sql,
  watchId: string,
  seq: number,
  detail: string,
  reason: 'insufficient_credits' | 'gone' = 'insufficient_credits',
): Promise<boolean> {
  const done = await tx`UPDATE watches SET status = 'paused', paused_reason = ${reason}, last_error = ${detail},
      seq = seq + 1, claimed_until = NULL, claimed_by = NULL, failures = 0, updated_at = now()
    WHERE id = ${watchId} AND seq = ${seq} AND status = 'active' RETURNING id`;
  return done.length > 0;
}

/** The watch counts as failing from now (once: null when it already did, or is gone). */
export async function markFailing(tx: Tx, watchId: string): Promise<WatchRow | null> {
  const [row] = await tx`UPDATE watches SET failing_since = now(), updated_at = now() WHERE id = ${watchId} AND failing_since IS NULL RETURNING *`;
  return (row as WatchRow | undefined) ?? null;
}

/** The watch is over (its end date, or its stay has passed): no more slots, for good. */
export async function endWatch(sql: Tx | Sql, watchId: string, seq: number, reason: NonNullable<WatchRow['ended_reason']>): Promise<boolean> {
  const done = await sql`UPDATE watches SET status = 'ended', ended_reason = ${reason}, seq = seq + 1, claimed_until = NULL, claimed_by = NULL,
      failures = 0, updated_at = now()
    WHERE id = ${watchId} AND seq = ${seq} AND status = 'active' RETURNING id`;
  return done.length > 0;
}

/** Active watches whose slot is overdue and held by nobody (their queue entry was lost): the sweep queues them again. */
export async function overdueWatches(
  sql: Sql,
  graceS: number,
  limit: number,
): Promise<Pick<WatchRow, 'id' | 'seq' | 'next_check_at' | 'operation' | 'target'>[]> {
  return await sql`SELECT id, seq, next_check_at, operation, target FROM watches
    WHERE status = 'active' AND next_check_at < now() - make_interval(secs => ${graceS}) AND (claimed_until IS NULL OR claimed_until < now())
    ORDER BY next_check_at LIMIT ${limit}`;
}

/** Locks a watch still paused for credits (a resumption); false when it no longer is. */
export async function lockUnpaid(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx`SELECT 1 FROM watches WHERE id = ${id} AND paused_reason = 'insufficient_credits' FOR UPDATE`;
  return rows.length > 0;
}

/** Watches paused for credits, with their account's plan. */
export async function unpaidWatches(sql: Sql, limit: number): Promise<(WatchRow & { plan: string })[]> {
  return await sql`SELECT w.*, a.plan FROM watches w JOIN LATERAL ${accountOf(sql, sql`w.account_id`)} a ON true
    WHERE w.paused_reason = 'insufficient_credits' ORDER BY w.updated_at LIMIT ${limit}`;
}

/** Accounts that had a watch during [from, to) and have no digest of `period` yet. */
export async function accountsWithoutDigest(sql: Sql, period: number, from: Date, to: Date, limit: number): Promise<string[]> {
  const rows = await sql`SELECT DISTINCT w.account_id FROM watches w
    WHERE w.created_at < ${to} AND (w.status <> 'ended' OR w.updated_at >= ${from})
      AND NOT ${digestExists(sql, sql`w.account_id`, period)}
    LIMIT ${limit}`;
  return rows.map((r) => r.account_id as string);
}

/** One watch as a digest tells it: its checks, what they saw first and last, its events in [from, to). */
export interface DigestFacts {
  watch: WatchRow;
  checks: number;
  credits: number;
  first: CheckRow | null;
  last: CheckRow | null;
  events: Pick<EventRow, 'id' | 'type' | 'created_at' | 'payload'>[];
}

/**
 * The account's watches over [from, to) as digests tell them, grouped by callback URL (null: the
 * watches without one): each group its watches (at most `limit`) and how many it has.
 */
export async function digestFacts(
  sql: Sql,
  accountId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<{ callbackUrl: string | null; facts: DigestFacts[]; total: number }[]> {
  const watches = (await sql`SELECT * FROM watches WHERE account_id = ${accountId} AND created_at < ${to} AND (status <> 'ended' OR updated_at >= ${from})
    ORDER BY created_at DESC, id DESC`) as unknown as WatchRow[];
  const groups = new Map<string | null, WatchRow[]>();
  for (const w of watches) groups.set(w.callback_url, [...(groups.get(w.callback_url) ?? []), w]);
  const shown = [...groups.values()].flatMap((g) => g.slice(0, limit));
  const ids = shown.map((w) => w.id);
  const checks = (await sql`SELECT * FROM watch_checks WHERE watch_id = ANY(${ids}) AND created_at >= ${from} AND created_at < ${to}
    ORDER BY created_at, id`) as unknown as CheckRow[];
  const events = await eventsBetween(sql, ids, from, to);
  const factsOf = (watch: WatchRow): DigestFacts => {
    const mine = checks.filter((c) => c.watch_id === watch.id);
    return {
      watch,
      checks: mine.length,
      credits: mine.reduce((s, c) => s + c.credits, 0),
      first: mine[0] ?? null,
      last: mine[mine.length - 1] ?? null,
      events: events.filter((e) => e.watch_id === watch.id),
    };
  };
  return [...groups].map(([callbackUrl, group]) => ({ callbackUrl, facts: group.slice(0, limit).map(factsOf), total: group.length }));
}

export const isoOrNull = iso;
