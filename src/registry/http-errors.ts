import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.js';
import { toApiError, type ApiError } from '../platform/errors.js';

/** Server faults are logged with their stack; the client only ever sees the detail. */
export function logFault(deps: Pick<AppDeps, 'log'>, req: Request, api: ApiError, err: unknown): void {
  if (api.status === 500) deps.log.error({ err, requestId: req.id }, 'unhandled error');
  else if (api.status >= 502) deps.log.warn({ requestId: req.id, detail: api.detail, err: (err as Error)?.message }, 'dependency or upstream failure');
}

/** Writes `{"detail": …}` for any thrown value. */
export function sendError(deps: Pick<AppDeps, 'log'>, req: Request, res: Response, err: unknown): ApiError {
  const api = toApiError(err);
  logFault(deps, req, api, err);
  if (!res.headersSent) res.status(api.status).json({ detail: api.detail });
  return api;
}
