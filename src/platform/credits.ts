import type { Db, PendingStatement, Sql } from '../db/client.js';
import { insertHistoryFrom, type CallHistory } from './history.js';
import { Limited, PaymentRequired } from '../domain/errors.js';
import { planOf } from './plans.js';

/*
 * The owner of the credit tables (credit_periods, credit_ledger, credit_reservations) and the one
 * money path: `settle` is the only statement that charges, writes the ledger, releases reservations
 * and records calls. Every call (REST, MCP, an MCP task) and every batch item settles through it,
 * alone in its caller's transaction or with concurrent calls (CallWriter's group commit).
 */

export interface Period {
  start: Date;
  end: Date;
}

/** Credits are granted per calendar month (UTC) and renew on the first day of the next. */
function periodAt(now: Date): Period {
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

/** A finished call, or a batch item, as the money path writes it. */
export interface Settlement {
  /** The call's request id (a batch item's id): its history row's id, its ledger entry's request_id, its reservation's id. */
  id: string;
  /** The account that owns the history row and pays the charge. */
  accountId: string;
  /** The call's history row; null for what is not a call of its own (a batch item). */
  history: CallHistory | null;
  /** What it costs, in its account's open period (Credits.ensurePeriod); null when it is not metered. */
  charge: SettledCharge | null;
}

interface SettledCharge {
  periodStart: Date;
  amount: number;
  note: string;
  /**
   * Charge only when the period's balance covers it (nothing is charged otherwise and the settlement
   * answers null), so items finishing side by side can never take the balance below zero.
   */
  requireFunds?: boolean;
}

/** One row of the settlement's recordset, as json_to_recordset reads it: absent fields are null. */
interface SettlementRow extends Partial<CallHistory> {
  id: string;
  account_id: string;
  period_start?: Date;
  amount?: number;
  note?: string;
  require_funds?: true;
}

function settlementRow({ id, accountId, history: h, charge: c }: Settlement): SettlementRow {
  const row: SettlementRow = { id, account_id: accountId };
  if (h) {
    row.key_id = h.key_id;
    row.method = h.method;
    row.path = h.path;
    row.status = h.status;
    row.duration_ms = h.duration_ms;
    row.response_bytes = h.response_bytes;
    row.credits = h.credits;
    row.rate_limited = h.rate_limited;
    if (h.cache_hit) row.cache_hit = true;
  }
  if (c) {
    row.period_start = c.periodStart;
    row.amount = c.amount;
    row.note = c.note;
    if (c.requireFunds) row.require_funds = true;
  }
  return row;
}

/**
 * Writes settlements in one statement: each one's reservation is released, its charge added to its
 * period's total with its ledger row (a charge of 0 writes no ledger row), and its history row
 * written. `db` is the pool or the caller's transaction (the settlement then commits with the rest
 * of its work, e.g. an MCP task's result). The rows travel as one JSON array (one serialisation,
 * not one array per column). Answers, per settlement, the credits left in its period after the
 * charge; null when it has no charge, or when `requireFunds` refused it.
 */
export async function settle(db: Db, items: Settlement[]): Promise<(number | null)[]> {
  return creditsLeft(items, await settlementStatement(db, items));
}

/** What each settlement's period has left after the charge, from the rows settlementStatement answers. */
export function creditsLeft(items: Settlement[], left: PeriodLeft[]): (number | null)[] {
  const remaining = new Map(left.map((r) => [`${r.account_id} ${new Date(r.period_start).getTime()}`, r.remaining]));
  return items.map(({ accountId, charge }) => (charge ? (remaining.get(`${accountId} ${charge.periodStart.getTime()}`) ?? null) : null));
}

export interface PeriodLeft {
  account_id: string;
  period_start: Date;
  remaining: number;
}

/** settle's statement, built but not sent (sendTransaction sends it with others in one write). */
export function settlementStatement(db: Db, items: Settlement[]): PendingStatement<PeriodLeft[]> {
  const rows = items.map(settlementRow);
  return db<PeriodLeft[]>`
    WITH c AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS c(
        id text, account_id text, key_id text, method text, path text, status int, duration_ms float8, response_bytes int,
        credits int, rate_limited bool, cache_hit bool, period_start timestamptz, amount int, note text, require_funds bool)),
    r AS (DELETE FROM credit_reservations WHERE request_id IN (SELECT id FROM c)),
    p AS (
      UPDATE credit_periods cp SET used = cp.used + s.total
      FROM (SELECT account_id, period_start, sum(amount)::int AS total, coalesce(bool_or(require_funds), false) AS require_funds
            FROM c WHERE period_start IS NOT NULL GROUP BY 1, 2) s
      WHERE cp.account_id = s.account_id AND cp.period_start = s.period_start
        AND (NOT s.require_funds OR cp.granted - cp.used >= s.total)
      RETURNING cp.account_id, cp.period_start, cp.granted - cp.used AS remaining),
    l AS (
      INSERT INTO credit_ledger (account_id, period_start, kind, amount, request_id, note)
      SELECT c.account_id, c.period_start, 'charge', -c.amount, c.id, c.note
      FROM c JOIN p ON p.account_id = c.account_id AND p.period_start = c.period_start WHERE c.amount > 0),
    h AS (${insertHistoryFrom(db, db`c`)})
    SELECT account_id, period_start, remaining FROM p`;
}

// Reservations outlive a crashed request for at most this long.
const RESERVATION_TTL_S = 15 * 60;

export interface LedgerEntry {
  id: string;
  kind: 'grant' | 'charge' | 'adjustment';
  amount: number;
  request_id: string | null;
  note: string | null;
  period_start: Date;
  created_at: Date;
}

/** Ledger and balances. Every write goes through the append-only ledger; the period row is its running total. */
export class Credits {
  /** Periods known open, by account and start: the common case answers without waiting on anything. */
  private readonly open = new Set<string>();
  /** Periods being opened: concurrent first calls of an account wait on one statement. */
  private readonly opening = new Map<string, Promise<void>>();

  constructor(private readonly sql: Sql) {}

  /** Opens the current period with its plan grant (once, whatever the concurrency). */
  async ensurePeriod(accountId: string, plan: string, now = new Date()): Promise<Period> {
    const period = periodAt(now);
    const cacheKey = `${accountId}:${period.start.getTime()}`;
    if (this.open.has(cacheKey)) return period;
    let opening = this.opening.get(cacheKey);
    if (!opening) {
      opening = this.openPeriod(accountId, plan, period).then(() => void this.open.add(cacheKey));
      this.opening.set(cacheKey, opening);
      void opening.then(
        () => this.opening.delete(cacheKey),
        () => this.opening.delete(cacheKey),
      );
    }
    await opening;
    return period;
  }

  private async openPeriod(accountId: string, plan: string, period: Period): Promise<void> {
    const grant = planOf(plan).monthly_credits;
    await this.sql`
      WITH p AS (
        INSERT INTO credit_periods (account_id, period_start, period_end, granted)
        VALUES (${accountId}, ${period.start}, ${period.end}, ${grant})
        ON CONFLICT DO NOTHING RETURNING account_id)
      INSERT INTO credit_ledger (account_id, period_start, kind, amount, note)
      SELECT account_id, ${period.start}, 'grant', ${grant}, ${`${plan} plan monthly grant`} FROM p`;
  }

  async balance(accountId: string, plan: string): Promise<Balance> {
    const period = await this.ensurePeriod(accountId, plan);
    const [row] = await this.sql<{ granted: number; used: number; reserved: number }[]>`
      SELECT p.granted, p.used,
        (SELECT coalesce(sum(amount), 0) FROM credit_reservations r
          WHERE r.account_id = p.account_id AND r.expires_at > now()) AS reserved
      FROM credit_periods p WHERE p.account_id = ${accountId} AND p.period_start = ${period.start}`;
    return { period, granted: row.granted, used: row.used, reserved: row.reserved, remaining: row.granted - row.used };
  }

  async remaining(accountId: string, plan: string): Promise<number> {
    const period = await this.ensurePeriod(accountId, plan);
    const [row] = await this.sql<{ remaining: number }[]>`
      SELECT granted - used AS remaining FROM credit_periods
      WHERE account_id = ${accountId} AND period_start = ${period.start}`;
    return row.remaining;
  }

  /** A manual adjustment (positive adds credits). */
  async adjust(accountId: string, plan: string, amount: number, note: string): Promise<number> {
    const period = await this.ensurePeriod(accountId, plan);
    const [row] = await this.sql<{ remaining: number }[]>`
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
      const [row] = await tx<{ remaining: number }[]>`
        SELECT granted - used AS remaining FROM credit_periods
        WHERE account_id = ${accountId} AND period_start = ${period.start} FOR UPDATE`;
      const [held] = await tx<{ n: number; amount: number }[]>`
        SELECT count(*)::int AS n, coalesce(sum(amount), 0)::int AS amount FROM credit_reservations
        WHERE account_id = ${accountId} AND expires_at > now()`;
      if (held.n >= p.concurrency) throw new Limited(`concurrency limit ${p.concurrency} reached for the ${p.code} plan`);
      const available = row.remaining - held.amount;
      if (available < amount) {
        const renew = period.end.toISOString().slice(0, 10);
        throw new PaymentRequired(`insufficient credits: this request costs ${amount}, ${Math.max(0, available)} available. Credits renew ${renew}.`);
      }
      await tx`INSERT INTO credit_reservations (request_id, account_id, amount, expires_at)
        VALUES (${requestId}, ${accountId}, ${amount}, now() + make_interval(secs => ${RESERVATION_TTL_S}))`;
    });
  }

  /** Gives a reservation back without settling (the handler failed before any outcome; a task's earlier run died). */
  async release(requestId: string): Promise<void> {
    await this.sql`DELETE FROM credit_reservations WHERE request_id = ${requestId}`;
  }

  /**
   * The account's entries, newest first. Callers see each entry's random public id (the internal
   * sequence would count every account's charges); `before` is the public id of the last entry of
   * the previous page, and null comes back when it is not one of this account's entries.
   */
  async ledger(accountId: string, opts: { limit: number; before?: string }): Promise<LedgerEntry[] | null> {
    let beforeSeq: string | null = null;
    if (opts.before !== undefined) {
      const [row] = await this.sql<{ id: number }[]>`SELECT id FROM credit_ledger WHERE public_id = ${opts.before} AND account_id = ${accountId}`;
      if (!row) return null;
      beforeSeq = String(row.id);
    }
    // ordered by the internal sequence (l.id), shown by the public id
    return this.sql<LedgerEntry[]>`
      SELECT l.public_id AS id, l.kind, l.amount, l.request_id, l.note, l.period_start, l.created_at FROM credit_ledger l
      WHERE l.account_id = ${accountId} ${beforeSeq ? this.sql`AND l.id < ${beforeSeq}` : this.sql``}
      ORDER BY l.id DESC LIMIT ${opts.limit}`;
  }
}
