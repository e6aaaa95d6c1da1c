import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { startRuntime } from './service.js';

/** `npm run worker`: the calendar-batch worker alone; several may share one database. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = pino({ level: config.LOG_LEVEL });
  const runtime = await startRuntime(config, { log, worker: true });
  log.info({ concurrency: config.WORKER_CONCURRENCY }, 'calendar worker running');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    await runtime.close().catch((err) => log.error({ err }, 'shutdown failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error('worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
