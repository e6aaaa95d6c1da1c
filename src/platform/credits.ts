import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/client.js';
import { historyInsert, type HistoryRecord } from './history.js';
import { Limited, PaymentRequired } from '../domain/errors.js';
import { planOf } from './plans.js';

export interface Period {
  start: Date;
  end: Date;
}

/** Credits are granted per calendar month (UTC) and renew on the first day of the next. */
export function periodAt(now: Date): Period {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export interface Balance {
  period: Period;
  granted: number;
  used: number;
  reserved: number;
  remaining: number;
}

export interface Charge {
  accountId: string;
  plan: string;
  /** The request (or batch item) charged; one charge per id. */
  requestId: string;
  amount: number;
  note: string;
}

// Reservations outlive a crashed request for at most this long.
const RESERVATION_TTL_S = 15 * 60;

/** Ledger and balances. Every write goes through the append-only ledger; the period row is its running total. */
export class Credits {
  private readonly granted = new Map<string, number>();

  constructor(private readonly sql: Sql) {}

  /** Opens the current period with its plan grant (once, whatever the concurrency). */
  async ensurePeriod(accountId: string, plan: string, now = new Date()): Promise<Period> {
    const period = periodAt(now);
    const cacheKey = `${accountId}:${period.start.toISOString()}`;
    if (this.granted.has(cacheKey)) return period;
    const grant = planOf(plan).monthly_credits;
    await this.sql`
      WITH p AS (
        INSERT INTO credit_periods (account_id, period_start, period_end, granted)
        VALUES (${accountId}, ${period.start}, ${period.end}, ${grant})
        ON CONFLICT DO NOTHING RETURNING account_id)
      INSERT INTO credit_ledger (account_id, period_start, kind, amount, note)
      SELECT account_id, ${period.start}, 'grant', ${grant}, ${`${plan} plan monthly grant`} FROM p`;
    this.granted.set(cacheKey, grant);
    return period;
  }

  async balance(accountId: string, plan: string): Promise<Balance> {
    const period = await this.ensurePeriod(accountId, plan);
    const [row] = await this.sql`
      SELECT p.granted, p.used,
        (SELECT coalesce(sum(amount), 0) FROM credit_reservations r
          WHERE r.account_id = p.account_id AND r.expires_at > now()) AS reserved
      FROM credit_periods p WHERE p.account_id = ${accountId} AND p.period_start = ${period.start}`;
    return { period, granted: row.granted, used: row.used, reserved: row.reserved, remaining: row.granted - row.used };
  }

  /**
   * Writes a call's outcome in one statement: its charge (if any) with the period total,
   * the release of its reservation (when enforced) and its history row. Returns the
   * credits left in the period. `sql`: the caller's transaction, when the outcome commits with more
   * (an MCP task's result).
   */
  async settleCall(c: Charge, history: HistoryRecord, sql: Sql | TransactionSql = this.sql): Promise<number> {
    return (await this.#charge(sql as Sql, c, history)) as number;
  }

  /**
   * A charge written inside the caller's transaction (batch items commit their result and charge
   * together). With `requireFunds` nothing is written and null is returned when the balance does
   * not cover it, so concurrent items can never take the balance below zero.
   */
  async chargeIn(tx: TransactionSql, c: Charge, requireFunds = false): Promise<number | null> {
    return this.#charge(tx as unknown as Sql, c, null, requireFunds);
  }

  async #charge(sql: Sql, c: Charge, history: HistoryRecord | null, requireFunds = false): Promise<number | null> {
    const period = await this.ensurePeriod(c.accountId, c.plan);
    // The ledger row is written from the period update, so a refused charge writes neither.
    const [row] = await sql`
      WITH r AS (DELETE FROM credit_reservations WHERE request_id = ${c.requestId}),
      p AS (
        UPDATE credit_periods SET used = used + ${c.amount}
        WHERE account_id = ${c.accountId} AND period_start = ${period.start}
          ${requireFunds ? sql`AND granted - used >= ${c.amount}` : sql``}
        RETURNING granted - used AS remaining),
      l AS (
        INSERT INTO credit_ledger (account_id, period_start, kind, amount, request_id, note)
        SELECT ${c.accountId}, ${period.start}, 'charge', ${-c.amount}, ${c.requestId}, ${c.note} FROM p WHERE ${c.amount}::int > 0)
      ${history ? sql`, h AS (${historyInsert(sql, history)})` : sql``}
      SELECT remaining FROM p`;
    return row ? row.remaining : null;
  }

  async remaining(accountId: string, plan: string): Promise<number> {
    const period = await this.ensurePeriod(accountId, plan);
    const [row] = await this.sql`
      SELECT granted - used AS remaining FROM credit_periods
      WHERE account_id = ${accountId} AND period_start = ${period.start}`;
    return row.remaining;
  }

  /** A manual adjustment (positive adds credits). */
  async adjust(accountId: string, plan: string, amount: number, note: string): Promise<number> {
    const period = await this.ensurePeriod(accountId, plan);
    const [row] = await this.sql`
      WITH l AS (
        INSERT INTO credit_ledger (account_id, period_start, kind, amount, note)
        VALUES (${accountId}, ${period.start}, 'adjustment', ${amount}, ${note})),
      p AS (
        UPDATE credit_periods SET granted = granted + ${amount}
        WHERE account_id = ${accountId} AND period_start = ${period.start}
        RETURNING granted - used AS remaining)
      SELECT remaining FROM p`;
    return row.remaining;
  }

  /**
   * Enforcement: holds the request's maximum cost and a concurrency slot. The period row
   * lock serialises one account's reservations, so the balance can never go negative.
   */
  async reserve(accountId: string, plan: string, requestId: string, amount: number): Promise<void> {
    const period = await this.ensurePeriod(accountId, plan);
    const p = planOf(plan);
    await this.sql.begin(async (tx) => {
      const [row] = await tx`
        SELECT granted - used AS remaining FROM credit_periods
        WHERE account_id = ${accountId} AND period_start = ${period.start} FOR UPDATE`;
      const [held] = await tx`
        SELECT count(*)::int AS n, coalesce(sum(amount), 0)::int AS amount FROM credit_reservations
        WHERE account_id = ${accountId} AND expires_at > now()`;
      if (held.n >= p.concurrency) throw new Limited(`concurrency limit ${p.concurrency} reached for the ${p.code} plan`);
      const available = row.remaining - held.amount;
      if (available < amount) {
        const renew = period.end.toISOString().slice(0, 10);
        throw new PaymentRequired(
          `insufficient credits: this request costs ${amount}, ${Math.max(0, available)} available. Credits renew ${renew}.`,
        );
      }
      await tx`INSERT INTO credit_reservations (request_id, account_id, amount, expires_at)
        VALUES (${requestId}, ${accountId}, ${amount}, now() + make_interval(secs => ${RESERVATION_TTL_S}))`;
    });
  }

  async release(requestId: string): Promise<void> {
    await this.sql`DELETE FROM credit_reservations WHERE request_id = ${requestId}`;
  }

  /**
   * The account's entries, newest first. Callers see each entry's random public id (the internal
   * sequence would count every account's charges); `before` is the public id of the last entry of
   * the previous page, and null comes back when it is not one of this account's entries.
   */
  async ledger(accountId: string, opts: { limit: number; before?: string }) {
    let beforeSeq: string | null = null;
    if (opts.before !== undefined) {
      const [row] = await this.sql`SELECT id FROM credit_ledger WHERE public_id = ${opts.before} AND account_id = ${accountId}`;
      if (!row) return null;
      beforeSeq = String(row.id);
    }
    // ordered by the internal sequence (l.id), shown by the public id
    return this.sql`
      SELECT l.public_id AS id, l.kind, l.amount, l.request_id, l.note, l.period_start, l.created_at FROM credit_ledger l
      WHERE l.account_id = ${accountId} ${beforeSeq ? this.sql`AND l.id < ${beforeSeq}` : this.sql``}
      ORDER BY l.id DESC LIMIT ${opts.limit}`;
  }
}
