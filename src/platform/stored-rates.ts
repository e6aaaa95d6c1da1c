/*
 * The owner of stored_rates and scrape_runs: the one module that writes and reads stored rates and
 * collection runs (the calendar tools and the batch worker both call it). Every row belongs to an
 * account; every read is of one account.
 */

import type { Db, PendingStatement } from '../db/client.js';
import type { NormalizedCalendarRequest } from '../domain/calendar-request.js';
import type { CalendarResult } from '../domain/calendar-result.js';

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
 * Writes a collection into the account's stored rates: new nights are written, nights whose rate
 * changed are replaced, nights that no longer price are removed. Runs inside the caller's
 * transaction; an item replayed after a crash finds its run already there and writes nothing.
 *
 * One bulk statement whatever the number of nights: the nights travel as column arrays (dates,
 * totals, observation ids) zipped by `ROWS FROM (unnest …)` with one JSON array of the rows; our
 * side serialises the rows once and copies nothing per night but three small arrays, PostgreSQL
 * checks the JSON once and stores each row's text as it came (`rate` is json, never parsed into
 * jsonb: nothing reads inside it). An array of JSON texts would cost more: every quote of every
 * row escaped for the array literal, then unescaped.
 */
export async function storeCalendarRates(
  tx: Db,
  accountId: string,
  r: NormalizedCalendarRequest,
  result: CalendarResult,
  ids: { runId: string; collectionKey: string },
): Promise<RunSummary> {
  const [run] = await calendarRatesStatement(tx, accountId, r, result, ids);
  return { run_id: run.run_id, rows_written: run.rows_written, rows_changed: run.rows_changed, rows_removed: run.rows_removed };
}

/** storeCalendarRates' statement, built and not sent (a calendar call sends it with its own record: ToolContext.commitWithCall). */
export function calendarRatesStatement(
  tx: Db,
  accountId: string,
  r: NormalizedCalendarRequest,
  result: CalendarResult,
  ids: { runId: string; collectionKey: string },
): PendingStatement<RunSummary[]> {
  const { rates } = result;
  // as text: typed date[], each element would go through new Date() and back to a string
  const dates = rates.map((rate) => rate.date);
  const totals = rates.map((rate) => (typeof rate.rate_total === 'number' ? rate.rate_total : null));
  const observations = rates.map((rate) => rate.provenance.observation_id);
  const scope = tx`s.account_id = ${accountId} AND s.token = ${r.token} AND s.market = ${r.market} AND s.currency = ${r.currency} AND s.adults = ${r.adults} AND s.los = ${r.los}
    AND s.stay_date >= ${r.start}::date AND s.stay_date < ${r.start}::date + ${r.days}::int`;
  // One statement: unchanged nights are left alone (their observation keeps its id), changed
  // ones replaced, new ones written, nights no longer priced removed, and the run recorded; when
  // the run is already there (an item replayed after a crash) nothing is written and it is returned.
  return tx<RunSummary[]>`
    WITH done AS (
      SELECT run_id, rows_written, rows_changed, rows_removed FROM scrape_runs
      WHERE collection_key = ${ids.collectionKey} AND account_id = ${accountId}),
    incoming AS (
      SELECT x.stay_date::date, x.rate_total, x.observation_id, x.rate
      FROM ROWS FROM (unnest(${dates}::text[]), unnest(${totals as never}::numeric[]), unnest(${observations}::text[]), json_array_elements(${JSON.stringify(rates)}::json))
        AS x(stay_date, rate_total, observation_id, rate)
      WHERE NOT EXISTS (SELECT 1 FROM done)),
    prior AS (SELECT s.stay_date, s.rate_total FROM stored_rates s WHERE ${scope}),
    upserted AS (
      INSERT INTO stored_rates AS t (account_id, token, market, currency, adults, los, stay_date, rate_total, rate, observation_id, collection_id, run_id, observed_at)
      SELECT ${accountId}, ${r.token}, ${r.market}, ${r.currency}, ${r.adults}, ${r.los}, i.stay_date, i.rate_total, i.rate, i.observation_id,
             ${result.collection_id}, ${ids.runId}, ${result.observed_at}
      FROM incoming i
      WHERE NOT EXISTS (SELECT 1 FROM prior p WHERE p.stay_date = i.stay_date AND p.rate_total IS NOT DISTINCT FROM i.rate_total)
      ON CONFLICT (account_id, token, market, currency, adults, los, stay_date) DO UPDATE SET
        rate_total = excluded.rate_total, rate = excluded.rate, observation_id = excluded.observation_id,
        collection_id = excluded.collection_id, run_id = excluded.run_id, observed_at = excluded.observed_at
      RETURNING (xmax = 0) AS inserted),
    removed AS (
      DELETE FROM stored_rates s WHERE ${scope} AND NOT EXISTS (SELECT 1 FROM done)
        AND s.stay_date <> ALL (${dates}::text[]::date[])
      RETURNING s.stay_date),
    -- the history (rate_history): each price written and each stay no longer priced
    logged AS (
      INSERT INTO rate_history (account_id, token, market, currency, adults, los, stay_date, rate_total, rate, collection_id, run_id, observed_at)
      SELECT ${accountId}::text, ${r.token}::text, ${r.market}::text, ${r.currency}::text, ${r.adults}::int, ${r.los}::int, i.stay_date, i.rate_total, i.rate,
             ${result.collection_id}::text, ${ids.runId}::text, ${result.observed_at}::timestamptz
      FROM incoming i
      WHERE NOT EXISTS (SELECT 1 FROM prior p WHERE p.stay_date = i.stay_date AND p.rate_total IS NOT DISTINCT FROM i.rate_total)
      UNION ALL
      -- typed: a parameter in a UNION would otherwise be text
      SELECT ${accountId}::text, ${r.token}::text, ${r.market}::text, ${r.currency}::text, ${r.adults}::int, ${r.los}::int, d.stay_date, NULL, NULL,
             ${result.collection_id}::text, ${ids.runId}::text, ${result.observed_at}::timestamptz
      FROM removed d),
    recorded AS (
      INSERT INTO scrape_runs (collection_key, account_id, run_id, token, collection_id, rows_written, rows_changed, rows_removed)
      SELECT ${ids.collectionKey}, ${accountId}, ${ids.runId}, ${r.token}, ${result.collection_id},
        (SELECT count(*) FROM upserted WHERE inserted), (SELECT count(*) FROM upserted WHERE NOT inserted), (SELECT count(*) FROM removed)
      WHERE NOT EXISTS (SELECT 1 FROM done)
      RETURNING run_id, rows_written, rows_changed, rows_removed)
    SELECT * FROM done UNION ALL SELECT * FROM recorded`;
}

/** One stay's latest price as a stored rate (a watch check of one stay): its key, and null to remove it. */
export interface StayRate {
  token: string;
  market: string;
  currency: string;
  adults: number;
  los: number;
  stay_date: string;
  rate_total: number | null;
  rate: Record<string, unknown> & { provenance: { observation_id: string; collection_id: string } | null };
}

/**
 * Writes stays priced one at a time (a watch's offers or compare check) as stored rates, like a
 * calendar collection writes nights: a changed price replaces the row, an unchanged one is left,
 * a stay no longer priced (rate_total null) is removed; the run is recorded once per collection key.
 */
export async function storeStayRates(
  tx: Db,
  accountId: string,
  rows: StayRate[],
  ids: { runId: string; collectionKey: string; observedAt: string },
): Promise<RunSummary> {
  const incoming = rows.map((r) => ({
    ...r,
    observation_id: r.rate.provenance?.observation_id ?? null,
    collection_id: r.rate.provenance?.collection_id ?? null,
  }));
  const [run] = await tx<RunSummary[]>`
    WITH done AS (
      SELECT run_id, rows_written, rows_changed, rows_removed FROM scrape_runs
      WHERE collection_key = ${ids.collectionKey} AND account_id = ${accountId}),
    incoming AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(incoming)}::json)
        AS x(token text, market text, currency text, adults int, los int, stay_date date, rate_total numeric, rate json, observation_id text, collection_id text)
      WHERE NOT EXISTS (SELECT 1 FROM done)),
    upserted AS (
      INSERT INTO stored_rates AS t (account_id, token, market, currency, adults, los, stay_date, rate_total, rate, observation_id, collection_id, run_id, observed_at)
      SELECT ${accountId}, i.token, i.market, i.currency, i.adults, i.los, i.stay_date, i.rate_total, i.rate, i.observation_id,
             i.collection_id, ${ids.runId}, ${ids.observedAt}
      FROM incoming i
      WHERE i.rate_total IS NOT NULL AND i.observation_id IS NOT NULL AND i.collection_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM stored_rates s WHERE s.account_id = ${accountId} AND s.token = i.token AND s.market = i.market
          AND s.currency = i.currency AND s.adults = i.adults AND s.los = i.los AND s.stay_date = i.stay_date AND s.rate_total = i.rate_total)
      ON CONFLICT (account_id, token, market, currency, adults, los, stay_date) DO UPDATE SET
        rate_total = excluded.rate_total, rate = excluded.rate, observation_id = excluded.observation_id,
        collection_id = excluded.collection_id, run_id = excluded.run_id, observed_at = excluded.observed_at
      RETURNING (xmax = 0) AS inserted),
    removed AS (
      DELETE FROM stored_rates s USING incoming i
      WHERE i.rate_total IS NULL AND s.account_id = ${accountId} AND s.token = i.token AND s.market = i.market
        AND s.currency = i.currency AND s.adults = i.adults AND s.los = i.los AND s.stay_date = i.stay_date
      RETURNING s.token, s.market, s.currency, s.adults, s.los, s.stay_date),
    -- the history (rate_history): each price written and each stay no longer priced
    logged AS (
      INSERT INTO rate_history (account_id, token, market, currency, adults, los, stay_date, rate_total, rate, collection_id, run_id, observed_at)
      SELECT ${accountId}::text, i.token, i.market, i.currency, i.adults, i.los, i.stay_date, i.rate_total, i.rate, i.collection_id, ${ids.runId}::text, ${ids.observedAt}::timestamptz
      FROM incoming i
      WHERE i.rate_total IS NOT NULL AND i.observation_id IS NOT NULL AND i.collection_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM stored_rates s WHERE s.account_id = ${accountId} AND s.token = i.token AND s.market = i.market
          AND s.currency = i.currency AND s.adults = i.adults AND s.los = i.los AND s.stay_date = i.stay_date AND s.rate_total = i.rate_total)
      UNION ALL
      SELECT ${accountId}::text, d.token, d.market, d.currency, d.adults, d.los, d.stay_date, NULL, NULL,
             ${incoming.find((i) => i.collection_id)?.collection_id ?? ids.collectionKey}::text, ${ids.runId}::text, ${ids.observedAt}::timestamptz
      FROM removed d),
    recorded AS (
      INSERT INTO scrape_runs (collection_key, account_id, run_id, token, collection_id, rows_written, rows_changed, rows_removed)
      SELECT ${ids.collectionKey}, ${accountId}, ${ids.runId}, ${rows[0]?.token ?? ''}, ${incoming.find((i) => i.collection_id)?.collection_id ?? ids.collectionKey},
        (SELECT count(*) FROM upserted WHERE inserted), (SELECT count(*) FROM upserted WHERE NOT inserted), (SELECT count(*) FROM removed)
      WHERE NOT EXISTS (SELECT 1 FROM done)
      RETURNING run_id, rows_written, rows_changed, rows_removed)
    SELECT * FROM done UNION ALL SELECT * FROM recorded`;
  return { run_id: run.run_id, rows_written: run.rows_written, rows_changed: run.rows_changed, rows_removed: run.rows_removed };
}

/** The run a collection key wrote (a calendar call's request id), or null when it stored nothing. */
export async function runOf(tx: Db, accountId: string, collectionKey: string): Promise<RunSummary | null> {
  const [r] = await tx<
    RunSummary[]
  >`SELECT run_id, rows_written, rows_changed, rows_removed FROM scrape_runs WHERE collection_key = ${collectionKey} AND account_id = ${accountId}`;
  return r ?? null;
}

/** Rows written, changed and removed by one run (a job's items share its run) of the account. */
export async function runTotals(tx: Db, accountId: string, runId: string): Promise<Omit<RunSummary, 'run_id'>> {
  const [t] = await tx<
    { w: number; c: number; r: number }[]
  >`SELECT coalesce(sum(rows_written), 0)::int AS w, coalesce(sum(rows_changed), 0)::int AS c, coalesce(sum(rows_removed), 0)::int AS r
    FROM scrape_runs WHERE account_id = ${accountId} AND run_id = ${runId}`;
  return { rows_written: t.w, rows_changed: t.c, rows_removed: t.r };
}

export interface StoredRatesQuery {
  token: string;
  market: string;
  currency: string;
  adults: number;
  los: number;
  from?: string;
  to?: string;
}

export interface StoredRate {
  date: string;
  rate: Record<string, unknown>;
  observed_at: Date;
  run_id: string;
}

/** The account's latest stored rate per stay date of one property, stay length and occupancy (at most 1000 nights). */
export async function readStoredRates(sql: Db, accountId: string, q: StoredRatesQuery): Promise<StoredRate[]> {
  return sql<StoredRate[]>`
    SELECT stay_date::text AS date, rate, observed_at, run_id FROM stored_rates
    WHERE account_id = ${accountId} AND token = ${q.token} AND market = ${q.market} AND currency = ${q.currency}
      AND adults = ${q.adults} AND los = ${q.los}
      ${q.from ? sql`AND stay_date >= ${q.from}::date` : sql``}
      ${q.to ? sql`AND stay_date <= ${q.to}::date` : sql``}
    ORDER BY stay_date LIMIT 1000`;
}

export interface StorageStatus {
  stored_rates: number;
  properties: number;
  runs: number;
  newest_observation: Date | null;
}

/** What the account has stored: rate rows, distinct properties, collection runs, newest observation. */
export async function storageStatus(sql: Db, accountId: string): Promise<StorageStatus> {
  const [s] = await sql<StorageStatus[]>`SELECT
      (SELECT count(*)::int FROM stored_rates WHERE account_id = ${accountId}) AS stored_rates,
      (SELECT count(DISTINCT token)::int FROM stored_rates WHERE account_id = ${accountId}) AS properties,
      (SELECT count(DISTINCT run_id)::int FROM scrape_runs WHERE account_id = ${accountId}) AS runs,
      (SELECT max(observed_at) FROM stored_rates WHERE account_id = ${accountId}) AS newest_observation`;
  return s;
}

export interface HistoryQuery {
  token: string;
  market: string;
  currency: string;
  adults: number;
  los: number;
  /** The stay's check-in date (a property-night at los 1). */
  date: string;
  /** Only what was observed at or before this instant. */
  asOf?: string;
  /** Only the prices of this seller (an offers watch's seller, a compare watch's source). */
  seller?: string;
}

export interface HistoryRow {
  rate_total: string | null;
  rate: Record<string, unknown> | null;
  collection_id: string;
  run_id: string;
  observed_at: Date;
}

/** The account's price changes of one stay, oldest first (at most 1000): each price written, and null where it stopped pricing. */
export async function readRateHistory(sql: Db, accountId: string, q: HistoryQuery): Promise<HistoryRow[]> {
  return sql<HistoryRow[]>`
    SELECT rate_total::text, rate, collection_id, run_id, observed_at FROM rate_history
    WHERE account_id = ${accountId} AND token = ${q.token} AND los = ${q.los} AND stay_date = ${q.date}::date
      AND market = ${q.market} AND currency = ${q.currency} AND adults = ${q.adults}
      ${q.asOf ? sql`AND observed_at <= ${q.asOf}::timestamptz` : sql``}
      ${q.seller ? sql`AND (rate IS NULL OR coalesce(rate->>'seller', rate->>'source') = ${q.seller})` : sql``}
    ORDER BY observed_at, rate_total IS NULL LIMIT 1000`;
}

/** The account's earlier prices of each night of a calendar window (rate_history, priced changes only), by stay date. */
export async function earlierPrices(sql: Db, accountId: string, r: NormalizedCalendarRequest): Promise<Map<string, number[]>> {
  const rows = await sql<{ date: string; totals: string[] }[]>`
    SELECT stay_date::text AS date, array_agg(rate_total::text ORDER BY observed_at) AS totals FROM rate_history
    WHERE account_id = ${accountId} AND token = ${r.token} AND los = ${r.los} AND market = ${r.market} AND currency = ${r.currency}
      AND adults = ${r.adults} AND stay_date >= ${r.start}::date AND stay_date < ${r.start}::date + ${r.days}::int AND rate_total IS NOT NULL
    GROUP BY stay_date`;
  return new Map(rows.map((x) => [x.date, x.totals.map(Number)]));
}
