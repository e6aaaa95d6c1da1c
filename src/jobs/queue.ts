import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/** pg-boss on the service's own database, in its own schema. */
export async function startQueue(url: string, log: Logger): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', max: 5, application_name: 'hotelrates-queue' });
  boss.on('error', (err) => log.error({ err }, 'queue error'));
  await boss.start();
  return boss;
}
