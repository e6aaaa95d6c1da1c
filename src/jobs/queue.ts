import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Sql } from '../db/client.js';

/** pg-boss on the service's own database, in its own schema. */
export async function startQueue(url: string, config: Config, log: Logger): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 5,
    application_name: 'hotelrates-queue',
    supervise: true,
    maintenanceIntervalSeconds: config.QUEUE_MAINTENANCE_S,
  });
  boss.on('error', (err) => log.error({ err }, 'queue error'));
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
