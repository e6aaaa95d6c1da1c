import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `n` URL-safe random characters (unbiased: 64 symbols, 6 bits each). */
export function randomToken(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[bytes[i] & 63];
  return out;
}

/** Prefixed random id such as `req_…`, without characters that need escaping. */
export function newId(prefix: string, n = 24): string {
  return `${prefix}_${randomToken(n).replace(/[-_]/g, 'x')}`;
}
