import pino from 'pino';
import { loadConfigOrExit } from './config/config.js';
import { startRuntime } from './app/service.js';
import { guardProcess } from './app/process-guard.js';
import { WORKER_PORT, assertPortFree } from './app/listen.js';
import { closeOnSignals, SHUTDOWN_DEADLINE_MS } from './app/shutdown.js';

/** `npm run worker`: the calendar-batch worker alone; several may share one database. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.LOG_LEVEL });
  // a busy WORKER_PORT fails before the database and the queue start
  await assertPortFree(config.HOST, config.WORKER_PORT, WORKER_PORT);
  const runtime = await startRuntime(config, { log, worker: true });
  guardProcess(log, (kind) => runtime.deps.ops.metrics.processFaults.inc({ kind }));
  const { startWorkerHttp } = await import('./app/worker-http.js');
  const http = await startWorkerHttp(runtime.deps, runtime.boss).catch(async (err: unknown) => {
    await runtime.close();
    throw err;
  });
  const embedded = runtime.db.embedded;
  const database = !embedded ? 'external' : embedded.owned ? 'embedded (run by this process)' : `embedded, run by process ${embedded.ownerPid}`;
  log.info({ concurrency: config.WORKER_CONCURRENCY, database, metrics: `${http.url}/metrics`, health: `${http.url}/healthz` }, 'calendar worker running');
  closeOnSignals(
    async () => {
      await http.close();
      await runtime.close();
    },
    log,
    SHUTDOWN_DEADLINE_MS,
  );
}

main().catch((err) => {
  console.error('worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
