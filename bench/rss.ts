/**
 * Memory under load: the service in its own process (as `npm start` runs it), 50 concurrent hotel
 * searches whose upstream page is a recorded 2.7 MB results page padded to 3 MiB (gzip on the wire,
 * as the real site sends it), several rounds;
 * the service's peak resident set (VmHWM from /proc) against the 250 MB budget.
 *
 *   npx tsx bench/rss.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSql } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { freePort } from '../test/helpers/free-port.js';
import { createKey } from '../src/platform/keys.js';
import { addDays, todayUtc } from '../src/domain/dates.js';
import { readFixture } from '../test/helpers/fixtures.js';
import { spawnServer } from '../test/helpers/spawn-service.js';
import { startReplayServer } from '../test/replay/server.js';
import { field } from './process-memory.js';

const CONCURRENCY = Number(process.env.BENCH_RSS_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_RSS_ROUNDS ?? 4);
const PAGE_BYTES = 3 * 1024 * 1024;
const BUDGET_MB = 250;

async function main() {
  const recorded = readFixture('google-hotels/travel-search-tokyo-standard.html');
  const padding = PAGE_BYTES - Buffer.byteLength(recorded);
  const page = padding > 0 ? `${recorded}<!--${'x'.repeat(padding - 7)}-->` : recorded;
  // gzip on the wire, as the real site sends its pages
  const replay = await startReplayServer([{ path: '/travel/search', body: page, encoding: 'gzip' }]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rss-'));
  // the database the service will use, started here so that the key made for the load has no rate limit in its way
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const sql = createSql(databaseUrl, { max: 1 });
  await migrate(sql);
  const key = (await createKey(sql, { name: `bench-rss-${Date.now()}`, rateLimit: 1_000_000, plan: 'enterprise' })).key;
  await sql.end();
  // node's own flags as `npm start` passes them (package.json), so the process is the one users run
  const startFlags = (JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start as string).split(/\s+/).filter((t) => t.startsWith('--max-'));
  const server = await spawnServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      BOOTSTRAP_KEY: 'false',
      UPSTREAM_METASEARCH_URL: replay.url,
      UPSTREAM_RETRIES: '0',
      RUN_WORKER: 'false',
      ...(process.env.BENCH_SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS } : {}),
    },
    120_000,
    { nodeFlags: startFlags },
  );
  const pid = server.child.pid!;
  const body = JSON.stringify({ q: 'Tokyo', check_in: addDays(todayUtc(), 30), nights: 1 });
  const search = async () => {
    try {
      const res = await fetch(`${server.url}/v1/hotels/search`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      return res.status;
    } catch (err) {
      throw new Error(`the service failed: ${server.output().slice(-2000)}`, { cause: err });
    }
  };
  const first = await search();
  if (first !== 200) throw new Error(`the search answered ${first}, not 200`);
  const idle = field(pid, 'status', 'VmRSS');
  let peakSampled = 0;
  const sampler = setInterval(() => (peakSampled = Math.max(peakSampled, field(pid, 'status', 'VmRSS'))), 25);
  const statuses: Record<number, number> = {};
  const started = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of await Promise.all(Array.from({ length: CONCURRENCY }, search))) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const hwm = field(pid, 'status', 'VmHWM');
  server.child.kill('SIGTERM');
  await server.exited;
  if (process.env.SHOW_OUTPUT)
    console.log(
      server
        .output()
        .split('\n')
        .filter((l) => l.includes('MEMMAX'))
        .join('\n'),
    );
  await replay.close();
  await embedded?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(
    [
      `## Memory under load (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${process.env.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL)`,
      '',
      `${ROUNDS} rounds of ${CONCURRENCY} concurrent hotel searches, each parsing a ${(PAGE_BYTES / 1024 / 1024).toFixed(0)} MiB results page (answers: ${JSON.stringify(statuses)}; ${seconds.toFixed(1)} s):`,
      '',
      '| measure | MB |',
      '|---|---|',
      `| service RSS idle, after one search | ${idle.toFixed(0)} |`,
      `| service RSS peak under load (VmHWM) | ${hwm.toFixed(0)} |`,
      `| service RSS peak, sampled every 25 ms | ${peakSampled.toFixed(0)} |`,
      '',
      `Peak RSS ${hwm.toFixed(0)} MB: ${hwm <= BUDGET_MB ? 'within' : 'over'} the ${BUDGET_MB} MB budget.`,
    ].join('\n'),
  );
}

await main();
