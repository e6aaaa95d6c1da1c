/**
 * The one module that writes and reads competitor sets and their rate shops (migration 037). Every
 * read and write is of one account: another account's set or shop is not found (404), never told
 * apart from one that does not exist.
 */
import type { Db } from '../db/client.js';
import { NotFound } from '../domain/errors.js';

export interface SetMember {
  property_token: string;
  name: string;
}

export interface CompsetRow {
  id: string;
  account_id: string;
  name: string;
  own: SetMember;
  competitors: SetMember[];
  created_at: Date;
  updated_at: Date;
}

/** What a shop asked, as the grid reads it back. */
export interface ShopRequest {
  start: string;
  days: number;
  los: number[];
  adults: number;
  currency: string;
  market: string;
  /** Each stay's offers by seller too (a per-seller shop); absent in shops of before. */
  sellers?: boolean;
}

export interface ShopRow {
  id: string;
  account_id: string;
  compset_id: string;
  job_id: string;
  request: ShopRequest;
  properties: (SetMember & { own: boolean })[];
  /** The most the shop costs, stated when it was submitted. */
  credits_max: number;
  created_at: Date;
}

const setMissing = () => new NotFound('competitor set not found');
const shopMissing = () => new NotFound('rate shop not found');

export async function insertCompset(db: Db, c: Pick<CompsetRow, 'id' | 'account_id' | 'name' | 'own' | 'competitors'>): Promise<CompsetRow> {
  const [row] = await db<CompsetRow[]>`INSERT INTO compsets (id, account_id, name, own, competitors)
    VALUES (${c.id}, ${c.account_id}, ${c.name}, ${db.json(c.own as never)}, ${db.json(c.competitors as never)}) RETURNING *`;
  return row;
}

export async function findCompset(db: Db, accountId: string, id: string): Promise<CompsetRow> {
  const [row] = await db<CompsetRow[]>`SELECT * FROM compsets WHERE id = ${id} AND account_id = ${accountId}`;
  if (!row) throw setMissing();
  return row;
}

export async function listCompsets(db: Db, accountId: string, limit: number, offset: number): Promise<CompsetRow[]> {
  return db<CompsetRow[]>`SELECT * FROM compsets WHERE account_id = ${accountId}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
}

export async function updateCompset(db: Db, accountId: string, id: string, c: Partial<Pick<CompsetRow, 'name' | 'own' | 'competitors'>>): Promise<CompsetRow> {
  const [row] = await db<CompsetRow[]>`UPDATE compsets SET
      name = ${c.name === undefined ? db`name` : c.name},
      own = ${c.own === undefined ? db`own` : db`${db.json(c.own as never)}::jsonb`},
      competitors = ${c.competitors === undefined ? db`competitors` : db`${db.json(c.competitors as never)}::jsonb`},
      updated_at = now()
    WHERE id = ${id} AND account_id = ${accountId} RETURNING *`;
  if (!row) throw setMissing();
  return row;
}

/** Deletes the set and its shops' rows (their calendar jobs stay, as any batch of the account does). */
export async function deleteCompset(db: Db, accountId: string, id: string): Promise<void> {
  const gone = await db`DELETE FROM compsets WHERE id = ${id} AND account_id = ${accountId} RETURNING id`;
  if (!gone.length) throw setMissing();
}

/** Written in the calendar job's own transaction (createCalendarJob's `withJob`). */
export async function insertShop(db: Db, s: Omit<ShopRow, 'created_at'>): Promise<void> {
  await db`INSERT INTO compset_shops (id, account_id, compset_id, job_id, request, properties, credits_max)
    VALUES (${s.id}, ${s.account_id}, ${s.compset_id}, ${s.job_id}, ${db.json(s.request as never)}, ${db.json(s.properties as never)}, ${s.credits_max})`;
}

export async function findShop(db: Db, accountId: string, compsetId: string, id: string): Promise<ShopRow> {
  const [row] = await db<ShopRow[]>`SELECT * FROM compset_shops WHERE id = ${id} AND compset_id = ${compsetId} AND account_id = ${accountId}`;
  if (!row) throw shopMissing();
  return row;
}

/** The shop of a calendar job (an idempotent replay of a shop finds the shop by its job). */
export async function shopOfJob(db: Db, accountId: string, jobId: string): Promise<ShopRow> {
  const [row] = await db<ShopRow[]>`SELECT * FROM compset_shops WHERE job_id = ${jobId} AND account_id = ${accountId}`;
  if (!row) throw shopMissing();
  return row;
}

export interface ShopSummary {
  id: string;
  job_id: string;
  request: ShopRequest;
  credits_max: number;
  created_at: Date;
}

/** A set's shops, newest first (their jobs' progress is the job owner's: jobs/calendar-jobs.ts jobsProgress). */
export async function listShops(db: Db, accountId: string, compsetId: string, limit: number, offset: number): Promise<ShopSummary[]> {
  return db<ShopSummary[]>`SELECT s.id, s.job_id, s.request, s.credits_max, s.created_at
    FROM compset_shops s
    WHERE s.account_id = ${accountId} AND s.compset_id = ${compsetId}
    ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit} OFFSET ${offset}`;
}
