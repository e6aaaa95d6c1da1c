import type { TransactionSql } from 'postgres';
import type { NormalizedCalendarRequest } from '../domain/calendar-request.js';
import type { CalendarResult } from './calendar-service.js';

export interface RunSummary {
  run_id: string;
  rows_written: number;
  rows_changed: number;
  rows_removed: number;
}

/** A job's run id is derived from the job, so every item and every replay agrees on it. */
export function runIdForJob(jobId: string): string {
  return `scraperun_${jobId.slice(jobId.indexOf('_') + 1)}`;
}

/**
 * Writes a collection into the stored rates: new nights are written, nights whose rate
 * changed are replaced, nights that no longer price are removed. Runs inside the caller's
 * transaction; an item replayed after a crash finds its run already there and writes nothing.
 */
export async function storeCalendarRates(
  tx: TransactionSql,
  r: NormalizedCalendarRequest,
  result: CalendarResult,
  ids: { runId: string; collectionKey: string },
): Promise<RunSummary> {
  const [prior] = await tx`SELECT run_id, rows_written, rows_changed, rows_removed FROM scrape_runs WHERE collection_key = ${ids.collectionKey}`;
  if (prior) return { run_id: prior.run_id, rows_written: prior.rows_written, rows_changed: prior.rows_changed, rows_removed: prior.rows_removed };
  const runId = ids.runId;
  const scope = tx`token = ${r.token} AND market = ${r.market} AND currency = ${r.currency} AND adults = ${r.adults} AND los = ${r.los}`;
  const existing = await tx`SELECT stay_date::text AS d, rate_total FROM stored_rates WHERE ${scope}
    AND stay_date >= ${r.start}::date AND stay_date < ${r.start}::date + ${r.days}::int`;
  const before = new Map(existing.map((e) => [e.d as string, e.rate_total as number | null]));
  let written = 0;
  let changed = 0;
  for (const rate of result.rates) {
    const total = typeof rate.rate_total === 'number' ? rate.rate_total : null;
    if (!before.has(rate.date)) written++;
    else if (before.get(rate.date) !== total) changed++;
    else continue;
    await tx`INSERT INTO stored_rates (token, market, currency, adults, los, stay_date, rate_total, rate, observation_id, collection_id, run_id, observed_at)
      VALUES (${r.token}, ${r.market}, ${r.currency}, ${r.adults}, ${r.los}, ${rate.date}, ${total}, ${tx.json(rate as never)},
              ${rate.provenance.observation_id}, ${result.collection_id}, ${runId}, ${result.observed_at})
      ON CONFLICT (token, market, currency, adults, los, stay_date) DO UPDATE SET
        rate_total = excluded.rate_total, rate = excluded.rate, observation_id = excluded.observation_id,
        collection_id = excluded.collection_id, run_id = excluded.run_id, observed_at = excluded.observed_at`;
  }
  const priced = new Set(result.rates.map((x) => x.date));
  const gone = [...before.keys()].filter((d) => !priced.has(d));
  if (gone.length) await tx`DELETE FROM stored_rates WHERE ${scope} AND stay_date = ANY(${gone}::date[])`;
  await tx`INSERT INTO scrape_runs (collection_key, run_id, token, collection_id, rows_written, rows_changed, rows_removed)
    VALUES (${ids.collectionKey}, ${runId}, ${r.token}, ${result.collection_id}, ${written}, ${changed}, ${gone.length})`;
  return { run_id: runId, rows_written: written, rows_changed: changed, rows_removed: gone.length };
}
