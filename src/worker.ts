import pino from 'pino';
import { loadConfigOrExit } from './config/config.js';
import { startRuntime } from './app/service.js';
import { closeOnSignals } from './app/shutdown.js';

/** `npm run worker`: the calendar-batch worker alone; several may share one database. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.LOG_LEVEL });
  const runtime = await startRuntime(config, { log, worker: true });
  const { startWorkerHttp } = await import('./app/worker-http.js');
  const http = await startWorkerHttp(runtime.deps, runtime.boss).catch(async (err: unknown) => {
    await runtime.close();
    throw err;
  });
  log.info({ concurrency: config.WORKER_CONCURRENCY, metrics: `${http.url}/metrics`, health: `${http.url}/healthz` }, 'calendar worker running');
  closeOnSignals(async () => {
    await http.close();
    await runtime.close();
  }, log);
}

main().catch((err) => {
  console.error('worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
