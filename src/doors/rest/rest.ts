import express, { type Request, type Response, type Router } from 'express';
import { compatErrorText } from './compat-errors.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import { requireKey } from '../../platform/auth.js';
import { cutText } from '../../domain/error-echo.js';
import { InvalidInput, UnsupportedMediaType, type ApiError } from '../../domain/errors.js';
import { isObject } from '../../domain/json.js';
import { elapsedMs } from '../../platform/request-context.js';
import { BODY_METHODS, type Tool } from '../../core/define-tool.js';
import { failureFields, logFault, setRetryAfter } from './http-errors.js';
import { runCall, type CallDoor, type CallResult, type Reply } from '../../core/call.js';
import { coerceQuery } from '../../core/query.js';
import { RawBody, inertHeaders } from '../../core/raw-body.js';
import { markedAnswer } from '../../core/result-cache.js';
import { routeTable } from './route-table.js';
import type { Location } from '../../core/validation.js';

export function expressPath(openapiPath: string): string {
  return openapiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

function rawInput(tool: Tool, req: Request): Record<string, unknown> {
  const params = { ...(req.params as Record<string, string>) };
  if (!BODY_METHODS.includes(tool.method)) {
    const query = { ...(req.query as Record<string, unknown>) };
    delete query.api_key;
    return { ...coerceQuery(tool.input, query), ...params };
  }
  const body: unknown = req.body;
  if (body === undefined) return { ...params };
  if (!isObject(body)) {
    throw new InvalidInput([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a JSON object', input: body }]);
  }
  return { ...body, ...params };
}

function locator(tool: Tool, req: Request): (key: string | undefined) => Location {
  const pathKeys = new Set(Object.keys(req.params ?? {}));
  const rest: Location = BODY_METHODS.includes(tool.method) ? 'body' : 'query';
  return (key) => (key !== undefined && pathKeys.has(key) ? 'path' : rest);
}

/**
 * Mounts every tool of the registry as a REST route; nothing else defines an operation. Calls
 * reach their operation through restDispatch in front; what it leaves (OPTIONS, another method
 * on an operation's path) is answered here as Express answers it.
 */
export function restRouter(deps: ServiceDeps): Router {
  assertUnique(deps.tools);
  const router = express.Router();
  for (const tool of deps.tools) {
    for (const path of [tool.path, ...tool.aliases]) {
      const method = tool.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
      router[method](expressPath(path), (req, res) => handle(tool, req, res, deps, req.bodyError));
    }
  }
  return router;
}

/**
 * The operations' routes found in one lookup, in front of the routers: a call does not walk every
 * route mounted before its own. A path whose parameter is not valid percent-encoding is answered by
 * the operation it was meant for as invalid input, recorded like any other. What the table does not
 * find goes on to the routers (restRouter behind).
 */
export function restDispatch(deps: ServiceDeps): express.RequestHandler {
  const find = routeTable(deps.tools);
  return (req, res, next) => {
    const hit = find(req.method, req.path);
    if (!hit) {
      // a path of an operation asked with another method: 405 naming the methods it takes
      const allowed = req.method === 'OPTIONS' ? [] : METHODS.filter((m) => m !== req.method && find(m, req.path));
      if (!allowed.length) return next();
      return void methodNotAllowed(req, res, allowed, find(allowed[0], req.path)!.tool);
    }
    if (hit.params === null) return void handle(hit.tool, req, res, deps, undecodablePath(req));
    req.params = hit.params;
    void handle(hit.tool, req, res, deps, req.bodyError ?? unsupportedBody(hit.tool, req));
  };
}

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] as const;

function methodNotAllowed(req: Request, res: Response, allowed: readonly string[], tool: Tool): void {
  const detail = `method ${cutText(req.method, 20)} not allowed on ${cutText(req.path, 200)}; allowed: ${allowed.join(', ')}`;
  res.setHeader('Allow', allowed.join(', '));
  res.status(405).json(tool.compatErrors ? { error: detail, detail } : { detail });
}

/** A body the JSON parser left alone because it is not JSON (text/plain, a form): 415, not an empty input. */
function unsupportedBody(tool: Tool, req: Request): UnsupportedMediaType | undefined {
  if (!BODY_METHODS.includes(tool.method) || req.body !== undefined) return undefined;
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  return hasBody ? new UnsupportedMediaType(req.headers['content-type'] ?? 'no Content-Type') : undefined;
}

function undecodablePath(req: Request): InvalidInput {
  return new InvalidInput([{ type: 'url_parsing', loc: ['path'], msg: 'A path parameter is not valid percent-encoded UTF-8', input: req.path }]);
}

/** Two descriptors for one name or route would silently shadow each other: refuse to start. */
function assertUnique(tools: Tool[]): void {
  const seen = new Set<string>();
  for (const t of tools) {
    for (const id of [`name ${t.name}`, ...[t.path, ...t.aliases].map((p) => `route ${t.method} ${p}`)]) {
      if (seen.has(id)) throw new Error(`tool registry: duplicate ${id}`);
      seen.add(id);
    }
  }
}

/** Runs one call; `refused` is an error found before the route (unreadable body or path), answered once the caller is known. */
async function handle(tool: Tool, req: Request, res: Response, deps: ServiceDeps, refused?: ApiError): Promise<void> {
  // A client that hangs up ends the upstream work done for it.
  const hangUp = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) hangUp.abort();
  };
  res.on('close', onClose);
  const door: CallDoor<RawBody | string> = {
    transport: 'rest',
    route: { method: req.method, path: tool.path },
    status: tool.status,
    elapsedMs: () => elapsedMs(req),
    answer: (output, meter) => rendered(markedAnswer(output, meter.cache)),
    failure: (api, err) => errorReply(deps, req, api, err, tool),
    bytes: (body) => (body instanceof RawBody ? body.bytes.length : Buffer.byteLength(body)),
  };
  const admit = async () => {
    const key = await requireKey(deps, req, { allowQuery: tool.queryKey, admit: true });
    req.keyPrefix = key.prefix;
    return { key, requestId: req.id, headers: req.headers as Record<string, string> };
  };
  const input = () => rawInput(tool, req);
  const reply = await runCall(door, { deps, tool, signal: hangUp.signal, admit, input, locate: locator(tool, req), refused });
  res.off('close', onClose);
  send(res, reply);
}

/** An answer as it goes out: raw bytes as they are (a page), anything else as JSON text. */
function rendered(body: unknown): RawBody | string {
  return body instanceof RawBody ? body : JSON.stringify(body);
}

/** The reply with its credit and cache headers. */
function send(res: Response, { status, body, meter, error }: CallResult<RawBody | string>): void {
  if (meter.metered) {
    res.setHeader('x-credits-charged', String(meter.charged));
    if (meter.remaining !== null) res.setHeader('x-credits-remaining', String(meter.remaining));
  }
  if (meter.cache) res.setHeader('x-cache', meter.cache.hit ? 'hit' : 'miss');
  if (error) setRetryAfter(res, error);
  if (body instanceof RawBody) res.status(status).set(inertHeaders(body)).type(body.contentType).send(body.bytes);
  else res.status(status).type('application/json').send(body);
}

function errorReply(deps: ServiceDeps, req: Request, api: ApiError, err: unknown, tool: Tool): Reply<string> {
  logFault(deps, req, api, err);
  const failure = failureFields(api, tool.tags[0] ?? tool.name);
  if (!tool.compatErrors) return { status: api.status, body: JSON.stringify({ detail: api.detail, ...failure }) };
  // The compatible search API answers invalid or missing parameters with 400 and {"error": …}.
  const error = failure ? `${failure.source}: ${compatErrorText(api.detail)}; ${failure.retry}` : compatErrorText(api.detail);
  return { status: api.status === 422 ? 400 : api.status, body: JSON.stringify({ error, detail: api.detail, ...failure }) };
}
