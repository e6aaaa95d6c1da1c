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

export interface Service {
  url: string;
  firstKey: CreatedKey | null;
  deps: AppDeps;
  close(): Promise<void>;
}

export async function startService(config: Config, opts: { tools?: Tool[]; log?: Logger } = {}): Promise<Service> {
  const log = opts.log ?? pino({ level: config.LOG_LEVEL });
  const db = await openDatabase(config, log);
  const firstKey = config.BOOTSTRAP_KEY ? await ensureFirstKey(db.sql) : null;
  let boss: PgBoss | null = null;
  try {
    boss = await startQueue(db.url, log);
  } catch (err) {
    await db.close();
    throw err;
  }
  const deps: AppDeps = {
    config,
    sql: db.sql,
    log,
    credits: new Credits(db.sql),
    tools: opts.tools ?? TOOLS,
    services: { boss },
  };
  const app = createApp(deps, [{ name: 'queue', check: async () => (await boss!.getQueues(), 'up') }]);
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
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await boss?.stop({ graceful: true, wait: true, timeout: 10_000 }).catch(() => undefined);
      await db.close();
    },
  };
}
