import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { sharedFixturesProblem } from './fixtures.js';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

let embedded: EmbeddedDatabase | null = null;
let dataDir: string | null = null;

const REPO = path.resolve(import.meta.dirname, '../..');

/**
 * The recorded fixtures first: without ../shared/fixtures the run fails at once with what to do
 * (most parser and route tests read them; none may pass by being skipped). Then the build: the
 * tests that start the service, a worker or the stdio server as their own process run the
 * compiled JavaScript (dist/) as users do, and the build brings it up to date with the sources
 * (it only compiles what changed). Then one PostgreSQL for the run:
 * DATABASE_URL when set (CI may point it at a local server), else an embedded one. Each test
 * file then creates its own database on it.
 */
export async function setup(project: TestProject): Promise<void> {
  const fixtures = sharedFixturesProblem();
  if (fixtures) throw new Error(fixtures);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
  let url = process.env.DATABASE_URL;
  if (!url) {
    // A cluster of this run's own: concurrent runs never share (or stop) each other's.
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hotelrates-test-'));
    embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), ownProcessGroup: false });
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
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}
