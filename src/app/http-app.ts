import express, { type NextFunction, type Request, type Response } from 'express';
import { dashboardRouter } from '../doors/dashboard/router.js';
import { oauthRouter } from '../doors/oauth/router.js';
import { baseUrl } from '../doors/oauth/urls.js';
import { bookingLinkRouter } from '../doors/booking/booking-link-route.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { healthRoute, type HealthProbe } from './health.js';
import { metricsRoute } from '../doors/ops/metrics-route.js';
import { cutText } from '../domain/error-echo.js';
import { ApiError, InvalidInput, toApiError } from '../domain/errors.js';
import { elapsedMs, requestId } from '../platform/request-context.js';
import { docsRouter } from '../doors/rest/docs-page.js';
import { sendError } from '../doors/rest/http-errors.js';
import { mcpRouter } from '../doors/mcp/mcp-http.js';
import { openApiDocument, withServer } from '../doors/rest/openapi.js';
import { restDispatch, restRouter } from '../doors/rest/rest.js';
import { honourConnectionClose } from '../doors/mcp/connection-close.js';

function accessLog(deps: ServiceDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.once('finish', () => {
      deps.log.info({
        requestId: req.id,
        key: req.keyPrefix,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Math.round(elapsedMs(req) * 10) / 10,
      });
    });
    next();
  };
}

/** A body-parser failure as the contract's error: malformed JSON is a 422 like any invalid body. */
function bodyParserError(err: unknown): ApiError | null {
  const e = err as { type?: string; status?: number; message?: string } | null;
  if (e?.type === 'entity.parse.failed') {
    return new InvalidInput([{ type: 'json_invalid', loc: ['body'], msg: `JSON decode error: ${cutText(e.message ?? '', 200)}`, input: null }]);
  }
  if (e?.type === 'entity.too.large') return new ApiError(413, 'request body too large');
  if (e?.status && e.status >= 400 && e.status < 500) return toApiError(err);
  return null;
}

/**
 * Body-parser failures are kept on the request rather than answered here: the route answers them
 * after authenticating the caller, so that they are recorded in the request history like any
 * other invalid input.
 */
function deferBodyErrors(err: unknown, req: Request, _res: Response, next: NextFunction): void {
  const api = bodyParserError(err);
  if (!api) return next(err);
  req.bodyError = api;
  req.body = undefined;
  next();
}

export function createApp(deps: ServiceDeps, probes: HealthProbe[] = []): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);
  app.use(honourConnectionClose);
  app.use(requestId);
  // no reply is ever read as another type than it states (an archived page, a JSON error)
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('x-content-type-options', 'nosniff');
    next();
  });
  app.use(accessLog(deps));
  // MCP reads its own body: a malformed one is a JSON-RPC parse error there, not the REST 422
  app.use(mcpRouter(deps));
  // OAuth reads its own bodies: an open registration endpoint takes 16 KB, not the REST 2 MB
  app.use(oauthRouter(deps));
  app.use(express.json({ limit: '2mb', type: ['application/json', 'application/*+json'] }));
  app.use(deferBodyErrors);
  app.use(restDispatch(deps));

  app.get('/healthz', healthRoute(deps.sql, probes));
  // built at the first request, not at start: about 7 MB of heap and 0.4 s of CPU that a
  // service nobody reads the document of never spends
  let openapi: Record<string, unknown> | null = null;
  app.get('/openapi.json', (req, res) => void res.json(withServer((openapi ??= openApiDocument(deps.tools)), baseUrl(deps.config, req))));
  app.use(docsRouter());
  app.get('/metrics', metricsRoute(deps));

  app.use(dashboardRouter(deps));
  app.use(bookingLinkRouter(deps));
  app.use(restRouter(deps));
  app.use((req: Request, res: Response) => {
    const detail = `not found: ${req.method} ${cutText(req.path, 200)}`;
    // the compatible search API's paths answer with its {"error"} as well
    res.status(404).json(req.path.startsWith('/api/') ? { error: detail, detail } : { detail });
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendError(deps, req, res, err);
  });
  return app;
}
