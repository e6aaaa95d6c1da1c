/**
 * The one module that writes and reads parity ranges (migration 039): a competitor set's own hotel,
 * its official site against the agencies over check-in dates × lengths of stay, run as one batch.
 * Every read is of one account: another account's range is not found (404).
 */
import type { Db } from '../db/client.js';
import { NotFound } from '../domain/errors.js';
import type { SetMember } from './compsets.js';

/** What a parity range asked, as its answer reads it back. */
export interface ParityRangeRequest {
  start: string;
  days: number;
  los: number[];
  adults: number;
  currency: string | null;
  hotel: string | null;
  /** The compare sources as given (official + the agencies). */
  sources: Record<string, unknown>;
  tolerance_pct: number;
}

export interface ParityRangeRow {
  id: string;
  account_id: string;
  compset_id: string;
  job_id: string;
  request: ParityRangeRequest;
  own: SetMember;
  /** The call that submitted it (a watch check's id: the check the range settles). */
  request_id: string | null;
  created_at: Date;
}

const rangeMissing = () => new NotFound('parity range not found');

/** Written in the batch's own transaction (createCalendarJob's `withJob`). */
export async function insertParityRange(db: Db, r: Omit<ParityRangeRow, 'created_at'>): Promise<void> {
  await db`INSERT INTO compset_parity_ranges (id, account_id, compset_id, job_id, request, own, request_id)
    VALUES (${r.id}, ${r.account_id}, ${r.compset_id}, ${r.job_id}, ${db.json(r.request as never)}, ${db.json(r.own as never)}, ${r.request_id})`;
}

export async function findParityRange(db: Db, accountId: string, compsetId: string, id: string): Promise<ParityRangeRow> {
  const [row] = await db<ParityRangeRow[]>`SELECT * FROM compset_parity_ranges WHERE id = ${id} AND compset_id = ${compsetId} AND account_id = ${accountId}`;
  if (!row) throw rangeMissing();
  return row;
}

/** The range of a batch (an idempotent replay finds the range by its batch). */
export async function parityRangeOfJob(db: Db, accountId: string, jobId: string): Promise<ParityRangeRow> {
  const [row] = await db<ParityRangeRow[]>`SELECT * FROM compset_parity_ranges WHERE job_id = ${jobId} AND account_id = ${accountId}`;
  if (!row) throw rangeMissing();
  return row;
}

/** The range a batch runs, whichever account (the worker finishing the batch); null for a batch of another kind. */
export async function rangeOfFinishedJob(db: Db, jobId: string): Promise<ParityRangeRow | null> {
  const [row] = await db<ParityRangeRow[]>`SELECT * FROM compset_parity_ranges WHERE job_id = ${jobId}`;
  return row ?? null;
}

/** The range a call submitted (a watch check's), whichever account; null when none. */
export async function rangeOfRequest(db: Db, requestId: string): Promise<ParityRangeRow | null> {
  const [row] = await db<ParityRangeRow[]>`SELECT * FROM compset_parity_ranges WHERE request_id = ${requestId}`;
  return row ?? null;
}

/** A set's ranges, newest first (their batches' progress is the job owner's: jobs/calendar-jobs.ts jobsProgress). */
export async function listParityRanges(db: Db, accountId: string, compsetId: string, limit: number, offset: number): Promise<ParityRangeRow[]> {
  return db<ParityRangeRow[]>`SELECT * FROM compset_parity_ranges WHERE account_id = ${accountId} AND compset_id = ${compsetId}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
}
