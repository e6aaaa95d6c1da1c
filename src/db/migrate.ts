import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './client.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
// Any fixed number: two processes starting at once wait on it instead of racing.
const MIGRATION_LOCK = 727_001;

/** Applies numbered plain-SQL files in order, each in its own transaction, under a session advisory lock. */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await fs.readdir(dir)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
  const conn = await sql.reserve();
  const applied: string[] = [];
  try {
    await conn`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    await conn`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const done = new Set((await conn`SELECT name FROM schema_migrations`).map((r) => r.name as string));
    for (const file of files) {
      if (done.has(file)) continue;
      const text = await fs.readFile(path.join(dir, file), 'utf8');
      await conn.unsafe('BEGIN');
      try {
        await conn.unsafe(text);
        await conn`INSERT INTO schema_migrations (name) VALUES (${file})`;
        await conn.unsafe('COMMIT');
      } catch (err) {
        await conn.unsafe('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file);
    }
  } finally {
    await conn`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => undefined);
    conn.release();
  }
  return applied;
}
