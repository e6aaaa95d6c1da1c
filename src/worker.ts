import pino from 'pino';
import { loadConfigOrExit } from './config/config.js';
import { startRuntime } from './app/service.js';
import { closeOnSignals } from './app/shutdown.js';

/** `npm run worker`: the calendar-batch worker alone; several may share one database. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.LOG_LEVEL });
  const runtime = await startRuntime(config, { log, worker: true });
  log.info({ concurrency: config.WORKER_CONCURRENCY }, 'calendar worker running');
  closeOnSignals(() => runtime.close(), log);
}

main().catch((err) => {
  console.error('worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
