import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

let embedded: EmbeddedDatabase | null = null;

/**
 * One PostgreSQL for the run: DATABASE_URL when set (CI may point it at a local server),
 * else an embedded one. Each test file then creates its own database on it.
 */
export async function setup(project: TestProject): Promise<void> {
  let url = process.env.DATABASE_URL;
  if (!url) {
    const dataDir = path.resolve('.test-data');
    await fs.mkdir(dataDir, { recursive: true });
    embedded = await startEmbeddedPostgres({ dataDir, port: 55000 + Math.floor(Math.random() * 4000) });
    url = embedded.url;
  }
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`SELECT 1`;
  } finally {
    await sql.end();
  }
  project.provide('adminDatabaseUrl', url);
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
}
