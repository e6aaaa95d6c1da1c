import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pino from 'pino';
import { loadConfig } from './config.js';
import { authenticate } from './platform/keys.js';
import { newId } from './platform/ids.js';
import { createMcpServer } from './registry/mcp.js';
import { startRuntime } from './service.js';

/**
 * MCP over stdio for desktop clients that launch a command. The key comes from the
 * environment (API_KEY); calls are metered and recorded exactly as over HTTP.
 * Logs go to stderr: stdout carries the protocol.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL }, pino.destination(2));
  const runtime = await startRuntime(config, { log, queue: false, worker: config.STDIO_RUN_WORKER });
  const key = await authenticate(runtime.deps.sql, process.env.API_KEY ?? process.env.HOTELRATES_API_KEY);
  if (!key) {
    process.stderr.write('missing or invalid API key: set API_KEY to a key created with `npm run keys -- create`\n');
    await runtime.close();
    process.exit(2);
  }
  const server = createMcpServer(runtime.deps, key, () => newId('req'));
  const transport = new StdioServerTransport();
  transport.onclose = () => void runtime.close().finally(() => process.exit(0));
  await server.connect(transport);
}

main().catch((err) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
