import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { passwordRuleProblem } from './password-rules.js';

/** scrypt cost: N=2^15, r=8 needs 32 MiB per hash (memory-hard); stored with every hash so it can be raised later. */
const PARAMS = { N: 32_768, r: 8, p: 1, keylen: 32, saltBytes: 16 } as const;
const MAX_N = 1 << 20;
const MAXMEM = 256 * 1024 * 1024;

// 32 symbols, Crockford-like (no i, l, o, u): every random byte maps without bias (256 % 32 = 0).
const TEMP_ALPHABET = 'abcdefghjkmnpqrstvwxyz0123456789';
// Unknown accounts are checked against this, so that their answer takes as long.
const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`;

function derive(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keylen, { ...opts, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url): salt and parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(PARAMS.saltBytes);
  const key = await derive(password, salt, PARAMS.keylen, { N: PARAMS.N, r: PARAMS.r, p: PARAMS.p });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check against a stored hash; a malformed or absent hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every(Number.isInteger) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (salt.length < 8 || expected.length < 16) return false;
  const actual = await derive(password, salt, expected.length, { N, r, p });
  return stored !== null && timingSafeEqual(actual, expected);
}

/** 20 random symbols (100 bits) in groups of five, easy to read out and type once. */
export function temporaryPassword(): string {
  const bytes = randomBytes(20);
  const chars = [...bytes].map((b) => TEMP_ALPHABET[b & 31]);
  return [0, 5, 10, 15].map((i) => chars.slice(i, i + 5).join('')).join('-');
}

/** The reason a new password is refused, or null when it is acceptable. */
export function newPasswordProblem(o: { next: string; confirm: string; current: string; email: string }): string | null {
  const broken = passwordRuleProblem(o.next, o.email);
  if (broken) return broken.replace(/^The password/, 'The new password');
  if (o.next !== o.confirm) return 'The two new passwords do not match.';
  if (o.next === o.current) return 'The new password must differ from the current one.';
  return null;
}
