import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// ids ('x' for '-' and '_'): every call has one, so their random bytes come from a pool, as randomUUID's do
const ID_ALPHABET = ALPHABET.replace(/[-_]/g, 'x');
const POOL_BYTES = 8192;

let pool = Buffer.alloc(0);
let used = 0;

function pooledBytes(n: number): Buffer {
  if (used + n > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, n));
    used = 0;
  }
  used += n;
  return pool.subarray(used - n, used);
}

function encode(bytes: Buffer, alphabet: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += alphabet[bytes[i] & 63];
  return out;
}

/** `n` URL-safe random characters (unbiased: 64 symbols, 6 bits each); for secrets, never pooled. */
export function randomToken(n: number): string {
  return encode(randomBytes(n), ALPHABET);
}

/** Prefixed random id such as `req_…`, without characters that need escaping. */
export function newId(prefix: string, n = 24): string {
  return `${prefix}_${encode(pooledBytes(n), ID_ALPHABET)}`;
}
