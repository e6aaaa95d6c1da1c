import fs from 'node:fs';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import pino from 'pino';
import { TOOLS } from '../tools/index.js';
import { loadConfigOrExit } from './config/config.js';
import { ApiError, DependencyDown } from './domain/errors.js';
import { newId } from './domain/ids.js';
import { authenticate, ensureFirstKey } from './platform/keys.js';
import type { Tool } from './core/define-tool.js';
import { buildToolTable, mcpServerFactory, toolSets, type McpCallContext, type McpToolTable } from './doors/mcp/mcp.js';
import { withShortProtocolErrors } from './doors/mcp/mcp-protocol-errors.js';
import { startRuntime, type Runtime } from './app/service.js';
import { closeOnSignals } from './app/shutdown.js';
import { guardProcess } from './app/process-guard.js';

/**
 * A desktop client waits 2 s after closing our input before it signals, and 2 s more before
 * SIGKILL. By this deadline the process exits however far closing got; an embedded cluster it
 * started and could not stop in time gets an immediate shutdown as it exits (db/embedded-server.ts).
 */
const EXIT_DEADLINE_MS = 1_500;

/** Written by the build (scripts/build.mjs) next to the compiled modules it was made from. */
const PREBUILT_LISTING = new URL('../mcp-tool-listing.json', import.meta.url);

/**
 * The tool table, with the listing the build made from these same compiled modules when there is
 * one: converting every tool's schemas is a quarter of what a launch spends before its first
 * answer. The build deletes the file before it changes any module and writes it after, so a
 * listing never outlives the code it describes; one that does not name the same tools in the
 * same order is not used. Run from the sources (tsx) there is none and the listing is built here.
 */
function toolTable(tools: Tool[]): McpToolTable {
  const exposed = tools.filter((t) => t.mcp.expose);
  try {
    const listing = JSON.parse(fs.readFileSync(PREBUILT_LISTING, 'utf8')) as McpTool[];
    if (listing.length === exposed.length && listing.every((t, i) => t.name === exposed[i].name))
      return { listing, byName: new Map(exposed.map((t) => [t.name, t])), sets: toolSets(tools) };
  } catch {
    // no build listing: built below
  }
  return buildToolTable(tools);
}

/**
 * MCP over stdio for desktop clients that launch a command; both eras (2026-07-28 and the 2025
 * `initialize` handshake) on one connection. The key comes from the environment (API_KEY); calls
 * are metered and recorded exactly as over HTTP, with the dependencies the HTTP service builds.
 * Logs go to stderr: stdout carries the protocol.
 *
 * The database (and the embedded PostgreSQL, when this process has to start it) comes up at the
 * first tool call or listing, not at launch: a client's version probe, answered from the tool
 * table alone, then never starts a cluster it would have to wait for. The process ends when its
 * input closes or on SIGTERM/SIGINT/SIGHUP, stopping the embedded cluster only if it started it.
 */
function main(): void {
  const config = loadConfigOrExit();
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL }, pino.destination(2));
  let runtime: Promise<Runtime> | null = null;
  // counted in the runtime's metrics once it runs (the stdio server starts it at the first call)
  let metrics: Runtime['deps']['ops']['metrics'] | null = null;
  guardProcess(log, (kind) => metrics?.processFaults.inc({ kind }));
  const start = () =>
    (runtime ??= startRuntime(config, { log, queue: false, worker: config.STDIO_RUN_WORKER, drainS: 1 }).then(
      (rt) => ((metrics = rt.deps.ops.metrics), rt),
      (err: unknown) => {
        runtime = null; // the next call tries again
        log.error({ err }, 'database unavailable');
        throw new DependencyDown(`database unavailable: ${err instanceof Error ? err.message : String(err)}`);
      },
    ));

  let session: Promise<McpCallContext> | null = null;
  const resolve = () =>
    (session ??= start().then(async (rt): Promise<McpCallContext> => {
      let key = await authenticate(rt.deps.sql, process.env.API_KEY);
      // the installed package (bin/hotelrates-api.mjs mcp) on its own embedded database in the user's
      // data folder: the first launch makes API_KEY that database's first key
      if (!key && process.env.API_KEY && config.FIRST_KEY_FROM_ENV && !config.DATABASE_URL && (await ensureFirstKey(rt.deps.sql, process.env.API_KEY)))
        key = await authenticate(rt.deps.sql, process.env.API_KEY);
      if (!key) {
        session = null; // a key created meanwhile works at the next call
        const hint = config.FIRST_KEY_FROM_ENV
          ? `set API_KEY to sk_ and 32 letters, digits, _ or - (a fresh data folder, ${config.dataDir}, takes it as its first key), or to a key created with \`npx hotelrates-api keys create\``
          : 'set API_KEY to a key created with `npm run keys -- create`';
        log.error(`missing or invalid API key: ${hint}`);
        throw new ApiError(401, `missing or invalid API key: ${hint}`);
      }
      return { deps: rt.deps, caller: { key, nextRequestId: () => newId('req') } };
    }));

  const table = toolTable(TOOLS);
  const connection = serveStdio(
    withShortProtocolErrors(mcpServerFactory(table, resolve, { onList: () => void start().catch(() => undefined), settingSets: config.MCP_TOOL_SETS })),
    {
      onerror: (err) => log.debug({ err }, 'MCP message refused'),
    },
  );

  const stop = closeOnSignals(
    async () => {
      // Closing the connection first aborts the calls in flight (their upstream requests end
      // and each is recorded as closed by the client), so nothing below waits on an upstream.
      await connection.close().catch((err: unknown) => log.debug({ err }, 'closing the connection failed'));
      // a start under way is finished first, so that what it started is also stopped
      if (runtime) await (await runtime.catch(() => null))?.close();
    },
    log,
    EXIT_DEADLINE_MS,
  );
  process.stdin.once('end', () => stop('stdin closed'));
  process.stdin.once('close', () => stop('stdin closed'));
  process.stdout.once('error', () => stop('stdout closed'));
}

main();
