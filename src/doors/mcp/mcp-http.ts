import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { SUPPORTED_PROTOCOL_VERSIONS, createMcpHandler, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server';
import { Readable } from 'node:stream';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { authenticateMcp } from '../oauth/resource-server.js';
import { baseUrl } from '../oauth/urls.js';
import { newId } from '../../domain/ids.js';
import { buildToolTable, mcpServerFactory, type McpCaller } from './mcp.js';
import { serveParsedBody } from './mcp-node.js';
import { MAX_ERROR_MESSAGE, withShortProtocolErrors } from './mcp-protocol-errors.js';
import { toApiError } from '../../domain/errors.js';
import { logFault } from '../rest/http-errors.js';

/**
 * Who calls, from the request: an API key or an OAuth access token for this /mcp. The one place an
 * MCP request is authenticated; a refusal (401 with its Bearer challenge) is sent here, before the
 * protocol layer sees the request, and null returned.
 */
async function resolveCaller(deps: ServiceDeps, req: Request, res: Response): Promise<McpCaller | null> {
  const key = await authenticateMcp(deps, req, res);
  if (!key) return null;
  req.keyPrefix = key.prefix;
  // A request carries one JSON-RPC message: its tool call takes the request's own id, so x-request-id finds its record.
  let first = true;
  return { key, nextRequestId: () => (first ? ((first = false), req.id) : newId('req')), origin: baseUrl(deps.config, req) };
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

/** Deeper than this, a body goes to the SDK as a stream (its own parse and errors): re-serialising it could overflow the stack. */
const PREPARSE_MAX_DEPTH = 64;

function shallowerThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return false;
    } else if (c === 125 || c === 93) depth--;
  }
  return true;
}

/**
 * A POST body of a stated size is read and parsed here, once: handed to the SDK as `parsedBody`, it
 * spares the SDK a web-stream copy, a clone and a second read of every request (most of an MCP
 * call's cost over REST). Anything else (no length, too large, not JSON, too deep) reaches the SDK
 * as the stream it was, so its answers (413, parse error …) stay its own.
 */
async function readParsedBody(req: Request): Promise<{ parsed?: unknown; replay?: Buffer }> {
  const length = Number(req.headers['content-length']);
  if (req.method !== 'POST' || !Number.isInteger(length) || length <= 0 || length > MAX_BODY_BYTES) return {};
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const text = raw.toString('utf8');
  if (shallowerThan(text, PREPARSE_MAX_DEPTH)) {
    try {
      return { parsed: JSON.parse(text) };
    } catch {
      // not JSON: the SDK answers it
    }
  }
  return { replay: raw };
}

/** Host and Origin checks against DNS rebinding (port-agnostic hostnames; a request without Origin passes). */
function rebindingGuards(deps: ServiceDeps): RequestHandler[] {
  const { mcpAllowedHosts, mcpAllowedOrigins } = deps.config;
  return [mcpAllowedHosts ? hostHeaderValidation(mcpAllowedHosts) : null, mcpAllowedOrigins ? originValidation(mcpAllowedOrigins) : null].filter(
    (g) => g !== null,
  );
}

/** Every revision `/mcp` serves: the 2026-07-28 era's (the SDK's per-request handler) and the 2025-era handshake's. */
const SERVED_REVISIONS: readonly string[] = ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS];

/** The JSON-RPC id of a parsed request, or null (a batch, a notification, no body). */
function idOf(parsed: unknown): string | number | null {
  const raw = (parsed as { id?: unknown } | undefined)?.id;
  return typeof raw === 'string' || typeof raw === 'number' ? raw : null;
}

/** A request of the 2026-07-28 era states its revision in `params._meta`; the SDK answers its version errors. */
function statesRevisionInMeta(parsed: unknown): boolean {
  const meta = (parsed as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  return typeof meta === 'object' && meta !== null && 'io.modelcontextprotocol/protocolVersion' in meta;
}

/**
 * A 2025-era request whose `MCP-Protocol-Version` header names a revision not served: 400 listing
 * every served one, with the request's id (the SDK's 2025-era transport lists only its own era's).
 * A 2026-era request is left to the SDK, whose error lists what `server/discover` states, as that
 * revision requires. True when it answered.
 */
function refusedRevision(req: Request, res: Response, parsed: unknown): boolean {
  const asked = req.get('mcp-protocol-version');
  if (asked === undefined || SERVED_REVISIONS.includes(asked) || statesRevisionInMeta(parsed)) return false;
  const message = `Bad Request: Unsupported protocol version: ${asked.slice(0, 40)} (supported versions: ${SERVED_REVISIONS.join(', ')})`;
  const data = { supported: SERVED_REVISIONS, requested: asked.slice(0, 40) };
  res.status(400).json({ jsonrpc: '2.0', id: idOf(parsed), error: { code: -32000, message, data } });
  return true;
}

/**
 * `/mcp`: Streamable HTTP, stateless. The 2026-07-28 revision (per-request `_meta`, `server/discover`)
 * and the 2025-era `initialize` handshake (2025-11-25, 2025-06-18 …) are served side by side by the
 * SDK's handler; the tool table behind it is built once here.
 */
export function mcpRouter(deps: ServiceDeps): Router {
  const table = buildToolTable(deps.tools);
  const handler = createMcpHandler(
    withShortProtocolErrors(
      mcpServerFactory(table, (ctx) => ({ deps, caller: callerOf(ctx) }), { settingSets: deps.config.MCP_TOOL_SETS, listingKey: (ctx) => callerOf(ctx).key }),
    ),
    {
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (err) => deps.log.debug({ err }, 'MCP request refused'),
    },
  );
  const serve = toNodeHandler(handler, { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => deps.log.error({ err }, 'MCP handler failed') });
  const router = express.Router();
  router.all('/mcp', ...rebindingGuards(deps), async (req, res) => {
    let caller: McpCaller | null;
    try {
      caller = await resolveCaller(deps, req, res);
    } catch (err) {
      // the caller could not be established (database unreachable): a JSON-RPC error, never the REST body
      return void (await sendJsonRpcFailure(deps, req, res, err));
    }
    if (!caller) return;
    const auth: AuthInfo = { token: '', clientId: caller.key.id, scopes: [], extra: { [CALLER]: caller } };
    const body = await readParsedBody(req);
    if (refusedRevision(req, res, body.parsed)) return;
    if (body.replay) {
      // the stream was read: the SDK reads the same bytes from a copy carrying the request's line and headers
      const copy = Object.assign(Readable.from([body.replay]), { method: req.method, url: req.url, headers: req.headers, auth });
      await serve(copy, res);
    } else if (body.parsed !== undefined) await serveParsedBody(handler, req, res, auth, body.parsed);
    else await serve(Object.assign(req, { auth }), res);
  });
  return router;
}

/** Seconds a client is asked to wait before it tries again after a dependency failure. */
const RETRY_AFTER_S = 5;

/**
 * A failure before the protocol layer (the database behind authentication is down): the HTTP status
 * of the failure (503) with a JSON-RPC error for the request's id, its status in `data`. -32603
 * (internal error) is the server's own failure, not the client's; the message is short.
 */
async function sendJsonRpcFailure(deps: ServiceDeps, req: Request, res: Response, err: unknown): Promise<void> {
  const api = toApiError(err);
  logFault(deps, req, api, err);
  if (res.headersSent) return void res.end();
  const { parsed } = await readParsedBody(req).catch(() => ({ parsed: undefined }));
  const id = idOf(parsed);
  const detail = typeof api.detail === 'string' ? api.detail : 'invalid request';
  const message = (api.status >= 500 ? `Service unavailable: ${detail}` : detail).slice(0, MAX_ERROR_MESSAGE);
  if (api.status === 503) res.set('retry-after', String(RETRY_AFTER_S));
  res.status(api.status).json({ jsonrpc: '2.0', id, error: { code: api.status >= 500 ? -32603 : -32600, message, data: { status: api.status } } });
}
