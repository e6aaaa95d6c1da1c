import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Db, Fragment } from '../db/client.js';
import type { AuthedKey } from './keys.js';

/*
 * The owner of search_archive: the compatible search routes' answers (and raw pages), kept for the
 * retention period and read back only by the key that made the search.
 */

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Raw pages larger than this (decoded) are not retained; their html_url answers 404. */
const RAW_PAGE_MAX_BYTES = 16 * 1024 * 1024;

/** One upstream reply of a compatible search, as received (decoded body): the page html_url serves. */
export interface CapturedReply {
  url: string;
  contentType: string | null;
  body: Buffer;
}

export interface ArchiveEntry {
  id: string;
  key: Pick<AuthedKey, 'id' | 'account_id'>;
  engine: string;
  response: unknown;
  page: CapturedReply | null;
}

/**
 * Stores one answer of the compatible search routes for `retentionDays`. A key without an account
 * (possible only before every key got one) owns nothing, so nothing is stored for it.
 */
export async function archiveSearch(sql: Db, retentionDays: number, e: ArchiveEntry): Promise<boolean> {
  if (!e.key.account_id) return false;
  const page = e.page && e.page.body.length <= RAW_PAGE_MAX_BYTES ? e.page : null;
  const raw = page ? await gzip(page.body) : null;
  await sql`
    INSERT INTO search_archive (id, account_id, key_id, engine, response, raw_page, raw_content_type, expires_at)
    VALUES (${e.id}, ${e.key.account_id}, ${e.key.id}, ${e.engine}, ${JSON.stringify(e.response)}::json, ${raw}, ${page?.contentType ?? null},
            now() + make_interval(days => ${retentionDays}))
    ON CONFLICT (id) DO NOTHING`;
  return true;
}

/** Only the caller's own key reads a search, and only before it expires. */
function owned(sql: Db, id: string, key: Pick<AuthedKey, 'id' | 'account_id'>): Fragment {
  return sql`id = ${id} AND key_id = ${key.id} AND account_id = ${key.account_id ?? ''} AND expires_at > now()`;
}

export async function readArchivedSearch(sql: Db, id: string, key: Pick<AuthedKey, 'id' | 'account_id'>): Promise<Record<string, unknown> | null> {
  const [row] = await sql<{ response: Record<string, unknown> }[]>`SELECT response FROM search_archive WHERE ${owned(sql, id, key)}`;
  return row ? row.response : null;
}

export async function readArchivedPage(
  sql: Db,
  id: string,
  key: Pick<AuthedKey, 'id' | 'account_id'>,
): Promise<{ body: Buffer; contentType: string | null } | null> {
  const [row] = await sql<{ raw_page: Buffer; raw_content_type: string | null }[]>`
    SELECT raw_page, raw_content_type FROM search_archive WHERE ${owned(sql, id, key)} AND raw_page IS NOT NULL`;
  return row ? { body: await gunzip(row.raw_page), contentType: row.raw_content_type } : null;
}

export async function purgeExpiredSearches(sql: Db): Promise<number> {
  const rows = await sql<{ id: string }[]>`DELETE FROM search_archive WHERE expires_at <= now() RETURNING id`;
  return rows.length;
}
