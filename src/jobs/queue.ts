import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';

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

/** PostgreSQL's "deadlock detected": one of two processes creating queues at once is picked to fail. */
const DEADLOCK = '40P01';

/**
 * Creates the queue unless it exists. Processes starting at once may race: pg-boss creates a queue
 * (its partition table and its row) in a transaction that can deadlock with another process's; the
 * loser tries again, or finds the queue the other made.
 */
export async function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(name)) return;
    try {
      await boss.createQueue(name);
      return;
    } catch (err) {
      if (await boss.getQueue(name)) return;
      if ((err as { code?: string }).code !== DEADLOCK || attempt >= 5) throw err;
    }
  }
}
