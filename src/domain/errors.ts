/**
 * Errors grouped by what the caller should do next. Each maps to one HTTP
 * status and one MCP `isError` result; anything else is a server fault.
 */
import { cutText, DETAIL_CHARS, shortIssues } from './error-echo.js';

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

export class ApiError extends Error {
  readonly detail: string | ValidationIssue[];
  /**
   * The upstream source a 502/503 came from, when one did (set where the failure is classified,
   * ops/outcomes.ts, or by the error itself); answered with the error so the caller knows which.
   */
  source?: string;

  /** The detail is what a client reads: inputs it quotes are cut short (see error-echo.ts). */
  constructor(
    readonly status: number,
    detail: string | ValidationIssue[],
    readonly retryable = false,
  ) {
    super(typeof detail === 'string' ? detail : 'validation failed');
    this.name = new.target.name;
    this.detail = typeof detail === 'string' ? cutText(detail, DETAIL_CHARS) : shortIssues(detail);
  }
}

/** 422 with one entry per problem, or a string for semantic checks. */
export class InvalidInput extends ApiError {
  constructor(detail: string | ValidationIssue[]) {
    super(422, detail);
  }
}
/** The client hung up before its answer (nginx's 499): recorded, charged nothing; nobody reads the body. */
export class ClientClosed extends ApiError {
  constructor() {
    super(499, 'client closed the request');
  }
}
/** 400: well-formed but unusable (end before start, bad cursor). */
export class BadRequest extends ApiError {
  constructor(detail: string) {
    super(400, detail);
  }
}
export class Unauthorized extends ApiError {
  constructor() {
    super(401, 'missing or invalid API key');
  }
}
export class PaymentRequired extends ApiError {
  constructor(detail: string) {
    super(402, detail);
  }
}
export class NotFound extends ApiError {
  constructor(detail: string) {
    super(404, detail);
  }
}
export class Conflict extends ApiError {
  constructor(detail: string) {
    super(409, detail);
  }
}
export class Limited extends ApiError {
  constructor(
    detail: string,
    readonly rateLimited = false,
  ) {
    super(429, detail, true);
  }
}
/** 502: the upstream failed, blocked us or answered something unusable. Retryable. */
export class UpstreamFailed extends ApiError {
  declare readonly detail: string;
  constructor(detail: string) {
    super(502, detail, true);
  }
}
/**
 * A block page, captcha, consent wall or unusable reply (502), as upstream/blocked.ts detects it.
 * The proxy fallback keys on this class, and the outcome recorder counts it as `blocked`.
 */
export class UpstreamBlocked extends UpstreamFailed {
  constructor(
    detail: string,
    readonly marker: string,
  ) {
    super(detail);
  }
}
/** 503: the upstream answered but its expected structure is gone. Not retryable until we adapt. */
export class UpstreamContractChanged extends ApiError {
  declare source: string;
  constructor(source: string, what: string) {
    super(503, `${source} upstream contract changed: ${what}`);
    this.source = source;
  }
}
/** 415: a request body that is not JSON. */
export class UnsupportedMediaType extends ApiError {
  constructor(contentType: string) {
    super(415, `request body must be JSON (Content-Type: application/json), not ${cutText(contentType, 80)}`);
  }
}
/** 503: a feature the operator has not enabled (a setting is missing): retrying does not help. */
export class NotConfigured extends ApiError {
  constructor(detail: string) {
    super(503, detail, false);
  }
}

/** 503: one of our own dependencies (database, queue, browser) is down. */
export class DependencyDown extends ApiError {
  constructor(detail: string) {
    super(503, detail, true);
  }
}

const DB_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '3D000',
  '55000',
]);
// SQLSTATE classes of an unreachable or unavailable server: connection exception, insufficient
// resources, operator intervention (shutdown, terminated backend).
const DB_ERROR_CLASSES = ['08', '53', '57P'];

function isDatabaseDown(err: unknown): boolean {
  const e = err as { code?: string; errno?: string } | null;
  if (!e) return false;
  const code = String(e.code ?? e.errno ?? '');
  return DB_ERROR_CODES.has(code) || DB_ERROR_CODES.has(String(e.errno)) || DB_ERROR_CLASSES.some((c) => code.startsWith(c));
}

/**
 * A client error of the HTTP layer: the body parser's (http-errors, `expose: true`) and the
 * router's (a path segment that is not valid percent-encoding: a URIError with status 400). Their
 * message may quote the request, so only its start is kept.
 */
function httpClientError(err: unknown): ApiError | null {
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown } | null;
  if (!(e?.expose === true || err instanceof URIError)) return null;
  const status = Number(e?.status ?? e?.statusCode);
  if (!Number.isInteger(status) || status < 400 || status > 499) return null;
  const message = typeof e?.message === 'string' && e.message ? e.message : 'bad request';
  return new ApiError(status, cutText(message, 200));
}

/** An error's detail as one line of text: the text itself, or the validation issues as JSON. */
export function detailText(err: ApiError): string {
  return typeof err.detail === 'string' ? err.detail : JSON.stringify(err.detail);
}

/** Maps any thrown value to an ApiError; unknown faults become 500 and are logged by the caller. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const client = httpClientError(err);
  if (client) return client;
  if (isDatabaseDown(err)) {
    const e = err as Error & { code?: string };
    const cls = e.constructor?.name && e.constructor.name !== 'Error' ? e.constructor.name : (e.code ?? 'Error');
    return new DependencyDown(`database unavailable: ${cls}`);
  }
  return new ApiError(500, 'internal error');
}
