import pino from 'pino';
import { loadConfigOrExit } from './config/config.js';
import { startService } from './app/service.js';
import { closeOnSignals } from './app/shutdown.js';

/** `npm start`: the API (and, unless RUN_WORKER=false, the batch worker) on the configured database. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.LOG_LEVEL });
  const service = await startService(config, { log });
  const base = config.PUBLIC_BASE_URL ?? service.url;
  const lines = [
    '',
    `  API listening on ${base}`,
    `  docs: ${base}/docs   OpenAPI: ${base}/openapi.json   MCP: POST ${base}/mcp   dashboard: ${base}/dashboard`,
    `  database: ${config.DATABASE_URL ? 'external (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}/pg`}`,
  ];
  if (service.firstKey) {
    lines.push('', '  First API key (shown once; store it now):', `  ${service.firstKey.key}`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
  closeOnSignals(() => service.close(), log);
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
