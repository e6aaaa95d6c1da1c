import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type PgBoss from 'pg-boss';
import { TOOLS } from '../../tools/index.js';
import { assertPublicBaseUrl, type Config } from '../config/config.js';
import { createSql, type Sql } from '../db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { limitHeapGrowth } from './memory.js';
import type { AppDeps } from './deps.js';
import type { CalendarWorker } from '../workers/calendar-worker.js';
import { createCalendarService } from '../sources/metasearch/calendar/service.js';
import { closeJobsBrowser } from '../sources/jobsearch/browser.js';
import { UpstreamClient } from '../upstream/client.js';
import { SafeFetcher } from '../upstream/safe-fetch.js';
import { Credits } from '../platform/credits.js';
import { PlatformPath } from '../platform/fast-path.js';
import { ensureFirstKey, type CreatedKey } from '../platform/keys.js';
import { randomToken } from '../domain/ids.js';
import { createOps, observeUpstream, type Ops } from '../ops/ops.js';
import type { Tool } from '../core/define-tool.js';

export interface Database {
  url: string;
  sql: Sql;
  /** The pool's application_name, unique to this process (its connections in pg_stat_activity). */
  applicationName: string;
  embedded: EmbeddedDatabase | null;
  /** Waits up to `drainS` seconds for running queries, then stops the embedded cluster if this process started it. */
  close(drainS?: number): Promise<void>;
}

/** The configured PostgreSQL: external by DATABASE_URL, else the embedded one under DATA_DIR; migrated. */
export async function openDatabase(config: Config, log?: Logger): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.EMBEDDED_PG_PORT, onLog: (l) => log?.debug({ pg: l.trim() }) });
  const url = config.DATABASE_URL ?? embedded!.url;
  const applicationName = `hotelrates-${process.pid}-${randomToken(6)}`;
  const sql = createSql(url, { max: config.DB_POOL_MAX, applicationName });
  await migrate(sql);
  return {
    url,
    sql,
    applicationName,
    embedded,
    async close(drainS = 5) {
      await sql.end({ timeout: drainS });
      await embedded?.stop();
    },
  };
}

export interface Runtime {
  db: Database;
  deps: AppDeps;
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

/**
 * The one place the service's dependencies are built: the HTTP API, `npm run worker` and the
 * stdio MCP server all take their upstream client, website fetcher, calendar service and credits
 * from here, so a tool behaves the same whichever door it came through. `ops` (metrics and
 * upstream-outcome recording) is this process's own; the upstream client reports every outcome to it.
 */
export function buildDeps(config: Config, sql: Sql, log: Logger, tools: Tool[], boss?: PgBoss, ops: Ops = createOps({ sql, log })): AppDeps {
  const credits = new Credits(sql);
  const platform = new PlatformPath(sql, credits);
  // until it listens, the key cache stays off (every call looks its key up)
  void platform.start();
  const deps: AppDeps = {
    config,
    sql,
    log,
    credits,
    platform,
    tools,
    services: { boss, upstream: observeUpstream(new UpstreamClient(config, log), ops), safeFetch: SafeFetcher.fromConfig(config) },
    ops,
  };
  deps.services.calendar = createCalendarService(deps);
  return deps;
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
      boss = await jobs.startQueue(db.url, config, log);
      await jobs.ensureJobQueues(boss);
      await jobs.ensureQueue(boss, jobs.MCP_TASK_QUEUE);
      await jobs.ensureWatchQueues(boss);
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  const ops = createOps({ sql: db.sql, log, pool: { max: config.DB_POOL_MAX, applicationName: db.applicationName } });
  const deps = buildDeps(config, db.sql, log, opts.tools ?? TOOLS, boss ?? undefined, ops);
  const calendar = deps.services.calendar!;
  const worker = runWorker && boss && jobs ? await jobs.startCalendarWorker(deps, boss, calendar) : null;
  const taskWorker = runWorker && boss && jobs ? await jobs.startMcpTaskWorker(deps, boss) : null;
  const watchScheduler = runWorker && boss && jobs ? await jobs.startWatchScheduler(deps, boss) : null;
  if (worker && taskWorker) {
    deps.services.wakeWorkers = () => {
      worker.wake();
      taskWorker.wake();
    };
    await jobs!.startArchivePurge(deps, boss!);
    await jobs!.startOAuthPrune(deps, boss!);
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
        await boss?.stop({ graceful: true, wait: true, timeout: 10_000 }).catch(() => undefined);
        await closeJobsBrowser(deps);
        await deps.services.upstream?.close();
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
  const [queue, calendarWorker, taskStore, taskWorker, purge, oauthPrune, watchScheduler] = await Promise.all([
    import('../jobs/queue.js'),
    import('../workers/calendar-worker.js'),
    import('../jobs/mcp-task-store.js'),
    import('../workers/mcp-task-worker.js'),
    import('../workers/archive-purge.js'),
    import('../workers/oauth-prune.js'),
    import('../watches/scheduler.js'),
  ]);
  return {
    startQueue: queue.startQueue,
    ensureJobQueues: calendarWorker.ensureJobQueues,
    ensureQueue: calendarWorker.ensureQueue,
    startCalendarWorker: calendarWorker.startCalendarWorker,
    MCP_TASK_QUEUE: taskStore.MCP_TASK_QUEUE,
    startMcpTaskWorker: taskWorker.startMcpTaskWorker,
    startArchivePurge: purge.startArchivePurge,
    startOAuthPrune: oauthPrune.startOAuthPrune,
    ensureWatchQueues: watchScheduler.ensureWatchQueues,
    startWatchScheduler: watchScheduler.startWatchScheduler,
  };
}

export interface Service {
  url: string;
  firstKey: CreatedKey | null;
  deps: AppDeps;
  worker: CalendarWorker | null;
  close(): Promise<void>;
}

export async function startService(config: Config, opts: RuntimeOptions = {}): Promise<Service> {
  assertPublicBaseUrl(config);
  const runtime = await startRuntime(config, opts);
  const { deps, boss } = runtime;
  const firstKey = config.BOOTSTRAP_KEY ? await ensureFirstKey(deps.sql) : null;
  const { createApp } = await import('./http-app.js');
  const app = createApp(deps, boss ? [{ name: 'queue', check: async () => (await boss.getQueues(), 'up') }] : []);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return {
    url: `http://${host}:${port}`,
    firstKey,
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
