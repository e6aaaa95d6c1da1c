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
