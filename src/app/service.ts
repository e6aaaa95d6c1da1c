import type { Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type PgBoss from 'pg-boss';
import { TOOLS } from '../../tools/index.js';
import { assertPublicBaseUrl, type Config } from '../config/config.js';
import { createSql, type Sql } from '../db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { DatabaseOutage } from '../db/outage.js';
import { answerClientErrors } from './client-errors.js';
import { API_PORT, assertPortFree, listen } from './listen.js';
import { limitHeapGrowth } from './memory.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { BossQueue, NO_QUEUE, type JobQueue } from '../jobs/job-queue.js';
import type { CalendarWorker } from '../workers/calendar-worker.js';
import type { McpTaskWorker } from '../workers/mcp-task-worker.js';
import type { WatchScheduler } from '../workers/watch-scheduler.js';
import { JobsBrowser } from '../sources/jobsearch/browser.js';
import { SOURCES } from '../sources/registry.js';
import { UpstreamClient } from '../upstream/client.js';
import { BrowserFetcher } from '../upstream/browser-fetch.js';
import { addBrowserGauges, browserObserver } from '../ops/browser-metrics.js';
import { PREFIX } from '../ops/metrics.js';
import { SafeFetcher } from '../upstream/safe-fetch.js';
import { observedUpstream, websiteFetch } from '../upstream/scope.js';
import { Credits } from '../platform/credits.js';
import { PlatformPath } from '../platform/fast-path.js';
import { ensureFirstKey, type CreatedKey } from '../platform/keys.js';
import { randomToken } from '../domain/ids.js';
import { createOps, type Ops } from '../ops/ops.js';
import { ResultCacheStore } from '../platform/result-cache.js';
import { ResultCache } from '../core/result-cache.js';
import { WallClearanceStore } from '../platform/wall-clearances.js';
import { ClearanceKeeper } from '../upstream/clearance.js';
import { IdentifierKeeper } from '../upstream/identifiers.js';
import { UpstreamIdentifierStore } from '../platform/upstream-identifiers.js';
import type { Tool } from '../core/define-tool.js';

export interface Database {
  url: string;
  sql: Sql;
  /** The pool's application_name, unique to this process (its connections in pg_stat_activity). */
  applicationName: string;
  embedded: EmbeddedDatabase | null;
  /** This process's view of database outages (logged once each; the queue and LISTEN report to it). */
  outage: DatabaseOutage;
  /** Waits up to `drainS` seconds for running queries, then stops the embedded cluster if this process started it. */
  close(drainS?: number): Promise<void>;
}

/** The configured PostgreSQL: external by DATABASE_URL, else the embedded one under DATA_DIR; migrated. */
export async function openDatabase(config: Config, log?: Logger): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.EMBEDDED_PG_PORT,
        systemDir: path.resolve(config.EMBEDDED_PG_SYSTEM_DIR),
        onLog: (l) => log?.debug({ pg: l.trim() }),
        onEvent: (event, fields) => log?.warn(fields, event),
      });
  const url = config.DATABASE_URL ?? embedded!.url;
  const applicationName = `hotelrates-${process.pid}-${randomToken(6)}`;
  const outage = new DatabaseOutage(log ?? null);
  const sql = createSql(url, { max: config.DB_POOL_MAX, applicationName, outage });
  try {
    await migrate(sql);
  } catch (err) {
    await sql.end({ timeout: 1 });
    await embedded?.stop();
    throw err;
  }
  return {
    url,
    sql,
    applicationName,
    embedded,
    outage,
    async close(drainS = 5) {
      await sql.end({ timeout: drainS });
      await embedded?.stop();
    },
  };
}

export interface Runtime {
  db: Database;
  deps: ServiceDeps;
  boss: PgBoss | null;
  worker: CalendarWorker | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  tools?: Tool[];
  log?: Logger;
  /** Run the calendar worker in this process; defaults to RUN_WORKER. */
  worker?: boolean;
  /** Start the batch queue (pg-boss): batch submissions and the worker need it; default true. */
  queue?: boolean;
  /** Seconds closing waits for running database queries (default 5). */
  drainS?: number;
}

export interface BuiltDeps {
  deps: ServiceDeps;
  /** Closes what the builder opened to the outside: the upstream connection pools and the browser. */
  close(): Promise<void>;
}

/**
 * The one place the service's dependencies are built: the HTTP API, `npm run worker`, the stdio
 * MCP server, the source check and the tests' service all take their upstream client, website
 * fetcher, browser, credits and queue from here, so a tool behaves the same whichever door it came
 * through. `ops` (metrics and upstream-outcome recording) is this process's own; the upstream
 * client reports every outcome to it. `queue`: the process's batch queue, or NO_QUEUE where none runs.
 */
export function buildDeps(config: Config, sql: Sql, log: Logger, tools: Tool[], queue: JobQueue, ops: Ops = createOps({ sql, log })): BuiltDeps {
  const credits = new Credits(sql);
  const platform = new PlatformPath(sql, credits);
  // until it listens, the key cache stays off (every call looks its key up)
  void platform.start();
  const results = new ResultCache(new ResultCacheStore(sql), config.resultCache, ops.metrics, log, tools);
  results.start();
  const clearanceStore = config.UPSTREAM_CLEARANCE_REUSE ? new WallClearanceStore(sql) : null;
  const clearances = clearanceStore
    ? new ClearanceKeeper(
        clearanceStore,
        { maxAgeS: config.UPSTREAM_CLEARANCE_MAX_AGE_S, waitMs: config.UPSTREAM_BROWSER_TIMEOUT_MS + 10_000 },
        log.child({ component: 'clearance' }),
        ops.outcomes,
      )
    : null;
  // the walls each source's manifest knows in front of it (src/sources/<alias>/guards.ts)
  const walls = Object.fromEntries(SOURCES.flatMap((s) => (s.guards ? [[s.alias, s.guards.walls]] : [])));
  const client = new UpstreamClient(config, log, config.dataDir, upstreamBrowser(config, log, ops), { clearances, events: ops.outcomes, walls });
  // the persisted-query hashes a source found again after a site release, sent by every process
  const identifiers = new IdentifierKeeper(new UpstreamIdentifierStore(sql), log.child({ component: 'identifiers' }), ops.outcomes);
  const jobsBrowser = new JobsBrowser();
  const deps: ServiceDeps = {
    config,
    sql,
    log,
    credits,
    platform,
    results,
    tools,
    ops,
    queue,
    upstream: observedUpstream(client, ops.outcomes, identifiers),
    safeFetch: websiteFetch(SafeFetcher.fromConfig(config)),
    jobsBrowser,
  };
  return {
    deps,
    async close() {
      await jobsBrowser.close();
      await client.close();
      await clearanceStore?.close();
      await results.close();
    },
  };
}

/** The upstream browser path (Chromium launched on first use), reporting to this process's metrics. */
function upstreamBrowser(config: Config, log: Logger, ops: Ops): BrowserFetcher {
  const browser = new BrowserFetcher(
    {
      executablePath: config.CHROMIUM_PATH,
      contexts: config.UPSTREAM_BROWSER_CONTEXTS,
      queue: config.UPSTREAM_BROWSER_QUEUE,
      timeoutMs: config.UPSTREAM_BROWSER_TIMEOUT_MS,
      memoryMb: config.UPSTREAM_BROWSER_MEMORY_MB,
      recyclePages: config.UPSTREAM_BROWSER_RECYCLE_PAGES,
      idleCloseMs: config.UPSTREAM_BROWSER_IDLE_CLOSE_S * 1000,
      warmContextMs: config.UPSTREAM_BROWSER_WARM_S * 1000,
      allowPrivate: config.UPSTREAM_BROWSER_ALLOW_PRIVATE,
      dataDir: config.dataDir,
    },
    log.child({ component: 'browser' }),
    browserObserver(ops.metrics.browser),
  );
  addBrowserGauges(ops.metrics.registry, PREFIX, browser);
  return browser;
}

/** Database, dependencies and, as asked, the queue and the batch worker: what every entry point runs on. */
export async function startRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? pino({ level: config.LOG_LEVEL });
  limitHeapGrowth(config.HEAP_GROWING_PERCENT);
  const runWorker = opts.worker ?? config.RUN_WORKER;
  const db = await openDatabase(config, log);
  let boss: PgBoss | null = null;
  // the queue, the workers and the HTTP app are loaded by the processes that run them (the stdio
  // server runs none of them by default, and its start is what a desktop client waits for)
  let jobs: Jobs | null = null;
  if (runWorker || opts.queue !== false) {
    try {
      jobs = await loadJobs();
      boss = await jobs.startQueue(db.url, config, log, db.outage);
      await jobs.ensureQueues(boss, db.sql, jobs.QUEUES);
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  const queue = boss ? new BossQueue(boss) : null;
  const ops = createOps({ sql: db.sql, log, pool: { max: config.DB_POOL_MAX, applicationName: db.applicationName } });
  const built = buildDeps(config, db.sql, log, opts.tools ?? TOOLS, queue ?? NO_QUEUE, ops);
  const { deps } = built;
  let worker: CalendarWorker | null = null;
  let taskWorker: McpTaskWorker | null = null;
  let watchScheduler: WatchScheduler | null = null;
  if (runWorker && jobs && queue) {
    worker = await jobs.startCalendarWorker(deps, queue.boss());
    taskWorker = await jobs.startMcpTaskWorker(deps, queue.boss());
    queue.addWorker(worker);
    queue.addWorker(taskWorker);
    watchScheduler = await jobs.startWatchScheduler(deps, queue.boss());
    await jobs.startArchivePurge(deps, queue.boss());
    await jobs.startResultCachePurge(deps, queue.boss());
    await jobs.startOAuthPrune(deps, queue.boss());
  }
  let closing: Promise<void> | null = null;
  return {
    db,
    deps,
    boss,
    worker,
    close() {
      closing ??= (async () => {
        await taskWorker?.stop();
        await watchScheduler?.stop();
        await boss?.stop({ graceful: true, wait: true, timeout: 5_000 }).catch(() => undefined);
        await built.close();
        await ops.outcomes.close();
        await deps.platform.close();
        await db.close(opts.drainS);
      })();
      return closing;
    },
  };
}

type Jobs = Awaited<ReturnType<typeof loadJobs>>;

/** pg-boss and the workers, for the processes that run a queue. */
async function loadJobs() {
  const [queue, calendarJobs, watchQueue, calendarWorker, taskStore, taskWorker, purge, oauthPrune, watchScheduler, cachePurge] = await Promise.all([
    import('../jobs/queue.js'),
    import('../jobs/calendar-jobs.js'),
    import('../jobs/watch-queue.js'),
    import('../workers/calendar-worker.js'),
    import('../jobs/mcp-task-store.js'),
    import('../workers/mcp-task-worker.js'),
    import('../workers/archive-purge.js'),
    import('../workers/oauth-prune.js'),
    import('../workers/watch-scheduler.js'),
    import('../workers/result-cache-purge.js'),
  ]);
  return {
    startQueue: queue.startQueue,
    ensureQueues: queue.ensureQueues,
    /** Every queue the workers read, made before any process works them. */
    QUEUES: [
      calendarJobs.CALENDAR_QUEUE,
      calendarJobs.WEBHOOK_QUEUE,
      taskStore.MCP_TASK_QUEUE,
      watchQueue.WATCH_CHECK_QUEUE,
      watchQueue.WATCH_WEBHOOK_QUEUE,
      watchQueue.WATCH_SWEEP_QUEUE,
      purge.ARCHIVE_PURGE_QUEUE,
      oauthPrune.OAUTH_PRUNE_QUEUE,
      cachePurge.RESULT_CACHE_PURGE_QUEUE,
    ],
    startCalendarWorker: calendarWorker.startCalendarWorker,
    startMcpTaskWorker: taskWorker.startMcpTaskWorker,
    startArchivePurge: purge.startArchivePurge,
    startOAuthPrune: oauthPrune.startOAuthPrune,
    startWatchScheduler: watchScheduler.startWatchScheduler,
    startResultCachePurge: cachePurge.startResultCachePurge,
  };
}

export interface Service {
  url: string;
  firstKey: CreatedKey | null;
  /** The embedded cluster this process runs or joined; null on DATABASE_URL. */
  embedded: EmbeddedDatabase | null;
  deps: ServiceDeps;
  worker: CalendarWorker | null;
  close(): Promise<void>;
}

export async function startService(config: Config, opts: RuntimeOptions = {}): Promise<Service> {
  assertPublicBaseUrl(config);
  await assertPortFree(config.HOST, config.PORT, API_PORT);
  const runtime = await startRuntime(config, opts);
  const { deps, boss } = runtime;
  const firstKey = config.BOOTSTRAP_KEY ? await ensureFirstKey(deps.sql) : null;
  const { createApp } = await import('./http-app.js');
  const app = createApp(deps, boss ? [{ name: 'queue', check: async () => (await boss.getQueues(), 'up') }] : []);
  const server: Server = await listen(app, config.HOST, config.PORT, API_PORT).catch(async (err: unknown) => {
    await runtime.close();
    throw err;
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  const port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return {
    url: `http://${host}:${port}`,
    firstKey,
    embedded: runtime.db.embedded,
    deps,
    worker: runtime.worker,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await runtime.close();
    },
  };
}
