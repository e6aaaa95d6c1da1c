/**
 * Errors grouped by what the caller should do next. Each maps to one HTTP
 * status and one MCP `isError` result; anything else is a server fault.
 */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly retryable = false,
  ) {
    super(typeof detail === 'string' ? detail : 'validation failed');
    this.name = new.target.name;
  }
}

/** 422 with one entry per problem, or a string for semantic checks. */
export class InvalidInput extends ApiError {
  constructor(detail: string | ValidationIssue[]) {
    super(422, detail);
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
  constructor(detail: string) {
    super(502, detail, true);
  }
}
/** 503: the upstream answered but its expected structure is gone. Not retryable until we adapt. */
export class UpstreamContractChanged extends ApiError {
  constructor(
    readonly source: string,
    what: string,
  ) {
    super(503, `${source} upstream contract changed: ${what}`);
  }
}
/** 503: one of our own dependencies (database, queue, browser) is down. */
export class DependencyDown extends ApiError {
  constructor(detail: string) {
    super(503, detail, true);
  }
}

const DB_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', '3D000', '55000']);
// SQLSTATE classes of an unreachable or unavailable server: connection exception, insufficient
// resources, operator intervention (shutdown, terminated backend).
const DB_ERROR_CLASSES = ['08', '53', '57P'];

function isDatabaseDown(err: unknown): boolean {
  const e = err as { code?: string; errno?: string } | null;
  if (!e) return false;
  const code = String(e.code ?? e.errno ?? '');
  return DB_ERROR_CODES.has(code) || DB_ERROR_CODES.has(String(e.errno)) || DB_ERROR_CLASSES.some((c) => code.startsWith(c));
}

/** Maps any thrown value to an ApiError; unknown faults become 500 and are logged by the caller. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseDown(err)) {
    const e = err as Error & { code?: string };
    const cls = e.constructor?.name && e.constructor.name !== 'Error' ? e.constructor.name : (e.code ?? 'Error');
    return new DependencyDown(`database unavailable: ${cls}`);
  }
  return new ApiError(500, 'internal error');
}
