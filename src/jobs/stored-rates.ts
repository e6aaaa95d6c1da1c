import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/client.js';
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
  tx: TransactionSql | Sql,
  r: NormalizedCalendarRequest,
  result: CalendarResult,
  ids: { runId: string; collectionKey: string },
): Promise<RunSummary> {
  const [prior] = await tx`SELECT run_id, rows_written, rows_changed, rows_removed FROM scrape_runs WHERE collection_key = ${ids.collectionKey}`;
  if (prior) return { run_id: prior.run_id, rows_written: prior.rows_written, rows_changed: prior.rows_changed, rows_removed: prior.rows_removed };
  const incoming = result.rates.map((rate) => ({
    stay_date: rate.date,
    rate_total: typeof rate.rate_total === 'number' ? rate.rate_total : null,
    rate,
    observation_id: rate.provenance.observation_id,
  }));
  const scope = tx`s.token = ${r.token} AND s.market = ${r.market} AND s.currency = ${r.currency} AND s.adults = ${r.adults} AND s.los = ${r.los}
    AND s.stay_date >= ${r.start}::date AND s.stay_date < ${r.start}::date + ${r.days}::int`;
  // One statement: unchanged nights are left alone (their observation keeps its id), changed
  // ones replaced, new ones written, nights no longer priced removed, and the run recorded.
  const [run] = await tx`
    WITH incoming AS (
      SELECT * FROM jsonb_to_recordset(${tx.json(incoming as never)}::jsonb)
        AS x(stay_date date, rate_total numeric, rate jsonb, observation_id text)),
    prior AS (SELECT s.stay_date, s.rate_total FROM stored_rates s WHERE ${scope}),
    upserted AS (
      INSERT INTO stored_rates AS t (token, market, currency, adults, los, stay_date, rate_total, rate, observation_id, collection_id, run_id, observed_at)
      SELECT ${r.token}, ${r.market}, ${r.currency}, ${r.adults}, ${r.los}, i.stay_date, i.rate_total, i.rate, i.observation_id,
             ${result.collection_id}, ${ids.runId}, ${result.observed_at}
      FROM incoming i
      WHERE NOT EXISTS (SELECT 1 FROM prior p WHERE p.stay_date = i.stay_date AND p.rate_total IS NOT DISTINCT FROM i.rate_total)
      ON CONFLICT (token, market, currency, adults, los, stay_date) DO UPDATE SET
        rate_total = excluded.rate_total, rate = excluded.rate, observation_id = excluded.observation_id,
        collection_id = excluded.collection_id, run_id = excluded.run_id, observed_at = excluded.observed_at
      RETURNING (xmax = 0) AS inserted),
    removed AS (
      DELETE FROM stored_rates s WHERE ${scope} AND NOT EXISTS (SELECT 1 FROM incoming i WHERE i.stay_date = s.stay_date)
      RETURNING 1)
    INSERT INTO scrape_runs (collection_key, run_id, token, collection_id, rows_written, rows_changed, rows_removed)
    VALUES (${ids.collectionKey}, ${ids.runId}, ${r.token}, ${result.collection_id},
      (SELECT count(*) FROM upserted WHERE inserted), (SELECT count(*) FROM upserted WHERE NOT inserted), (SELECT count(*) FROM removed))
    RETURNING run_id, rows_written, rows_changed, rows_removed`;
  return { run_id: run.run_id, rows_written: run.rows_written, rows_changed: run.rows_changed, rows_removed: run.rows_removed };
}
