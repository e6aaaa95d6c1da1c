import type PgBoss from 'pg-boss';
import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/client.js';
import type { NormalizedCalendarRequest } from '../domain/calendar-request.js';
import { NotFound } from '../domain/errors.js';
import { once } from '../platform/idempotency.js';
import { newId } from '../domain/ids.js';
import type { AuthedKey } from '../platform/keys.js';

export const CALENDAR_QUEUE = 'calendar-item';
export const WEBHOOK_QUEUE = 'calendar-webhook';
/** Our own attempt cap per item; pg-boss may retry more (crashes), we decide when an item fails. */
export const MAX_ITEM_ATTEMPTS = 3;

/** pg-boss writes through our open transaction, so a job and its queue entries commit together. */
export function bossDb(tx: TransactionSql): PgBoss.Db {
  return { executeSql: async (text: string, values: unknown[]) => ({ rows: await tx.unsafe(text, values as never[]) }) };
}

/**
 * An item's queue entry expires after its expected duration plus slack: after a crash,
 * pg-boss hands it out again once it expired and maintenance ran.
 */
export function itemExpirySeconds(r: NormalizedCalendarRequest, minSeconds: number): number {
  return Math.max(minSeconds, Math.min(3600, Math.ceil(expectedCalendarSeconds(r) * 2)));
}

/** A generous estimate of one calendar's run time: one RPC per 31 nights, four at a time, plus the minimum-stay probe levels. */
export function expectedCalendarSeconds(r: NormalizedCalendarRequest): number {
  return 5 + r.days * 0.1 + r.verify_sources * 15 + (r.basis === 'mainstream' ? r.days * 1.5 : 0) + (r.probe_min_stay ? 5 : 0);
}

export interface NewJob {
  key: AuthedKey;
  idempotencyKey: string;
  body: unknown;
  items: NormalizedCalendarRequest[];
  priority: number;
  callbackUrl: string | null;
  minExpirySeconds: number;
}

/** Persists the job, its items and their queue entries in one transaction, once per Idempotency-Key. */
export async function createCalendarJob(sql: Sql, boss: PgBoss, job: NewJob): Promise<{ id: string; replayed: boolean }> {
  const { resourceId, replayed } = await once(
    sql,
    { keyId: job.key.id, accountId: job.key.account_id, scope: 'POST /v1/jobs', idempotencyKey: job.idempotencyKey, body: job.body },
    async (tx) => {
      const id = newId('refreshjob');
      await tx`INSERT INTO calendar_jobs (id, key_id, account_id, priority, callback_url, callback_status, items_total)
        VALUES (${id}, ${job.key.id}, ${job.key.account_id}, ${job.priority}, ${job.callbackUrl},
                ${job.callbackUrl ? 'pending' : 'not_configured'}, ${job.items.length})`;
      const items = job.items.map((request, index) => ({
        id: newId('refreshitem'),
        job_id: id,
        account_id: job.key.account_id,
        item_index: index,
        token: request.token,
        label: request.label,
        request: tx.json(request as never),
      }));
      await tx`INSERT INTO calendar_job_items ${tx(items, 'id', 'job_id', 'account_id', 'item_index', 'token', 'label', 'request')}`;
      await boss.insert(
        items.map((item, i) => ({
          name: CALENDAR_QUEUE,
          data: { item_id: item.id, job_id: id },
          priority: job.priority,
          retryLimit: MAX_ITEM_ATTEMPTS + 5,
          retryDelay: 2,
          retryBackoff: true,
          expireInSeconds: itemExpirySeconds(job.items[i], job.minExpirySeconds),
        })),
        { db: bossDb(tx) },
      );
      return id;
    },
  );
  return { id: resourceId, replayed };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';
export type ItemStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type CallbackStatus = 'not_configured' | 'pending' | 'delivered' | 'failed';

/** The spec's Calendar job resource, of the caller's account only; results only on request and only for succeeded items. */
export async function readCalendarJob(sql: Sql, accountId: string, jobId: string, includeResults: boolean) {
  const [job] = await sql`SELECT * FROM calendar_jobs WHERE id = ${jobId} AND account_id = ${accountId}`;
  if (!job) throw new NotFound('job not found');
  const items = await sql`
    SELECT id, item_index, token, label, status, request, error, attempts, started_at, finished_at, updated_at,
      ${includeResults ? sql`CASE WHEN status = 'succeeded' THEN result END` : sql`NULL::jsonb`} AS result
    FROM calendar_job_items WHERE job_id = ${jobId} AND account_id = ${accountId} ORDER BY item_index`;
  return {
    id: job.id as string,
    job_id: job.id as string,
    poll_url: `/v1/jobs/${job.id}`,
    status: job.status as JobStatus,
    priority: job.priority as number,
    callback_url: job.callback_url as string | null,
    callback_status: job.callback_status as CallbackStatus,
    callback_attempts: job.callback_attempts as number,
    callback_last_error: job.callback_last_error as string | null,
    artifact_uri: job.artifact_uri as string | null,
    artifact_sha256: job.artifact_sha256 as string | null,
    result_summary: job.result_summary as Record<string, unknown>,
    error: job.error as string | null,
    items_total: job.items_total as number,
    items_succeeded: job.items_succeeded as number,
    items_failed: job.items_failed as number,
    created_at: iso(job.created_at)!,
    updated_at: iso(job.updated_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
    items: items.map((it) => ({
      id: it.id as string,
      item_index: it.item_index as number,
      token: it.token as string,
      label: it.label as string | null,
      status: it.status as ItemStatus,
      request: it.request as Record<string, unknown>,
      result: (it.result ?? null) as Record<string, unknown> | null,
      error: it.error as string | null,
      attempts: it.attempts as number,
      started_at: iso(it.started_at),
      finished_at: iso(it.finished_at),
      updated_at: iso(it.updated_at)!,
    })),
  };
}
