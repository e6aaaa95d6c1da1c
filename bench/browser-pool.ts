/**
 * The browser path under load: the service in its own process (as `npm start` runs it) with the
 * flight metasearch in browser mode, the booking page replayed with its page-signed RPC
 * (test/replay/signed-sites.ts). First one call at a time (the time of one browser call), then
 * rounds of 20 concurrent `get_booking_options` calls against the default pool (2 contexts, 8
 * waiting): every call must end answered (200) or refused with 503 browser_busy, none may hang, and
 * the memory of the service and its Chromium processes is sampled throughout.
 *
 *   npx tsx bench/browser-pool.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSql } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { createKey } from '../src/platform/keys.js';
import { normalizeFlightSearch } from '../src/sources/metasearch/flights/params.js';
import { encodeBookingToken } from '../src/sources/metasearch/flights/tokens.js';
import { searchFlights } from '../tools/flights.js';
import { CHROMIUM } from '../test/helpers/chromium.js';
import { freePort } from '../test/helpers/free-port.js';
import { spawnServer } from '../test/helpers/spawn-service.js';
import { startReplayServer } from '../test/replay/server.js';
import { BOOKING_RPC_PATH, Signer, signedFlightRoutes } from '../test/replay/signed-sites.js';
import { median } from './harness.js';
import { field, pct, peakSampler, sample } from './process-memory.js';

const CONCURRENCY = Number(process.env.BENCH_BROWSER_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_BROWSER_ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.BENCH_BROWSER_SEQUENTIAL ?? 10);
/** A call slower than this has hung (the service bounds each browser call at 30 s, plus its wait). */
const HANG_MS = 120_000;

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.log(`## Browser path under load\n\nskipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
    return;
  }
  const signer = new Signer();
  const replay = await startReplayServer(signedFlightRoutes(signer));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-browser-'));
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const sql = createSql(databaseUrl, { max: 1 });
  await migrate(sql);
  const key = (await createKey(sql, { name: `bench-browser-${Date.now()}`, rateLimit: 1_000_000, plan: 'enterprise' })).key;
  await sql.end();
  const startFlags = (JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string).split(/\s+/).filter((t) => t.startsWith('--max-'));
  const server = await spawnServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      BOOTSTRAP_KEY: 'false',
      RUN_WORKER: 'false',
      UPSTREAM_METASEARCH_URL: replay.url,
      UPSTREAM_METASEARCH_MODE: 'browser',
      UPSTREAM_BROWSER_ALLOW_PRIVATE: 'true',
      UPSTREAM_RETRIES: '0',
    },
    120_000,
    { nodeFlags: startFlags },
  );
  const pid = server.child.pid!;
  const input = searchFlights.input.parse({
    departure_id: 'SFO',
    arrival_id: 'JFK',
    outbound_date: '2026-07-15',
    flight_type: 'one_way',
    currency: 'USD',
    hl: 'en',
    gl: 'us',
  });
  const search = normalizeFlightSearch(input as Parameters<typeof normalizeFlightSearch>[0]);
  const token = encodeBookingToken(search, [[{ from: 'SFO', date: '2026-07-15', to: 'JFK', airline: 'B6', flightNumber: '16' }]], {
    price_token: null,
    price: 110,
    currency: 'USD',
  });
  const book = async (): Promise<{ status: number; ms: number; detail?: string }> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/serp/metasearch_flights_booking`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ booking_token: token }),
      signal: AbortSignal.timeout(HANG_MS),
    });
    const body = (await res.json()) as { booking_options?: unknown[]; detail?: string };
    if (res.status === 200 && body.booking_options?.length !== 3) throw new Error(`an answer without the 3 options: ${JSON.stringify(body).slice(0, 300)}`);
    return { status: res.status, ms: performance.now() - started, detail: body.detail };
  };

  const idle = sample(pid);
  // one call at a time: the browser's launch, then the time of one call
  const first = await book();
  if (first.status !== 200) throw new Error(`the first booking call answered ${first.status}: ${first.detail}\n${server.output().slice(-2000)}`);
  const sequential: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const r = await book();
    if (r.status !== 200) throw new Error(`a sequential call answered ${r.status}: ${r.detail}`);
    sequential.push(r.ms);
  }
  const afterSequential = sample(pid);

  const sampler = peakSampler(pid);
  const statuses: Record<string, number> = {};
  const answered: number[] = [];
  const busy: number[] = [];
  const details = new Set<string>();
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const results = await Promise.all(Array.from({ length: CONCURRENCY }, book));
    for (const r of results) {
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) answered.push(r.ms);
      else if (r.status === 503 && r.detail?.startsWith('browser_busy')) busy.push(r.ms);
      else details.add(`${r.status} ${r.detail}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  sampler.stop();
  const peak = sampler.peak();
  const hwm = field(pid, 'status', 'VmHWM');
  const rpcCalls = replay.requests.filter((r) => r.path === BOOKING_RPC_PATH).length;
  server.child.kill('SIGTERM');
  await server.exited;
  await replay.close();
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (details.size) throw new Error(`answers other than 200 or browser_busy: ${[...details].join('; ')}`);

  const f = (n: number) => n.toFixed(0);
  console.log(
    [
      `## Browser path under load (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Chromium ${CHROMIUM}, ${process.env.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL)`,
      '',
      `\`get_booking_options\` in browser mode: each call opens the replayed booking page in a fresh context, whose script signs and posts GetBookingResults; the reply is captured and parsed. Default pool: 2 contexts, 8 waiting.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| first call (browser launch included) | ${f(first.ms)} ms |`,
      `| **p50 per browser call**, one at a time (${SEQUENTIAL} calls) | **${f(median(sequential))} ms** (p90 ${f(pct(sequential, 0.9))} ms) |`,
      `| ${ROUNDS} rounds of ${CONCURRENCY} concurrent calls | ${JSON.stringify(statuses)} in ${seconds.toFixed(1)} s; answered ${answered.length}, browser_busy ${busy.length}, other 0, none hung |`,
      `| answered under load: p50 / max | ${f(median(answered))} / ${f(Math.max(...answered))} ms |`,
      `| browser_busy: p50 / max time to the refusal | ${busy.length ? `${f(median(busy))} / ${f(Math.max(...busy))} ms` : '—'} |`,
      `| signed RPC calls the replay answered | ${rpcCalls} |`,
      `| service RSS idle / after the sequential calls / peak (VmHWM) | ${f(idle.serviceRss)} / ${f(afterSequential.serviceRss)} / ${f(hwm)} MB |`,
      `| service + Chromium, peak sampled every 100 ms: RSS sum / PSS sum | **${f(peak.treeRss)}** / ${f(peak.treePss)} MB (${peak.processes} processes) |`,
      `| service + Chromium after the sequential calls: RSS sum / PSS sum | ${f(afterSequential.treeRss)} / ${f(afterSequential.treePss)} MB |`,
    ].join('\n'),
  );
}

await main();
