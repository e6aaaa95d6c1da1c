import type { Sql } from '../db/client.js';
import type { Charge, Credits } from './credits.js';
import { GroupCommit } from './group-commit.js';
import type { HistoryRecord } from './history.js';

export interface CallOutcome {
  history: HistoryRecord;
  /** The call's charge (settles its reservation too); null for a call that is not metered. */
  charge: Charge | null;
}

interface Pending extends CallOutcome {
  periodStart: Date | null;
}

/**
 * Writes each call's outcome (its history row and, when metered, its charge, ledger row and the
 * release of its reservation) before its answer leaves. Concurrent calls share one statement
 * (group commit); each resolves with the credits left in its period (null when not metered).
 */
export class CallWriter {
  private readonly group: GroupCommit<Pending, number | null>;

  constructor(
    private readonly sql: Sql,
    private readonly credits: Credits,
  ) {
    this.group = new GroupCommit((items) => this.writeMany(items));
  }

  async write(outcome: CallOutcome): Promise<number | null> {
    const periodStart = outcome.charge ? (await this.credits.ensurePeriod(outcome.charge.accountId, outcome.charge.plan)).start : null;
    return this.group.submit({ ...outcome, periodStart });
  }

  /** One statement for the whole batch; its rows travel as one JSON array (one serialisation, not one array per column). */
  private async writeMany(items: Pending[]): Promise<(number | null)[]> {
    const rows = items.map(({ history: h, charge: c, periodStart }) => ({
      ...h,
      account_id: c?.accountId ?? null,
      period_start: periodStart,
      amount: c?.amount ?? 0,
      note: c?.note ?? null,
    }));
    const left = await this.sql<{ account_id: string; period_start: Date; remaining: number }[]>`
      WITH c AS (
        SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS c(
          id text, key_id text, method text, path text, status int, duration_ms float8, response_bytes int, credits int,
          rate_limited bool, cache_hit bool, account_id text, period_start timestamptz, amount int, note text)),
      r AS (DELETE FROM credit_reservations WHERE request_id IN (SELECT id FROM c WHERE account_id IS NOT NULL)),
      p AS (
        UPDATE credit_periods cp SET used = cp.used + s.total
        FROM (SELECT account_id, period_start, sum(amount)::int AS total FROM c WHERE account_id IS NOT NULL GROUP BY 1, 2) s
        WHERE cp.account_id = s.account_id AND cp.period_start = s.period_start
        RETURNING cp.account_id, cp.period_start, cp.granted - cp.used AS remaining),
      l AS (
        INSERT INTO credit_ledger (account_id, period_start, kind, amount, request_id, note)
        SELECT c.account_id, c.period_start, 'charge', -c.amount, c.id, c.note
        FROM c JOIN p ON p.account_id = c.account_id AND p.period_start = c.period_start WHERE c.amount > 0),
      h AS (
        INSERT INTO request_history (id, key_id, account_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, cache_hit)
        SELECT c.id, k.id, k.account_id, c.method, c.path, c.status, c.duration_ms, c.response_bytes, c.credits, c.rate_limited, coalesce(c.cache_hit, false)
        FROM c JOIN api_keys k ON k.id = c.key_id
        ON CONFLICT (id) DO NOTHING)
      SELECT account_id, period_start, remaining FROM p`;
    const remaining = new Map(left.map((r) => [`${r.account_id} ${new Date(r.period_start).getTime()}`, r.remaining]));
    return items.map((i) => (i.charge ? (remaining.get(`${i.charge.accountId} ${i.periodStart!.getTime()}`) ?? null) : null));
  }
}
