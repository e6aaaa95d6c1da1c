import type { Request, Response } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import {
  DependencyDown,
  failureClassOf,
  NotConfigured,
  retryAfterOf,
  toApiError,
  UpstreamContractChanged,
  type ApiError,
  type UpstreamFailureClass,
} from '../../domain/errors.js';

/** Server faults are logged with their stack; the client only ever sees the detail. */
export function logFault(deps: Pick<ServiceDeps, 'log'>, req: Request, api: ApiError, err: unknown): void {
  if (api.status === 500) deps.log.error({ err, requestId: req.id }, 'unhandled error');
  else if (api.status >= 502) deps.log.warn({ requestId: req.id, detail: api.detail, err: (err as Error)?.message }, 'dependency or upstream failure');
}

/** Writes `{"detail": …}` for any thrown value (with Retry-After when it is a retryable 502/503). */
export function sendError(deps: Pick<ServiceDeps, 'log'>, req: Request, res: Response, err: unknown): ApiError {
  const api = toApiError(err);
  logFault(deps, req, api, err);
  if (!res.headersSent) {
    setRetryAfter(res, api);
    res.status(api.status).json({ detail: api.detail });
  }
  return api;
}

/** Retry-After (seconds) on a retryable 502/503: the failure's own delay (an upstream's stated one, its class's). */
export function setRetryAfter(res: Response, api: ApiError): void {
  const seconds = retryAfterOf(api);
  if (seconds !== null) res.setHeader('retry-after', String(seconds));
}

/**
 * What a 502/503/504 adds to its body: the source it came from and whether to retry, in a field
 * and in words. `fallbackSource` names the operation's family when no upstream request was seen.
 */
export function failureFields(
  api: ApiError,
  fallbackSource: string,
): { source: string; retryable: boolean; retry: string; failure?: UpstreamFailureClass } | null {
  if (api.status < 502) return null;
  if (api instanceof NotConfigured)
    return { source: 'service', retryable: false, retry: 'do not retry: the operator of this service has not enabled this feature' };
  if (api instanceof DependencyDown)
    return { source: 'service', retryable: true, retry: 'retry with exponential backoff: a dependency of this service is down' };
  const source = api.source ?? fallbackSource;
  if (api instanceof UpstreamContractChanged) {
    return {
      source,
      failure: api.failure,
      retryable: false,
      retry: `do not retry until the service is updated: the ${source} upstream no longer answers in the structure it is read by`,
    };
  }
  const failure = failureClassOf(api) ?? undefined;
  if (api.detail === 'ENOTFOUND') {
    return {
      source,
      failure,
      retryable: true,
      retry: `retry later: the ${source} upstream host could not be resolved; if it persists, the operator's upstream address for ${source} is wrong`,
    };
  }
  return {
    source,
    ...(failure ? { failure } : {}),
    retryable: api.retryable,
    retry: api.retryable ? retryAdvice(failure) : 'do not retry; nothing was charged',
  };
}

/** What a retryable upstream failure's class asks of the caller, in words. */
function retryAdvice(failure: UpstreamFailureClass | undefined): string {
  if (failure === 'rate_limited') return 'the upstream limits the rate: retry after Retry-After seconds; nothing was charged';
  if (failure === 'blocked' || failure === 'challenge') return 'the upstream refused the request (see detail): retry later, with backoff; nothing was charged';
  return 'retry with exponential backoff; nothing was charged';
}
