import type { Sql } from '../db/client.js';
import { Limited } from './errors.js';
import { GroupCommit } from './group-commit.js';

/** Sliding 60-second window per key, kept in PostgreSQL so every API process agrees. */
export async function takeRateLimit(sql: Sql, keyId: string, limit: number): Promise<void> {
  const [row] = await sql`SELECT rate_limit_take(${keyId}, ${limit}) AS ok`;
  if (!row.ok) throw new Limited(`rate limit ${limit}/min exceeded`, true);
}

/** The same window; slots of concurrent calls are taken in one statement (group commit). */
export class RateLimiter {
  private readonly group: GroupCommit<{ bucket: string; limit: number }, boolean>;

  constructor(sql: Sql) {
    this.group = new GroupCommit(
      async (items) => {
        const [row] = await sql`SELECT rate_limit_take_many(${sql.array(items.map((i) => i.bucket))}::text[], ${sql.array(items.map((i) => i.limit))}::int[]) AS ok`;
        return row.ok as boolean[];
      },
      async ({ bucket, limit }) => {
        const [row] = await sql`SELECT rate_limit_take(${bucket}, ${limit}) AS ok`;
        return row.ok as boolean;
      },
    );
  }

  /** True when the call is admitted. */
  take(bucket: string, limit: number): Promise<boolean> {
    return this.group.submit({ bucket, limit });
  }
}
