import type { Sql } from '../db/client.js';
import { Limited } from './errors.js';

/** Sliding 60-second window per key, kept in PostgreSQL so every API process agrees. */
export async function takeRateLimit(sql: Sql, keyId: string, limit: number): Promise<void> {
  const [row] = await sql`SELECT rate_limit_take(${keyId}, ${limit}) AS ok`;
  if (!row.ok) throw new Limited(`rate limit ${limit}/min exceeded`, true);
}
