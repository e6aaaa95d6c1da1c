import type PgBoss from 'pg-boss';
import type { Db, Sql } from '../db/client.js';
import type { NormalizedCalendarRequest } from '../domain/calendar-request.js';
import { NotFound } from '../domain/errors.js';
import { once } from '../platform/idempotency.js';
import { newId } from '../domain/ids.js';
import type { AuthedKey } from '../platform/keys.js';
import { runExpirySeconds, type ExpiryBounds } from './run-expiry.js';

/*
 * The owner of calendar_jobs and calendar_job_items: the customer-facing state of calendar batches
 * (pg-boss carries one queue entry per item). The worker (src/workers/calendar-worker.ts) moves
 * items and jobs through their states with the functions below; webhooks.ts records deliveries.
 */

export const CALENDAR_QUEUE = 'calendar-item';
export const WEBHOOK_QUEUE = 'calendar-webhook';
/** Our own attempt cap per item; pg-boss may retry more (crashes), we decide when an item fails. */
export const MAX_ITEM_ATTEMPTS = 3;

/** pg-boss writes through our open transaction, so a job and its queue entries commit together. */
export function bossDb(tx: Db): PgBoss.Db {
  return { executeSql: async (text: string, values: unknown[]) => ({ rows: await tx.unsafe(text, values as never[]) }) };
}

/** A generous estimate of one calendar's run time: one RPC per 31 nights, four at a time, plus the minimum-stay probe levels. */
export function expectedCalendarSeconds(r: NormalizedCalendarRequest): number {
  return 5 + r.days * 0.1 + r.verify_sources * 15 + (r.basis === 'mainstream' ? r.days * 1.5 : 0) + (r.probe_min_stay ? 5 : 0);
}

/**
 * An item that runs another operation than the calendar: one stay's comparison (a parity range's,
 * POST /v1/ota/compare's input) or one stay's offers by seller (a per-seller rate shop's,
 * POST /v1/offers's input), run as that operation.
 */
export interface OperationItem {
  kind: 'compare' | 'offers';
  token: string;
  label: string;
  input: Record<string, unknown>;
  /** How long it is expected to run at most (its queue expiry). */
  seconds: number;
}

/** What a batch item runs: a calendar (POST /v1/calendar), one stay's comparison (POST /v1/ota/compare) or its offers (POST /v1/offers). */
type ItemKind = 'calendar' | OperationItem['kind'];

export interface NewJob {
  key: AuthedKey;
  idempotencyKey: string;
  body: unknown;
  items: NormalizedCalendarRequest[];
  /** Items of other operations after the calendars (a parity range's comparisons, a per-seller shop's offers). */
  operationItems?: OperationItem[];
  priority: number;
  callbackUrl: string | null;
  /** Bounds of each item's queue expiry (runExpirySeconds). */
  expiry: ExpiryBounds;
  /** The Idempotency-Key's scope: the route that submits the job (default POST /v1/jobs). */
  scope?: string;
  /** Writes what else belongs to the job (a rate shop's row) in the job's own transaction. */
  withJob?: (tx: Db, jobId: string) => Promise<void>;
}

/** Persists the job, its items and their queue entries in one transaction, once per Idempotency-Key. */
export async function createCalendarJob(sql: Sql, boss: PgBoss, job: NewJob): Promise<{ id: string; replayed: boolean }> {
  const { resourceId, replayed } = await once(
    sql,
    { keyId: job.key.id, accountId: job.key.account_id, scope: job.scope ?? 'POST /v1/jobs', idempotencyKey: job.idempotencyKey, body: job.body },
    async (tx) => {
      const id = newId('refreshjob');
      await writeCalendarJob(tx, boss, job, id);
      return id;
    },
  );
  return { id: resourceId, replayed };
}

/**
 * Writes the job `id`, its items and their queue entries in the caller's transaction: they exist,
 * and run, exactly when it commits (a watch check's parity range: with the check). No Idempotency-Key.
 */
export async function writeCalendarJob(tx: Db, boss: PgBoss, job: Omit<NewJob, 'idempotencyKey' | 'body' | 'scope'>, id: string): Promise<void> {
  const planned = plannedItems(job);
  await tx`INSERT INTO calendar_jobs (id, key_id, account_id, priority, callback_url, callback_status, items_total)
    VALUES (${id}, ${job.key.id}, ${job.key.account_id}, ${job.priority}, ${job.callbackUrl},
            ${job.callbackUrl ? 'pending' : 'not_configured'}, ${planned.length})`;
  const items = planned.map((p, index) => ({
    id: newId('refreshitem'),
    job_id: id,
    account_id: job.key.account_id,
    item_index: index,
    kind: p.kind,
    token: p.token,
    label: p.label,
    request: tx.json(p.request as never),
  }));
  await tx`INSERT INTO calendar_job_items ${tx(items, 'id', 'job_id', 'account_id', 'item_index', 'kind', 'token', 'label', 'request')}`;
  await boss.insert(
    items.map((item, i) => ({
      name: CALENDAR_QUEUE,
      data: { item_id: item.id, job_id: id },
      priority: job.priority,
      retryLimit: MAX_ITEM_ATTEMPTS + 5,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: runExpirySeconds(planned[i].seconds, job.expiry),
    })),
    { db: bossDb(tx) },
  );
  await job.withJob?.(tx, id);
}

/** A job's items in order (the calendars, then the other operations' items), each with the seconds it is expected to run (its queue expiry). */
function plannedItems(job: Pick<NewJob, 'items' | 'operationItems'>) {
  return [
    ...job.items.map((r) => ({ kind: 'calendar' as const, token: r.token, label: r.label, request: r, seconds: expectedCalendarSeconds(r) })),
    ...(job.operationItems ?? []).map((o) => ({ kind: o.kind, token: o.token, label: o.label, request: o.input, seconds: o.seconds })),
  ];
}

/** A job's items as they stand before any has run (all queued): what a job not yet committed answers. */
export function queuedItems(job: Pick<NewJob, 'items' | 'operationItems'>): JobItem[] {
  return plannedItems(job).map((p) => ({
    kind: p.kind,
    status: 'queued',
    request: p.request as unknown as Record<string, unknown>,
    result: null,
    error: null,
  }));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface JobProgress {
  id: string;
  status: string;
  items_total: number;
  items_succeeded: number;
  items_failed: number;
  finished_at: Date | null;
}

/** The progress of some of the account's jobs, by id (a job of another account is absent). */
export async function jobsProgress(db: Db, accountId: string, jobIds: string[]): Promise<Map<string, JobProgress>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db<JobProgress[]>`SELECT id, status, items_total, items_succeeded, items_failed, finished_at
    FROM calendar_jobs WHERE account_id = ${accountId} AND id = ANY(${jobIds})`;
  return new Map(rows.map((r) => [r.id, r]));
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';
type ItemStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type CallbackStatus = 'not_configured' | 'pending' | 'delivered' | 'failed';

/** The spec's Calendar job resource, of the caller's account only; results only on request and only for succeeded items. */
/** A calendar_jobs row. */
export interface JobRow {
  id: string;
  key_id: string;
  account_id: string;
  status: JobStatus;
  priority: number;
  callback_url: string | null;
  callback_status: CallbackStatus;
  callback_attempts: number;
  callback_last_error: string | null;
  artifact_uri: string | null;
  artifact_sha256: string | null;
  result_summary: Record<string, unknown>;
  error: string | null;
  items_total: number;
  items_succeeded: number;
  items_failed: number;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface ItemRow {
  id: string;
  item_index: number;
  token: string;
  label: string | null;
  status: ItemStatus;
  request: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
  attempts: number;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

/**
 * The spec's Calendar job resource, of the caller's account only; results only on request and only
 * for succeeded items. `baseUrl` (the configured PUBLIC_BASE_URL) makes the artifact's URL absolute;
 * without one it is the path, as poll_url is.
 */
export async function readCalendarJob(db: Db, accountId: string, jobId: string, includeResults: boolean, baseUrl: string | null = null) {
  const [job] = await db<JobRow[]>`SELECT * FROM calendar_jobs WHERE id = ${jobId} AND account_id = ${accountId}`;
  if (!job) throw new NotFound('job not found');
  const items = await db<ItemRow[]>`
    SELECT id, item_index, token, label, status, request, error, attempts, started_at, finished_at, updated_at,
      ${includeResults ? db`CASE WHEN status = 'succeeded' THEN result END` : db`NULL::json`} AS result
    FROM calendar_job_items WHERE job_id = ${jobId} AND account_id = ${accountId} ORDER BY item_index`;
  return {
    id: job.id,
    job_id: job.id,
    poll_url: `/v1/jobs/${job.id}`,
    status: job.status,
    priority: job.priority,
    callback_url: job.callback_url,
    callback_status: job.callback_status,
    callback_attempts: job.callback_attempts,
    callback_last_error: job.callback_last_error,
    artifact_uri: job.artifact_uri?.startsWith('/') && baseUrl ? `${baseUrl.replace(/\/+$/, '')}${job.artifact_uri}` : job.artifact_uri,
    artifact_sha256: job.artifact_sha256,
    result_summary: job.result_summary,
    error: job.error,
    items_total: job.items_total,
    items_succeeded: job.items_succeeded,
    items_failed: job.items_failed,
    created_at: iso(job.created_at)!,
    updated_at: iso(job.updated_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
    items: items.map((it) => ({
      id: it.id,
      item_index: it.item_index,
      token: it.token,
      label: it.label,
      status: it.status,
      request: it.request,
      result: it.result ?? null,
      error: it.error,
      attempts: it.attempts,
      started_at: iso(it.started_at),
      finished_at: iso(it.finished_at),
      updated_at: iso(it.updated_at)!,
    })),
  };
}

/** A batch item as a rate shop or a parity range reads it: what it ran, its input and (succeeded) its answer. */
export interface JobItem {
  kind: ItemKind;
  status: ItemStatus;
  request: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
}

/** The items of one of the account's jobs, in order (none for another account's job). */
export async function jobItems(db: Db, accountId: string, jobId: string): Promise<JobItem[]> {
  return db<JobItem[]>`SELECT kind, status, request, CASE WHEN status = 'succeeded' THEN result END AS result, error
    FROM calendar_job_items WHERE job_id = ${jobId} AND account_id = ${accountId} ORDER BY item_index`;
}

export interface JobSummary {
  id: string;
  status: JobStatus;
  items_total: number;
  items_succeeded: number;
  items_failed: number;
  created_at: Date;
}

/** The account's latest batches, newest first (the dashboard's list). */
export async function recentJobsOf(db: Db, accountId: string, limit: number): Promise<JobSummary[]> {
  return db<JobSummary[]>`
    SELECT id, status, items_total, items_succeeded, items_failed, created_at FROM calendar_jobs
    WHERE account_id = ${accountId} ORDER BY created_at DESC LIMIT ${limit}`;
}

/** Items waiting (queued) and in progress (running), across all workers: the queue-depth gauge. */
export async function openItemCounts(db: Db): Promise<{ queued: number; running: number }> {
  const rows = await db<{ status: 'queued' | 'running'; n: number }[]>`
    SELECT status, count(*)::int AS n FROM calendar_job_items WHERE status IN ('queued', 'running') GROUP BY status`;
  return { queued: rows.find((r) => r.status === 'queued')?.n ?? 0, running: rows.find((r) => r.status === 'running')?.n ?? 0 };
}

// ---- the worker's transitions (see src/workers/calendar-worker.ts for the state machine) ----

/** An item the worker took, with the key that made its job: a calendar, or another operation's item with that operation's input. */
export type StartedItem = {
  id: string;
  job_id: string;
  attempts: number;
  /** The key that made the job: the item runs as it (revoked or not). */
  key_id: string;
} & ({ kind: 'calendar'; request: NormalizedCalendarRequest } | { kind: OperationItem['kind']; request: Record<string, unknown> });

/** The item and (on its first item) the job move to running in one statement; null when the item already ended (a replay after the commit). */
export async function startItem(db: Db, itemId: string): Promise<StartedItem | null> {
  const [item] = await db<StartedItem[]>`
    WITH i AS (
      UPDATE calendar_job_items SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()), updated_at = now()
      WHERE id = ${itemId} AND status IN ('queued', 'running')
      RETURNING id, job_id, kind, request, attempts),
    j AS (
      UPDATE calendar_jobs SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END,
        started_at = coalesce(started_at, now()), updated_at = now()
      WHERE id = (SELECT job_id FROM i))
    SELECT i.*, cj.key_id FROM i JOIN calendar_jobs cj ON cj.id = i.job_id`;
  return item ?? null;
}

/** A retryable failure: the item waits for its queue retry, its error kept. */
export async function requeueItem(db: Db, itemId: string, error: string): Promise<void> {
  await db`UPDATE calendar_job_items SET status = 'queued', error = ${error}, updated_at = now() WHERE id = ${itemId} AND status = 'running'`;
}

/** How many of the job's items have ended, after an item's end was counted. */
export interface JobCounts {
  ended: number;
  items_total: number;
}

/** The item ends failed and the job counts it; null when the item had already ended. */
export async function failItem(tx: Db, jobId: string, itemId: string, error: string): Promise<JobCounts | null> {
  const done = await tx<{ id: string }[]>`UPDATE calendar_job_items SET status = 'failed', error = ${error}, finished_at = now(), updated_at = now()
    WHERE id = ${itemId} AND status NOT IN ('succeeded', 'failed') RETURNING id`;
  if (!done.length) return null;
  const [counts] = await tx<JobCounts[]>`UPDATE calendar_jobs SET items_failed = items_failed + 1, updated_at = now() WHERE id = ${jobId}
    RETURNING items_succeeded + items_failed AS ended, items_total`;
  return counts;
}

/**
 * The item ends succeeded with its result (the calendar service's answer, stored as it is: json,
 * checked but not parsed into jsonb) and its charge; false when it had already ended. The job
 * counts it in countSucceeded.
 */
export async function succeedItem(tx: Db, itemId: string, result: object, credits: number): Promise<boolean> {
  const done = await tx<{ id: string }[]>`UPDATE calendar_job_items SET status = 'succeeded', result = ${JSON.stringify(result)}::json, error = NULL,
      credits = ${credits}, finished_at = now(), updated_at = now()
    WHERE id = ${itemId} AND status NOT IN ('succeeded', 'failed') RETURNING id`;
  return done.length > 0;
}

/** Counts a succeeded item; the job row lock taken here orders the items' commits, so the last one sees every count. */
export async function countSucceeded(tx: Db, jobId: string): Promise<JobCounts> {
  const [counts] = await tx<JobCounts[]>`UPDATE calendar_jobs SET items_succeeded = items_succeeded + 1, updated_at = now() WHERE id = ${jobId}
    RETURNING items_succeeded + items_failed AS ended, items_total`;
  return counts;
}

/** The job, locked for its final write. */
export async function lockJob(tx: Db, jobId: string): Promise<JobRow> {
  const [job] = await tx<JobRow[]>`SELECT * FROM calendar_jobs WHERE id = ${jobId} FOR UPDATE`;
  return job;
}

/** An item as the job's artifact records it; `R` is the stored result's type (the calendar service's answer). */
export interface FinishedItem<R> {
  item_index: number;
  kind: ItemKind;
  token: string;
  label: string | null;
  status: ItemStatus;
  error: string | null;
  result: R | null;
}

/** Every item of the job in order. */
export async function itemsOfJob<R>(tx: Db, jobId: string): Promise<FinishedItem<R>[]> {
  return tx<
    FinishedItem<R>[]
  >`SELECT item_index, kind, token, label, status, error, result FROM calendar_job_items WHERE job_id = ${jobId} ORDER BY item_index`;
}

export async function completeJob(
  tx: Db,
  jobId: string,
  end: { status: JobStatus; error: string | null; summary: Record<string, unknown>; artifact: { uri: string; sha256: string } },
): Promise<void> {
  await tx`UPDATE calendar_jobs SET status = ${end.status}, error = ${end.error}, result_summary = ${tx.json(end.summary as never)},
      artifact_uri = ${end.artifact.uri}, artifact_sha256 = ${end.artifact.sha256}, finished_at = now(), updated_at = now()
    WHERE id = ${jobId}`;
}

// ---- job.completed webhooks (src/workers/webhooks.ts) ----

export type JobCallback = Pick<JobRow, 'account_id' | 'callback_url' | 'callback_status' | 'callback_attempts'>;

export async function jobCallback(db: Db, jobId: string): Promise<JobCallback | null> {
  const [job] = await db<JobCallback[]>`SELECT account_id, callback_url, callback_status, callback_attempts FROM calendar_jobs WHERE id = ${jobId}`;
  return job ?? null;
}

/** Records attempt `attempt`'s outcome, unless another run of that attempt got there first (then false). */
export async function recordCallbackAttempt(
  tx: Db,
  jobId: string,
  attempt: number,
  outcome: { status: CallbackStatus; error: string | null },
): Promise<boolean> {
  const updated = await tx<{ id: string }[]>`UPDATE calendar_jobs SET callback_attempts = ${attempt}, callback_last_error = ${outcome.error},
      callback_status = ${outcome.status}, updated_at = now()
    WHERE id = ${jobId} AND callback_status = 'pending' AND callback_attempts = ${attempt - 1} RETURNING id`;
  return updated.length > 0;
}
