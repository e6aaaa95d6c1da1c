import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pino from 'pino';
import { TOOLS } from '../tools/index.js';
import { loadConfig } from './config.js';
import type { AppDeps } from './deps.js';
import { Credits } from './platform/credits.js';
import { authenticate } from './platform/keys.js';
import { newId } from './platform/ids.js';
import { createMcpServer } from './registry/mcp.js';
import { openDatabase } from './service.js';

/**
 * MCP over stdio for desktop clients that launch a command. The key comes from the
 * environment (API_KEY); calls are metered and recorded exactly as over HTTP.
 * Logs go to stderr: stdout carries the protocol.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL }, pino.destination(2));
  const db = await openDatabase(config, log);
  const key = await authenticate(db.sql, process.env.API_KEY ?? process.env.HOTELRATES_API_KEY);
  if (!key) {
    process.stderr.write('missing or invalid API key: set API_KEY to a key created with `npm run keys -- create`\n');
    await db.close();
    process.exit(2);
  }
  const deps: AppDeps = { config, sql: db.sql, log, credits: new Credits(db.sql), tools: TOOLS, services: {} };
  const server = createMcpServer(deps, key, () => newId('req'));
  const transport = new StdioServerTransport();
  transport.onclose = () => void db.close().finally(() => process.exit(0));
  await server.connect(transport);
}

main().catch((err) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
