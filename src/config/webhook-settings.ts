/*
 * The webhook settings, parsed and checked at start: WEBHOOK_SIGNING_SECRET (a Standard Webhooks
 * secret, https://www.standardwebhooks.com) and WEBHOOK_RETRY_SCHEDULE_S. Kept free of I/O; the
 * worker signs with the key `webhookSigningKey` derives (jobs/webhook-signing.ts).
 */

const SECRET_PREFIX = 'whsec_';
/** The spec's bounds for a symmetric signing secret. */
const SECRET_MIN_BYTES = 24;
const SECRET_MAX_BYTES = 64;

/**
 * The HMAC key of a `whsec_<base64>` secret. Anything else is refused: a plain secret of the former
 * homemade `x-signature` scheme cannot be used by a Standard Webhooks verifier as it stands, so the
 * operator makes a new secret and gives it to the receivers.
 */
export function webhookSigningKey(secret: string): Buffer {
  const generate = `make one with: node -e "console.log('whsec_' + require('crypto').randomBytes(32).toString('base64'))"`;
  if (!secret.startsWith(SECRET_PREFIX)) {
    throw new Error(
      `must be a Standard Webhooks secret, whsec_ followed by the base64 of ${SECRET_MIN_BYTES}-${SECRET_MAX_BYTES} random bytes (plain secrets of the former x-signature scheme are no longer accepted); ${generate}`,
    );
  }
  const encoded = secret.slice(SECRET_PREFIX.length);
  const key = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) {
    throw new Error(`the part after whsec_ must be standard base64; ${generate}`);
  }
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES) {
    throw new Error(`the secret must hold ${SECRET_MIN_BYTES}-${SECRET_MAX_BYTES} bytes, this one holds ${key.length}; ${generate}`);
  }
  return key;
}

/** The spec's example schedule after the immediate first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const STANDARD_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,50400,72000,86400';

/** WEBHOOK_RETRY_SCHEDULE_S: delays in seconds before each retry, comma-separated; `none` for a single attempt. */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === 'none') return [];
  const delays = text.split(',').map((s) => Number(s.trim()));
  if (!delays.length || delays.some((d) => !Number.isFinite(d) || d < 0 || d > 7 * 86_400)) throw new Error(`not a list of delays: ${text.slice(0, 100)}`);
  return delays;
}
