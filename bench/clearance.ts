/**
 * Clearance reuse against a challenged source, before and after, side by side in one run: the first
 * OTA's room page behind a replayed AWS WAF (test/replay/walls.ts: 202 interstitial, `aws-waf-token`
 * set by its script), called through the service in its own process (as `npm start` runs it):
 *
 * - plain: the same page without the wall (the plain path's own time on this replay);
 * - before: the wall, `UPSTREAM_CLEARANCE_REUSE=false`: every call is refused plainly and cleared in
 *   the browser for itself (a fresh context per call, the pool of 2 contexts and 8 waiting);
 * - after: the wall, clearance reuse on (the default): one browser visit, then plain calls with the kept token.
 *
 * Each: 100 sequential calls, then 20 concurrent ones; browser visits, p50/p99, `browser_busy`
 * answers, peak RSS and PSS of the service with its Chromium processes.
 *
 *   npx tsx bench/clearance.ts      (DATABASE_URL or an embedded PostgreSQL; BENCH_CLEARANCE_SEQUENTIAL, BENCH_CLEARANCE_CONCURRENT)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSql } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { createKey } from '../src/platform/keys.js';
import { CHROMIUM } from '../test/helpers/chromium.js';
import { freePort } from '../test/helpers/free-port.js';
import { spawnServer } from '../test/helpers/spawn-service.js';
import { OTAONE_PROPERTY_PAGE } from '../test/fixtures/ota-payloads.js';
import { startReplayServer } from '../test/replay/server.js';
import { AwsWafWall } from '../test/replay/walls.js';
import { median } from './harness.js';
import { pct, peakSampler, sample } from './process-memory.js';

const SEQUENTIAL = Number(process.env.BENCH_CLEARANCE_SEQUENTIAL ?? 100);
/** Sequential calls of the browser-per-call setting (each one a browser visit: slow on a loaded machine). */
const BROWSER_SEQUENTIAL = Number(process.env.BENCH_CLEARANCE_BROWSER_SEQUENTIAL ?? SEQUENTIAL);
const CONCURRENT = Number(process.env.BENCH_CLEARANCE_CONCURRENT ?? 20);
const PAGE = '/hotel/rs/example-centre.en-gb.html';
const ROOMS = {
  pagename: 'example-centre',
  country: 'rs',
  check_in: '2026-12-01',
  nights: 2,
  currency: 'EUR',
};
/** A call slower than this has hung. */
const HANG_MS = 180_000;

interface Run {
  name: string;
  sequential: number[];
  first: number;
  /** Sequential calls not answered 200 (a browser timeout on a loaded machine), as status and detail. */
  failed: string[];
  concurrent: number[];
  statuses: Record<string, number>;
  busy: number;
  browserVisits: number;
  tokensIssued: number;
  peakRss: number;
  peakPss: number;
  processes: number;
  idleRss: number;
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.log(`## Clearance reuse\n\nskipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-clearance-'));
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const sql = createSql(databaseUrl, { max: 1 });
  await migrate(sql);
  const key = (
    await createKey(sql, {
      name: `bench-clearance-${Date.now()}`,
      rateLimit: 1_000_000,
      plan: 'enterprise',
    })
  ).key;
  const admin = (
    await createKey(sql, {
      name: `bench-clearance-admin-${Date.now()}`,
      rateLimit: 1_000_000,
      plan: null,
      role: 'admin',
    })
  ).key;
  const startFlags = (JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string).split(/\s+/).filter((t) => t.startsWith('--max-'));

  const runs: Run[] = [];
  for (const setting of [
    { name: 'plain (no wall)', wall: false, reuse: 'true', sequential: SEQUENTIAL },
    { name: 'before: browser per call', wall: true, reuse: 'false', sequential: BROWSER_SEQUENTIAL },
    { name: 'after: clearance reuse', wall: true, reuse: 'true', sequential: SEQUENTIAL },
  ]) {
    const waf = new AwsWafWall();
    const replay = await startReplayServer(
      setting.wall ? [...waf.routes(), ...waf.protect({ path: PAGE, body: OTAONE_PROPERTY_PAGE })] : [{ path: PAGE, body: OTAONE_PROPERTY_PAGE }],
    );
    // each setting starts from no clearance
    await sql`DELETE FROM wall_clearances`;
    const server = await spawnServer(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        BOOTSTRAP_KEY: 'false',
        RUN_WORKER: 'false',
        RESULT_CACHE_ENABLED: 'false',
        UPSTREAM_OTAONE_URL: replay.url,
        UPSTREAM_BROWSER_ALLOW_PRIVATE: 'true',
        UPSTREAM_RETRIES: '0',
        UPSTREAM_CLEARANCE_REUSE: setting.reuse,
        // a loaded machine may take long to launch Chromium and run a page
        UPSTREAM_BROWSER_TIMEOUT_MS: '90000',
      },
      120_000,
      { nodeFlags: startFlags },
    );
    const pid = server.child.pid!;
    const call = async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}/v1/ota/otaone/rooms`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(ROOMS),
        signal: AbortSignal.timeout(HANG_MS),
      });
      const body = (await res.json()) as {
        rooms?: unknown[];
        detail?: string;
        error?: string;
      };
      return {
        status: res.status,
        ms: performance.now() - started,
        detail: body.detail ?? body.error ?? '',
      };
    };
    try {
      const idle = sample(pid);
      const sampler = peakSampler(pid);
      const sequential: number[] = [];
      const failed: string[] = [];
      for (let i = 0; i < setting.sequential; i++) {
        const r = await call();
        if (r.status === 200) sequential.push(r.ms);
        else failed.push(`${r.status} ${r.detail}`);
      }
      const results = await Promise.all(Array.from({ length: CONCURRENT }, call));
      sampler.stop();
      const statuses: Record<string, number> = {};
      for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      const metrics = await (await fetch(`${server.url}/metrics`, { headers: { 'x-api-key': admin } })).text();
      const browserVisits = metrics
        .split('\n')
        .filter((l) => l.startsWith('hotelrates_browser_calls_total{') && l.includes('source="otaone"'))
        .reduce((a, l) => a + Number(l.split(' ').at(-1)), 0);
      const peak = sampler.peak();
      runs.push({
        name: setting.name,
        first: sequential[0]!,
        failed,
        sequential: sequential.slice(1),
        concurrent: results.filter((r) => r.status === 200).map((r) => r.ms),
        statuses,
        busy: results.filter((r) => r.status === 503 && r.detail.includes('browser_busy')).length,
        browserVisits,
        tokensIssued: waf.issued,
        peakRss: peak.treeRss,
        peakPss: peak.treePss,
        processes: peak.processes,
        idleRss: idle.serviceRss,
      });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await replay.close();
    }
  }
  await sql.end();
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const f = (n: number | undefined) => (n === undefined ? '—' : n.toFixed(0));
  const row = (label: string, cell: (r: Run) => string) => `| ${label} | ${runs.map(cell).join(' | ')} |`;
  const plainP50 = median(runs[0]!.sequential);
  console.log(
    [
      `## Clearance reuse (\`bench/clearance.ts\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end, ${process.env.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL)`,
      '',
      `The first OTA's room page (\`POST /v1/ota/otaone/rooms\`) behind a replayed AWS WAF, through the service in its own process: ${SEQUENTIAL} sequential calls, then ${CONCURRENT} concurrent ones. Default browser pool (2 contexts, 8 waiting).`,
      '',
      `| measure | ${runs.map((r) => r.name).join(' | ')} |`,
      `|---|${runs.map(() => '---').join('|')}|`,
      row('browser visits (all calls)', (r) => String(r.browserVisits)),
      row('tokens the wall issued', (r) => String(r.tokensIssued)),
      row('first call', (r) => `${f(r.first)} ms`),
      row(
        'sequential calls answered 200 / not',
        (r) => `${r.sequential.length + 1} / ${r.failed.length}${r.failed.length ? ` (${[...new Set(r.failed)].join(', ')})` : ''}`,
      ),
      row('sequential p50 / p99 (all but the first)', (r) => `${f(median(r.sequential))} / ${f(pct(r.sequential, 0.99))} ms`),
      row('sequential p50 ÷ plain p50', (r) => (median(r.sequential)! / plainP50!).toFixed(2)),
      row(`${CONCURRENT} concurrent: answers`, (r) => JSON.stringify(r.statuses)),
      row(`${CONCURRENT} concurrent: browser_busy`, (r) => String(r.busy)),
      row(`${CONCURRENT} concurrent: p50 / p99 of the answered`, (r) => `${f(median(r.concurrent))} / ${f(pct(r.concurrent, 0.99))} ms`),
      row('service RSS idle', (r) => `${f(r.idleRss)} MB`),
      row('peak RSS / PSS, service + Chromium', (r) => `${f(r.peakRss)} / ${f(r.peakPss)} MB (${r.processes} processes)`),
    ].join('\n'),
  );
}

await main();
