import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { startService } from './service.js';

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
  const service = await startService(config, { log });
  const base = config.PUBLIC_BASE_URL ?? service.url;
  const lines = [
    '',
    `  API listening on ${base}`,
    `  docs: ${base}/docs   OpenAPI: ${base}/openapi.json   MCP: POST ${base}/mcp`,
    `  database: ${config.DATABASE_URL ? 'external (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}/pg`}`,
  ];
  if (service.firstKey) {
    lines.push('', '  First API key (shown once; store it now):', `  ${service.firstKey.key}`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await service.close().catch((err) => log.error({ err }, 'shutdown failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
