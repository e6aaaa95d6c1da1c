import postgres from 'postgres';
import { inject } from 'vitest';
import { randomToken } from '../../src/domain/ids.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file on the run's PostgreSQL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = inject('adminDatabaseUrl');
  const name = `t_${randomToken(10)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  const sql = postgres(admin, { max: 1, onnotice: () => undefined });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  await sql.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const s = postgres(admin, { max: 1, onnotice: () => undefined });
      await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await s.end();
    },
  };
}
