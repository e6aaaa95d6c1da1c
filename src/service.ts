import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type PgBoss from 'pg-boss';
import { TOOLS } from '../tools/index.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createSql, type Sql } from './db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import type { AppDeps } from './deps.js';
import { startQueue } from './jobs/queue.js';
import { ensureJobQueues, startCalendarWorker, type CalendarWorker } from './jobs/calendar-worker.js';
import { createCalendarService } from './sources/metasearch/calendar/service.js';
import { closeJobsBrowser } from './sources/jobsearch/browser.js';
import { UpstreamClient } from './upstream/client.js';
import { SafeFetcher } from './upstream/safe-fetch.js';
import { Credits } from './platform/credits.js';
import { ensureFirstKey, type CreatedKey } from './platform/keys.js';
import type { Tool } from './registry/define-tool.js';

export interface Database {
  url: string;
  sql: Sql;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

/** The configured PostgreSQL: external by DATABASE_URL, else the embedded one under DATA_DIR; migrated. */
export async function openDatabase(config: Config, log?: Logger): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.EMBEDDED_PG_PORT, onLog: (l) => log?.debug({ pg: l.trim() }) });
  const url = config.DATABASE_URL ?? embedded!.url;
  const sql = createSql(url, { max: config.DB_POOL_MAX });
  await migrate(sql);
  return {
    url,
    sql,
    embedded,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}

export interface Runtime {
  db: Database;
  deps: AppDeps;
  boss: PgBoss;
  worker: CalendarWorker | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  tools?: Tool[];
  log?: Logger;
  /** Run the calendar worker in this process; defaults to RUN_WORKER. */
  worker?: boolean;
}

/** Database, queue, upstream client and (optionally) the batch worker: what the API and `npm run worker` share. */
export async function startRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? pino({ level: config.LOG_LEVEL });
  const db = await openDatabase(config, log);
  let boss: PgBoss;
  try {
    boss = await startQueue(db.url, config, log);
    await ensureJobQueues(boss);
  } catch (err) {
    await db.close();
    throw err;
  }
  const upstream = new UpstreamClient(config, log);
  const deps: AppDeps = {
    config,
    sql: db.sql,
    log,
    credits: new Credits(db.sql),
    tools: opts.tools ?? TOOLS,
    services: { boss, upstream, safeFetch: SafeFetcher.fromConfig(config) },
  };
  deps.services.calendar = createCalendarService(deps);
  const calendar = deps.services.calendar;
  const worker = (opts.worker ?? config.RUN_WORKER) && calendar ? await startCalendarWorker(deps, boss, calendar) : null;
  if (worker) deps.services.wakeWorkers = worker.wake;
  return {
    db,
    deps,
    boss,
    worker,
    async close() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 }).catch(() => undefined);
      await closeJobsBrowser(deps);
      await upstream.close();
      await db.close();
    },
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
  const runtime = await startRuntime(config, opts);
  const { deps, boss } = runtime;
  const firstKey = config.BOOTSTRAP_KEY ? await ensureFirstKey(deps.sql) : null;
  const app = createApp(deps, [{ name: 'queue', check: async () => (await boss.getQueues(), 'up') }]);
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
