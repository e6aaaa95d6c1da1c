/**
 * Parity over a range for a competitor set's own hotel: one durable batch (pg-boss) whose items are
 * one comparison per check-in date × length of stay (POST /v1/ota/compare's operation, the official
 * site through its booking engine against the agencies, charged as that call) and one calendar per
 * length of stay (POST /v1/calendar: the price the metasearch displays, reported apart). The
 * range's row is written in the batch's own transaction; its answer is read from the items as they
 * finish (domain/parity-range.ts counts the comparisons' own verdicts).
 */
import type PgBoss from 'pg-boss';
import type { Db, Sql, Tx } from '../../db/client.js';
import { normalizeCalendarRequest, type CalendarRequestInput } from '../../domain/calendar-request.js';
import { newId } from '../../domain/ids.js';
import { parityRange, type DisplayedPrice, type RangeStayInput, type StayComparison } from '../../domain/parity-range.js';
import type { Provenance } from '../../domain/provenance.js';
import { shopDates } from '../../domain/rate-shop.js';
import {
  createCalendarJob,
  jobItems,
  jobsProgress,
  queuedItems,
  writeCalendarJob,
  type OperationItem,
  type JobItem,
  type JobProgress,
  type JobStatus,
} from '../../jobs/calendar-jobs.js';
import type { ExpiryBounds } from '../../jobs/run-expiry.js';
import { findCompset } from '../../platform/compsets.js';
import type { AuthedKey } from '../../platform/keys.js';
import type { Tool } from '../define-tool.js';
import { insertParityRange, listParityRanges, parityRangeOfJob, type ParityRangeRequest, type ParityRangeRow } from '../../platform/parity-ranges.js';

/** What a range is asked: what its answer reads back, and how its items run. */
export interface ParityAsk extends ParityRangeRequest {
  timeout_s: number;
  priority: number;
  /** Each stay fetched live, past the shared result cache (a watch's range: it re-prices). */
  live: boolean;
}

const nightsLabel = (los: number) => `${los} night${los === 1 ? '' : 's'}`;

/** The agencies a range compares: every source given but the official site, in the order of the compare sources. */
export const agenciesOf = (sources: Record<string, unknown>) => Object.keys(sources).filter((s) => s !== 'official' && sources[s]);

/** One stay's comparison as POST /v1/ota/compare takes it. */
function stayInput(r: Pick<ParityRangeRequest, 'adults' | 'currency' | 'hotel' | 'sources'>, date: string, los: number, timeoutS: number, live = false) {
  return {
    check_in: date,
    nights: los,
    adults: r.adults,
    currency: r.currency,
    hotel: r.hotel,
    sources: r.sources,
    timeout_s: timeoutS,
    ...(live ? { cache: false } : {}),
  };
}

/** A range planned: its batch (one calendar per length of stay, then one comparison per stay) and its row, written with the batch. */
async function planRange(sql: Db, key: AuthedKey, compsetId: string, ask: ParityAsk, opts: { expiry: ExpiryBounds; requestId: string }) {
  const set = await findCompset(sql, key.account_id, compsetId);
  const request: ParityRangeRequest = {
    start: ask.start,
    days: ask.days,
    los: ask.los,
    adults: ask.adults,
    currency: ask.currency,
    // the compared agencies' own searches look the hotel up by it where no id is given
    hotel: ask.hotel ?? (set.own.name.length >= 2 ? set.own.name : null),
    sources: ask.sources,
    tolerance_pct: ask.tolerance_pct,
  };
  const dates = shopDates(ask.start, ask.days);
  const compareItems: OperationItem[] = dates.flatMap((date) =>
    ask.los.map((los) => ({
      kind: 'compare' as const,
      token: set.own.property_token,
      label: `parity: ${date} (${nightsLabel(los)})`,
      input: stayInput(request, date, los, ask.timeout_s, ask.live),
      // the sources run side by side, each up to timeout_s
      seconds: ask.timeout_s + 10,
    })),
  );
  // the metasearch-displayed price: the own hotel's calendar at each length of stay
  const calendars = ask.los.map((los) =>
    normalizeCalendarRequest({
      token: set.own.property_token,
      start: ask.start,
      days: ask.days,
      los,
      adults: ask.adults,
      currency: (ask.currency ?? undefined) as CalendarRequestInput['currency'],
      probe_min_stay: false,
      is_hostel: false,
      basis: 'cheapest',
      verify_sources: 0,
      label: `metasearch: ${set.own.name} (${nightsLabel(los)})`,
    }),
  );
  const id = newId('parityrange');
  const row = (jobId: string) => ({
    id,
    account_id: key.account_id,
    compset_id: compsetId,
    job_id: jobId,
    request,
    own: set.own,
    request_id: opts.requestId,
  });
  const job = {
    key,
    items: calendars,
    operationItems: compareItems,
    priority: ask.priority,
    callbackUrl: null,
    expiry: opts.expiry,
    withJob: (tx: Db, jobId: string) => insertParityRange(tx, row(jobId)),
  };
  return { row, job };
}

export async function startParityRange(
  sql: Sql,
  boss: PgBoss,
  key: AuthedKey,
  compsetId: string,
  ask: ParityAsk,
  opts: { idempotencyKey: string; expiry: ExpiryBounds; requestId: string },
): Promise<ParityRangeRow> {
  const { job } = await planRange(sql, key, compsetId, ask, opts);
  const { id: jobId } = await createCalendarJob(sql, boss, {
    ...job,
    idempotencyKey: opts.idempotencyKey,
    scope: `POST /v1/compsets/${compsetId}/parity`,
    body: ask,
  });
  return parityRangeOfJob(sql, key.account_id, jobId);
}

/**
 * A range a watch's check submits: nothing is written yet. `commit` writes the range and its batch,
 * and queues the batch's items, in the check's own transaction, so that a check refused at commit
 * (its slot moved meanwhile, the watch paused or deleted) leaves no range running and nothing to
 * charge. `answer` is the range as it stands once committed: queued, every stay pending.
 */
export async function plannedParityRange(
  sql: Db,
  boss: PgBoss,
  key: AuthedKey,
  compsetId: string,
  ask: ParityAsk,
  opts: { expiry: ExpiryBounds; requestId: string },
) {
  const { row, job } = await planRange(sql, key, compsetId, ask, opts);
  const jobId = newId('refreshjob');
  const items = queuedItems(job);
  const queued: JobProgress = { id: jobId, status: 'queued', items_total: items.length, items_succeeded: 0, items_failed: 0, finished_at: null };
  return {
    answer: rangeAnswer({ ...row(jobId), created_at: new Date() }, queued, items),
    commit: (tx: Tx) => writeCalendarJob(tx, boss, job, jobId),
  };
}

interface CalendarRate {
  date: string;
  nights: number;
  rate_total: number | null;
  currency: string | null;
  provenance: Provenance | null;
}

/** The metasearch-displayed price of each stay (`date|los`) the calendars priced. */
function displayedPrices(items: JobItem[]): Map<string, DisplayedPrice> {
  const out = new Map<string, DisplayedPrice>();
  for (const it of items) {
    if (it.kind !== 'calendar') continue;
    const los = Number(it.request.los);
    for (const r of (it.result?.rates ?? []) as CalendarRate[]) {
      if (r.nights === los && r.rate_total !== null) out.set(`${r.date}|${los}`, { total: r.rate_total, currency: r.currency, provenance: r.provenance });
    }
  }
  return out;
}

/** A range's request and its batch's progress: how a set's list shows it, and the head of its answer. */
function rangeSummary(range: ParityRangeRow, job: JobProgress) {
  return {
    id: range.id,
    compset_id: range.compset_id,
    job_id: range.job_id,
    poll_url: `/v1/compsets/${range.compset_id}/parity/${range.id}`,
    status: job.status as JobStatus,
    items_total: job.items_total,
    items_succeeded: job.items_succeeded,
    items_failed: job.items_failed,
    created_at: range.created_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
    request: range.request,
    own: range.own,
  };
}

/** A set of the account's ranges, newest first, each with its batch's progress (another account's set: 404). */
export async function listRanges(sql: Db, accountId: string, compsetId: string, limit: number, offset: number) {
  await findCompset(sql, accountId, compsetId);
  const ranges = await listParityRanges(sql, accountId, compsetId, limit, offset);
  const progress = await jobsProgress(
    sql,
    accountId,
    ranges.map((r) => r.job_id),
  );
  // a range's batch is written in the range's own transaction: every listed range has one
  return ranges.flatMap((r) => {
    const job = progress.get(r.job_id);
    return job ? [rangeSummary(r, job)] : [];
  });
}

/** The range with its batch's progress and its answer as far as the batch has come. */
export async function readParityRange(sql: Db, accountId: string, range: ParityRangeRow) {
  // the batch is written in the range's own transaction: it is there
  const job = (await jobsProgress(sql, accountId, [range.job_id])).get(range.job_id)!;
  return rangeAnswer(range, job, await jobItems(sql, accountId, range.job_id));
}

/** The range's answer from its batch's progress and items. */
function rangeAnswer(range: ParityRangeRow, job: JobProgress, items: JobItem[]) {
  const shown = displayedPrices(items);
  const stays: RangeStayInput[] = items
    .filter((it) => it.kind === 'compare')
    .map((it) => {
      const date = String(it.request.check_in);
      const los = Number(it.request.nights);
      const state = it.status === 'succeeded' ? 'done' : it.status === 'failed' ? 'failed' : 'pending';
      return { date, los, state, error: it.error, comparison: (it.result as StayComparison | null) ?? null, metasearch: shown.get(`${date}|${los}`) ?? null };
    });
  const r = range.request;
  const summary = parityRange(stays, agenciesOf(r.sources), r.tolerance_pct);
  return {
    ...rangeSummary(range, job),
    ...summary,
    // a link to check each disparity: the one comparison, of the official site and that agency, that shows it again
    disparities: summary.disparities.map((d) => ({
      ...d,
      check: {
        method: 'POST' as const,
        path: '/v1/ota/compare' as const,
        body: stayInput({ ...r, sources: { official: r.sources.official, [d.source]: r.sources[d.source] } }, d.date, d.los, 45),
      },
    })),
  };
}

/**
 * The most one range costs: every stay charged as the comparison and every length's calendar as the
 * calendar (a watch's credits_per_check; the submission itself is free).
 */
export function rangeCreditsMax(tools: Tool[], input: { days: number; los: number[] }): number {
  const cost = (name: string) => tools.find((t) => t.name === name)?.credits.base ?? 0;
  return input.days * input.los.length * cost('compare_hotel_prices') + input.los.length * cost('get_hotel_calendar');
}
