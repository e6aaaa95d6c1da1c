import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Sql } from '../db/client.js';
import { DatabaseOutage, whileDatabaseDown } from '../db/outage.js';
import { isDatabaseUnavailable } from '../domain/errors.js';

/**
 * pg-boss on the service's own database, in its own schema, riding out database outages: every
 * statement it sends through its own pool (its workers' fetches, their complete and fail, its
 * maintenance) waits while the database is unreachable and is sent again once it answers. pg-boss
 * sends a job's complete and fail without awaiting them, so a failure there would otherwise be an
 * unhandled rejection that ends the process, and the job would wait for its expiry. Repeating one
 * is harmless: complete touches active jobs only, and a job is worked at least once anyway. The
 * waiting ends when the queue stops. Its errors during an outage are the outage's, logged once.
 */
export async function startQueue(url: string, config: Config, log: Logger, outage = new DatabaseOutage(log)): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 5,
    application_name: 'hotelrates-queue',
    supervise: true,
    maintenanceIntervalSeconds: config.QUEUE_MAINTENANCE_S,
  });
  let stopping = false;
  const db = boss.getDb();
  const send = db.executeSql.bind(db);
  db.executeSql = (text, values) => whileDatabaseDown(() => send(text, values), { outage, part: 'queue', stopped: () => stopping });
  const stop = boss.stop.bind(boss);
  boss.stop = (options) => {
    stopping = true;
    return stop(options);
  };
  boss.on('error', (err) => {
    if (isDatabaseUnavailable(err)) outage.down('queue', err);
    else log.error({ err }, 'queue error');
  });
  await boss.start();
  return boss;
}

// Any fixed number (the migrations take 727_001): processes starting at once create queues one at a time.
const QUEUE_CREATION_LOCK = 727_002;

/** Creates a queue unless it exists (one process at a time: see ensureQueues). */
export async function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  if (await boss.getQueue(name)) return;
  await boss.createQueue(name).catch(async (err) => {
    if (!(await boss.getQueue(name))) throw err;
  });
}

/**
 * Creates the queues that do not exist yet, holding a session advisory lock meanwhile. Several
 * processes starting at once on a new database would otherwise create the same queues together,
 * and pg-boss's create_queue (a queue row, then a partition attached to its job table) deadlocks
 * against itself that way: PostgreSQL then fails one process's start.
 */
export async function ensureQueues(boss: PgBoss, sql: Sql, names: readonly string[]): Promise<void> {
  const conn = await sql.reserve();
  try {
    await conn`SELECT pg_advisory_lock(${QUEUE_CREATION_LOCK})`;
    for (const name of names) await ensureQueue(boss, name);
  } finally {
    await conn`SELECT pg_advisory_unlock(${QUEUE_CREATION_LOCK})`.catch(() => undefined);
    conn.release();
  }
}
