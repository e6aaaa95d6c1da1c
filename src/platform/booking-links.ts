import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db, Sql } from '../db/client.js';

/*
 * The owner of booking_links and signing_keys: short-lived GET links that stand for a seller's
 * POST click-out (the flight metasearch's booking form), so that a person (or a chat app's Book
 * button) can open what a program would post. A link is `/v1/book/<id>?e=<expiry, unix s>&s=<HMAC>`:
 * no key in it, no credits to open it; the HMAC (of id and expiry, with a key kept in the
 * database and shared by every process) refuses a forged or prolonged link before any read.
 */

/** How long a link opens: long enough to show a person and be clicked, short enough that a leaked one soon dies. */
const BOOKING_LINK_TTL_S = 60 * 60;
/** The route a link opens (doors/booking/booking-link-route.ts). */
export const BOOKING_LINK_PATH = '/v1/book';

const KEY_NAME = 'booking-links';
/** Expired links kept this long before a mint deletes them (a person opening one late is told it expired, not that it never was). */
const KEEP_EXPIRED_S = 24 * 60 * 60;

export interface BookingForm {
  url: string;
  post_data?: string;
}

export interface BookingLink {
  url: string;
  method: 'GET';
  expires_at: string;
}

const keys = new WeakMap<object, Promise<Buffer>>();

/** The signing key, made by whichever process needs it first (every process reads the same row). */
function signingKey(sql: Sql): Promise<Buffer> {
  let key = keys.get(sql);
  if (!key) {
    key = (async () => {
      await sql`INSERT INTO signing_keys (name, secret) VALUES (${KEY_NAME}, ${randomBytes(32)}) ON CONFLICT (name) DO NOTHING`;
      const [row] = await sql<{ secret: Buffer }[]>`SELECT secret FROM signing_keys WHERE name = ${KEY_NAME}`;
      return row.secret;
    })();
    key.catch(() => keys.delete(sql));
    keys.set(sql, key);
  }
  return key;
}

const signature = (key: Buffer, id: string, expires: number) =>
  createHmac('sha256', key).update(`${id}.${expires}`).digest().subarray(0, 16).toString('base64url');

/**
 * Whether a seller's click-out may become a link: an absolute http(s) URL only. A form posting to
 * a javascript: or data: URL would run on this service's origin; a relative one has no seller.
 */
export function isClickOutUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Stores `forms` for the account and returns a link for each, in order; `base` is this service's
 * public origin. Expired links older than a day go in the same statement.
 */
export async function mintBookingLinks(sql: Sql, accountId: string, base: string, forms: BookingForm[], now = new Date()): Promise<BookingLink[]> {
  if (!forms.length) return [];
  const key = await signingKey(sql);
  const expires = Math.floor(now.getTime() / 1000) + BOOKING_LINK_TTL_S;
  const ids = forms.map(() => randomBytes(16).toString('base64url'));
  await sql`
    WITH gone AS (
      DELETE FROM booking_links WHERE id IN (
        SELECT id FROM booking_links WHERE expires_at < ${now} - make_interval(secs => ${KEEP_EXPIRED_S}) LIMIT 500))
    INSERT INTO booking_links (id, account_id, target_url, post_data, expires_at)
    SELECT x.id, ${accountId}, x.url, x.post_data, to_timestamp(${expires})
    FROM unnest(${ids}::text[], ${forms.map((f) => f.url)}::text[], ${forms.map((f) => f.post_data ?? null) as never}::text[]) AS x(id, url, post_data)`;
  const expiresAt = new Date(expires * 1000).toISOString();
  return ids.map((id) => ({ url: `${base}${BOOKING_LINK_PATH}/${id}?e=${expires}&s=${signature(key, id, expires)}`, method: 'GET', expires_at: expiresAt }));
}

export type OpenedLink = { status: 'ok'; form: BookingForm; expiresAt: Date } | { status: 'expired' } | { status: 'invalid' };

/** The form a link stands for: `invalid` for a forged or unknown link, `expired` past its expiry. */
export async function openBookingLink(sql: Sql, id: string, expires: string, sig: string, now = new Date()): Promise<OpenedLink> {
  const exp = Number(expires);
  if (!/^[A-Za-z0-9_-]{22}$/.test(id) || !Number.isSafeInteger(exp)) return { status: 'invalid' };
  const expected = Buffer.from(signature(await signingKey(sql), id, exp));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 'invalid' };
  if (exp * 1000 <= now.getTime()) return { status: 'expired' };
  const [row] = await (sql as Db)<{ target_url: string; post_data: string | null }[]>`
    SELECT target_url, post_data FROM booking_links WHERE id = ${id} AND expires_at > ${now}`;
  if (!row) return { status: 'invalid' };
  return { status: 'ok', form: { url: row.target_url, ...(row.post_data !== null ? { post_data: row.post_data } : {}) }, expiresAt: new Date(exp * 1000) };
}
