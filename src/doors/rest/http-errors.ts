import type { Request, Response } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { DependencyDown, NotConfigured, toApiError, UpstreamContractChanged, type ApiError } from '../../domain/errors.js';

/** Server faults are logged with their stack; the client only ever sees the detail. */
export function logFault(deps: Pick<ServiceDeps, 'log'>, req: Request, api: ApiError, err: unknown): void {
  if (api.status === 500) deps.log.error({ err, requestId: req.id }, 'unhandled error');
  else if (api.status >= 502) deps.log.warn({ requestId: req.id, detail: api.detail, err: (err as Error)?.message }, 'dependency or upstream failure');
}

/** Writes `{"detail": …}` for any thrown value. */
export function sendError(deps: Pick<ServiceDeps, 'log'>, req: Request, res: Response, err: unknown): ApiError {
  const api = toApiError(err);
  logFault(deps, req, api, err);
  if (!res.headersSent) res.status(api.status).json({ detail: api.detail });
  return api;
}

/**
 * What a 502/503/504 adds to its body: the source it came from and whether to retry, in a field
 * and in words. `fallbackSource` names the operation's family when no upstream request was seen.
 */
export function failureFields(api: ApiError, fallbackSource: string): { source: string; retryable: boolean; retry: string } | null {
  if (api.status < 502) return null;
  if (api instanceof NotConfigured)
    return { source: 'service', retryable: false, retry: 'do not retry: the operator of this service has not enabled this feature' };
  if (api instanceof DependencyDown)
    return { source: 'service', retryable: true, retry: 'retry with exponential backoff: a dependency of this service is down' };
  const source = api.source ?? fallbackSource;
  if (api instanceof UpstreamContractChanged) {
    return {
      source,
      retryable: false,
      retry: `do not retry until the service is updated: the ${source} upstream no longer answers in the structure it is read by`,
    };
  }
  if (api.detail === 'ENOTFOUND') {
    return {
      source,
      retryable: true,
      retry: `retry later: the ${source} upstream host could not be resolved; if it persists, the operator's upstream address for ${source} is wrong`,
    };
  }
  return {
    source,
    retryable: api.retryable,
    retry: api.retryable ? 'retry with exponential backoff; nothing was charged' : 'do not retry; nothing was charged',
  };
}
