/**
 * The browser path under load: the service in its own process (as `npm start` runs it) with the
 * flight metasearch in browser mode, the booking page replayed with its page-signed RPC
 * (test/replay/signed-sites.ts). First one call at a time (the time of one browser call), then
 * rounds of 20 concurrent `get_booking_options` calls against the default pool (2 contexts, 8
 * waiting): every call must end answered (200) or refused with 503 browser_busy, none may hang, and
 * the memory of the service and its Chromium processes is sampled throughout. Side by side: a fresh
 * context per call (UPSTREAM_BROWSER_WARM_S=0) and the default, a context kept warm per source and
 * cleared between calls.
 *
 *   npx tsx bench/browser-pool.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSql } from '../src/db/client.js';
import { addDays, todayUtc } from '../src/domain/dates.js';
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

/** What one setting measured. */
interface Figures {
  first: number;
  sequential: number[];
  statuses: Record<string, number>;
  seconds: number;
  answered: number[];
  busy: number[];
  timeouts: number[];
  rpcCalls: number;
  reuses: number;
  idle: ReturnType<typeof sample>;
  afterSequential: ReturnType<typeof sample>;
  peak: ReturnType<ReturnType<typeof peakSampler>['peak']>;
  hwm: number;
}

async function measure(warmSeconds: string): Promise<Figures> {
  const signer = new Signer();
  const replay = await startReplayServer(signedFlightRoutes(signer));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-browser-'));
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const sql = createSql(databaseUrl, { max: 1 });
  await migrate(sql);
  const key = (await createKey(sql, { name: `bench-browser-${Date.now()}`, rateLimit: 1_000_000, plan: 'enterprise' })).key;
  const admin = (await createKey(sql, { name: `bench-browser-admin-${Date.now()}`, rateLimit: 1_000_000, role: 'admin' })).key;
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
      UPSTREAM_BROWSER_WARM_S: warmSeconds,
    },
    120_000,
    { nodeFlags: startFlags },
  );
  const pid = server.child.pid!;
  const day = addDays(todayUtc(), 60);
  const input = searchFlights.input.parse({
    departure_id: 'SFO',
    arrival_id: 'JFK',
    outbound_date: day,
    flight_type: 'one_way',
    currency: 'USD',
    hl: 'en',
    gl: 'us',
  });
  const search = normalizeFlightSearch(input as Parameters<typeof normalizeFlightSearch>[0]);
  const token = encodeBookingToken(search, [[{ from: 'SFO', date: day, to: 'JFK', airline: 'B6', flightNumber: '16' }]], {
    price_token: null,
    price: 110,
    currency: 'USD',
  });
  const book = async (): Promise<{ status: number; ms: number; detail?: string }> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/serp/metasearch_flights_booking`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ booking_token: token, no_cache: true }),
      signal: AbortSignal.timeout(HANG_MS),
    });
    const body = (await res.json()) as { booking_options?: unknown[]; detail?: string };
    if (res.status === 200 && body.booking_options?.length !== 3) throw new Error(`an answer without the 3 options: ${JSON.stringify(body).slice(0, 300)}`);
    return { status: res.status, ms: performance.now() - started, detail: body.detail };
  };

  const idle = sample(pid);
  // one call at a time: the browser's launch, then the time of one call
  let first = await book();
  // on a loaded machine Chromium's start can outlast the first call's budget: that call is retried
  for (let retry = 0; retry < 2 && first.status !== 200; retry++) first = await book();
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
  const timeouts: number[] = [];
  const details = new Set<string>();
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const results = await Promise.all(Array.from({ length: CONCURRENCY }, book));
    for (const r of results) {
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) answered.push(r.ms);
      else if (r.status === 503 && r.detail?.startsWith('browser_busy')) busy.push(r.ms);
      // a call whose page outlasted its 30 s budget on a loaded machine: counted, not fatal
      else if (r.status === 502 && r.detail === 'BrowserTimeout') timeouts.push(r.ms);
      else details.add(`${r.status} ${r.detail}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  sampler.stop();
  const peak = sampler.peak();
  const hwm = field(pid, 'status', 'VmHWM');
  const rpcCalls = replay.requests.filter((r) => r.path === BOOKING_RPC_PATH).length;
  const metrics = await (await fetch(`${server.url}/metrics`, { headers: { 'x-api-key': admin } })).text();
  const reuses = Number(/^hotelrates_browser_context_reuses (\d+)/m.exec(metrics)?.[1] ?? 0);
  server.child.kill('SIGTERM');
  await server.exited;
  await replay.close();
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (details.size) throw new Error(`answers other than 200, browser_busy or BrowserTimeout: ${[...details].join('; ')}`);

  return { first: first.ms, sequential, statuses, seconds, answered, busy, timeouts, rpcCalls, reuses, idle, afterSequential, peak, hwm };
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.log(`## Browser path under load\n\nskipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);
    return;
  }
  const fresh = await measure('0');
  const warm = await measure('60');
  const f = (n: number) => n.toFixed(0);
  const row = (label: string, value: (x: Figures) => string) => `| ${label} | ${value(fresh)} | ${value(warm)} |`;
  console.log(
    [
      `## Browser path under load (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Chromium ${CHROMIUM}, ${process.env.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL)`,
      '',
      `\`get_booking_options\` in browser mode, every call live (\`no_cache\`): each call opens the replayed booking page, whose script signs and posts GetBookingResults; the reply is captured and parsed. Default pool: 2 contexts, 8 waiting. Before: a fresh context per call (\`UPSTREAM_BROWSER_WARM_S=0\`); after: the default, a context kept warm per source and cleared of cookies and storage between calls.`,
      '',
      '| measure | fresh context per call | warm context (default) |',
      '|---|---|---|',
      row('first call (browser launch included)', (x) => `${f(x.first)} ms`),
      row(`**p50 per browser call**, one at a time (${SEQUENTIAL} calls)`, (x) => `**${f(median(x.sequential))} ms** (p90 ${f(pct(x.sequential, 0.9))} ms)`),
      row(
        `${ROUNDS} rounds of ${CONCURRENCY} concurrent calls`,
        (x) =>
          `${JSON.stringify(x.statuses)} in ${x.seconds.toFixed(1)} s; answered ${x.answered.length}, browser_busy ${x.busy.length}, BrowserTimeout ${x.timeouts.length}`,
      ),
      row('answered under load: p50 / max', (x) => `${f(median(x.answered))} / ${f(Math.max(...x.answered))} ms`),
      row('browser_busy: p50 / max time to the refusal', (x) => (x.busy.length ? `${f(median(x.busy))} / ${f(Math.max(...x.busy))} ms` : '—')),
      row('calls served by a warm context', (x) => String(x.reuses)),
      row('signed RPC calls the replay answered', (x) => String(x.rpcCalls)),
      row(
        'service RSS idle / after the sequential calls / peak (VmHWM)',
        (x) => `${f(x.idle.serviceRss)} / ${f(x.afterSequential.serviceRss)} / ${f(x.hwm)} MB`,
      ),
      row(
        'service + Chromium, peak sampled every 100 ms: RSS sum / PSS sum',
        (x) => `**${f(x.peak.treeRss)}** / ${f(x.peak.treePss)} MB (${x.peak.processes} processes)`,
      ),
      row('service + Chromium after the sequential calls: RSS sum / PSS sum', (x) => `${f(x.afterSequential.treeRss)} / ${f(x.afterSequential.treePss)} MB`),
    ].join('\n'),
  );
}

await main();
