import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { AppDeps } from '../deps.js';
import { authenticateMcp } from '../oauth/resource-server.js';
import { newId } from '../platform/ids.js';
import { buildToolTable, mcpServerFactory, type McpCaller } from './mcp.js';

/**
 * Who calls, from the request: an API key or an OAuth access token for this /mcp. The one place an
 * MCP request is authenticated; a refusal (401 with its Bearer challenge) is sent here, before the
 * protocol layer sees the request, and null returned.
 */
export async function resolveCaller(deps: AppDeps, req: Request, res: Response): Promise<McpCaller | null> {
  const key = await authenticateMcp(deps, req, res);
  if (!key) return null;
  req.keyPrefix = key.prefix;
  // A request carries one JSON-RPC message: its tool call takes the request's own id, so x-request-id finds its record.
  let first = true;
  return { key, nextRequestId: () => (first ? ((first = false), req.id) : newId('req')) };
}

const CALLER = 'caller';
/** The REST body limit; a larger body is answered 413 before anything is parsed. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

function callerOf(ctx: ServerContext): McpCaller {
  const caller = ctx.http?.authInfo?.extra?.[CALLER] as McpCaller | undefined;
  // resolveCaller runs in front of every request that reaches the handler
  if (!caller) throw new Error('MCP request without a resolved caller');
  return caller;
}

/** Host and Origin checks against DNS rebinding (port-agnostic hostnames; a request without Origin passes). */
function rebindingGuards(deps: AppDeps): RequestHandler[] {
  const { mcpAllowedHosts, mcpAllowedOrigins } = deps.config;
  return [mcpAllowedHosts ? hostHeaderValidation(mcpAllowedHosts) : null, mcpAllowedOrigins ? originValidation(mcpAllowedOrigins) : null].filter((g) => g !== null);
}

/**
 * `/mcp`: Streamable HTTP, stateless. The 2026-07-28 revision (per-request `_meta`, `server/discover`)
 * and the 2025-era `initialize` handshake (2025-11-25, 2025-06-18 …) are served side by side by the
 * SDK's handler; the tool table behind it is built once here.
 */
export function mcpRouter(deps: AppDeps): Router {
  const table = buildToolTable(deps.tools);
  const handler = createMcpHandler(mcpServerFactory(table, (ctx) => ({ deps, caller: callerOf(ctx) })), {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => deps.log.debug({ err }, 'MCP request refused'),
  });
  const serve = toNodeHandler(handler, { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => deps.log.error({ err }, 'MCP handler failed') });
  const router = express.Router();
  router.all('/mcp', ...rebindingGuards(deps), async (req, res) => {
    const caller = await resolveCaller(deps, req, res);
    if (!caller) return;
    const auth: AuthInfo = { token: '', clientId: caller.key.id, scopes: [], extra: { [CALLER]: caller } };
    await serve(Object.assign(req, { auth }), res);
  });
  return router;
}
