import { createHash } from 'node:crypto';
import { durable, type Sql, type Tx } from '../db/client.js';
import { Conflict } from '../domain/errors.js';

function bodyHash(body: unknown): string {
  return createHash('sha256').update(submissionText(body)).digest('hex');
}

/** A body as one text (keys sorted, undefined fields dropped): the same body in another key order is the same submission. */
function submissionText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(submissionText).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${submissionText((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/*
 * The owner of idempotency_keys: one row per (key, scope, Idempotency-Key) that created something.
 */

/**
 * Runs `create` at most once per (key, scope, Idempotency-Key): the same body returns the
 * original resource id, another body is a 409. Concurrent duplicates wait on one lock, so
 * they produce one effect.
 */
export async function once(
  sql: Sql,
  opts: { keyId: string; accountId: string; scope: string; idempotencyKey: string; body: unknown },
  create: (tx: Tx) => Promise<string>,
): Promise<{ resourceId: string; replayed: boolean }> {
  const hash = bodyHash(opts.body);
  return sql.begin(async (tx) => {
    await durable(tx);
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`${opts.keyId}|${opts.scope}|${opts.idempotencyKey}`}))`;
    const [prior] = await tx<{ body_hash: string; resource_id: string }[]>`SELECT body_hash, resource_id FROM idempotency_keys
      WHERE key_id = ${opts.keyId} AND scope = ${opts.scope} AND idem_key = ${opts.idempotencyKey}`;
    if (prior) {
      if (prior.body_hash !== hash) throw new Conflict('Idempotency-Key reused with a different body');
      return { resourceId: prior.resource_id, replayed: true };
    }
    const resourceId = await create(tx);
    await tx`INSERT INTO idempotency_keys (key_id, account_id, scope, idem_key, body_hash, resource_id)
      VALUES (${opts.keyId}, ${opts.accountId}, ${opts.scope}, ${opts.idempotencyKey}, ${hash}, ${resourceId})`;
    return { resourceId, replayed: false };
  });
}
