import pino from 'pino';
import { loadConfigOrExit } from './config/config.js';
import { startService } from './app/service.js';
import { guardProcess } from './app/process-guard.js';
import { closeOnSignals, SHUTDOWN_DEADLINE_MS } from './app/shutdown.js';

/** `npm start`: the API (and, unless RUN_WORKER=false, the batch worker) on the configured database. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.LOG_LEVEL });
  const service = await startService(config, { log });
  guardProcess(log, (kind) => service.deps.ops.metrics.processFaults.inc({ kind }));
  const base = config.PUBLIC_BASE_URL ?? service.url;
  const lines = [
    '',
    `  API listening on ${base}`,
    `  docs: ${base}/docs   OpenAPI: ${base}/openapi.json   MCP: POST ${base}/mcp   dashboard: ${base}/dashboard`,
    `  database: ${databaseLine(config, service.embedded)}`,
  ];
  if (service.firstKey) {
    lines.push('', '  First API key (shown once; store it now):', `  ${service.firstKey.key}`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
  closeOnSignals(() => service.close(), log, SHUTDOWN_DEADLINE_MS);
}

function databaseLine(config: { DATABASE_URL?: string; dataDir: string }, embedded: { owned: boolean; ownerPid: number } | null): string {
  if (config.DATABASE_URL || !embedded) return 'external (DATABASE_URL)';
  if (embedded.owned) return `embedded PostgreSQL in ${config.dataDir}/pg`;
  return `embedded PostgreSQL in ${config.dataDir}/pg, run by process ${embedded.ownerPid} (started first on this data folder): connected to it; this process runs it if that one ends`;
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
