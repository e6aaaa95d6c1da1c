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
  /** Seconds to wait before retrying, when the failure says (see retryAfterOf). */
  retryAfterS?: number;

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
/**
 * 402 for a call that pays from the balance as it stands, holding nothing while it runs (a batch
 * item): the balance did not cover its cost (`available`: what it held before the call ran; null:
 * items finishing side by side spent it meanwhile, and the call fails unpaid).
 */
export class Unfunded extends PaymentRequired {
  constructor(
    readonly cost: number,
    readonly available: number | null,
  ) {
    super(`insufficient credits: this call costs ${cost}${available === null ? '' : `, ${available} available`}`);
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
/*
 * ── Upstream failures: one table ─────────────────────────────────────────────────────────────
 * Every source answers an upstream failure by this table, whatever the site: the class says what
 * the caller should do next, the class fixes the status, `retryable` and `Retry-After`, and no
 * failure is charged. A source raises one of the classes below (or lets the upstream client
 * raise it: `upstreamStatusFailure` maps an HTTP status); `failureClassOf` reads the class of any
 * thrown value back. test/integration/upstream/failure-table.test.ts replays each class against
 * every source.
 *
 * | class            | what the upstream did                                   | status | retryable | Retry-After       |
 * |------------------|---------------------------------------------------------|--------|-----------|-------------------|
 * | blocked          | 401/403/451, a block page, a captcha, a consent wall      | 502    | yes       | 30 s              |
 * | challenge        | a script challenge (AWS WAF 202, Cloudflare, Imperva, Akamai sensor) | 502    | yes       | 10 s              |
 * | rate_limited     | 429                                                     | 502    | yes       | the upstream's, else 60 s |
 * | not_found        | 404/410 (or a reply saying so) for the caller's object  | 404    | no        | —                 |
 * | contract_changed | a reply of the expected kind (JSON, a page) it cannot read | 503 | no        | —                 |
 * | timeout          | no answer in time (408, 504, our deadline)              | 502    | yes       | 5 s               |
 * | unreachable      | connection refused, name not resolved, network down     | 502    | yes       | 10 s              |
 * | unusable         | a reply not of the expected kind: garbage, cut, empty   | 502    | yes       | 5 s               |
 * | upstream_error   | 5xx, any other error status                             | 502    | yes       | 5 s               |
 */
export const UPSTREAM_FAILURE_CLASSES = [
  'blocked',
  'challenge',
  'rate_limited',
  'not_found',
  'contract_changed',
  'timeout',
  'unreachable',
  'unusable',
  'upstream_error',
] as const;
export type UpstreamFailureClass = (typeof UPSTREAM_FAILURE_CLASSES)[number];

export interface FailureRule {
  status: number;
  retryable: boolean;
  /** Seconds the caller should wait before retrying (the Retry-After header); null when it should not retry. */
  retryAfterS: number | null;
}

export const UPSTREAM_FAILURES: Readonly<Record<UpstreamFailureClass, FailureRule>> = {
  blocked: { status: 502, retryable: true, retryAfterS: 30 },
  challenge: { status: 502, retryable: true, retryAfterS: 10 },
  rate_limited: { status: 502, retryable: true, retryAfterS: 60 },
  not_found: { status: 404, retryable: false, retryAfterS: null },
  contract_changed: { status: 503, retryable: false, retryAfterS: null },
  timeout: { status: 502, retryable: true, retryAfterS: 5 },
  unreachable: { status: 502, retryable: true, retryAfterS: 10 },
  unusable: { status: 502, retryable: true, retryAfterS: 5 },
  upstream_error: { status: 502, retryable: true, retryAfterS: 5 },
};

/** Detail of a reply whose transfer or compressed stream ended early (unusable, never a contract change). */
export const TRUNCATED = 'TruncatedReply';
/** Detail of a reply that is not of the kind its request expected: garbage, an error text (unusable). */
export const UNREADABLE = 'UnreadableReply';
/** Interstitials a real browser clears by running them: the `challenge` class (the browser path retries them once). */
export const SCRIPT_CHALLENGES: ReadonlySet<string> = new Set(['CloudflareChallenge', 'AwsWafChallenge', 'ImpervaBlock', 'AkamaiChallenge']);
/** Connection-level failures (system and undici codes): the `unreachable` class. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ConnectError']);
/** Details of replies that are not of the expected kind: the `unusable` class. */
const UNUSABLE = new Set([TRUNCATED, 'EmptyReply', UNREADABLE, 'ReplyTooLarge', 'ContentDecodingError', 'UnsupportedContentEncoding']);

/** The class an UpstreamFailed detail stands for when its thrower did not name one. */
function classOfDetail(detail: string): UpstreamFailureClass {
  if (/timeout/i.test(detail)) return 'timeout';
  if (UNREACHABLE.has(detail)) return 'unreachable';
  if (UNUSABLE.has(detail)) return 'unusable';
  if (/blocked$/i.test(detail)) return 'blocked';
  return 'upstream_error';
}

/** 502: the upstream failed, timed out, could not be reached or answered something unusable. Retryable. */
export class UpstreamFailed extends ApiError {
  declare readonly detail: string;
  /** The table's class (inferred from the detail when not given: a timeout, a connection code, a cut reply). */
  readonly failure: UpstreamFailureClass;
  constructor(detail: string, failure?: UpstreamFailureClass) {
    super(502, detail, true);
    this.failure = failure ?? classOfDetail(detail);
    this.retryAfterS = UPSTREAM_FAILURES[this.failure].retryAfterS ?? undefined;
  }
}
/**
 * A block page, captcha, consent wall or bot challenge (502), as upstream/blocked.ts detects it, or
 * a refusing status. `marker` is what was seen (a status, a header, a phrase of the page). The
 * proxy fallback keys on this class; a script challenge is the `challenge` class.
 */
export class UpstreamBlocked extends UpstreamFailed {
  constructor(
    detail: string,
    readonly marker: string,
    failure: 'blocked' | 'challenge' | 'rate_limited' = SCRIPT_CHALLENGES.has(detail) ? 'challenge' : 'blocked',
  ) {
    super(detail, failure);
  }
}
/** 502: the upstream answered 429. Retry-After is the upstream's own delay when it stated one. */
export class UpstreamRateLimited extends UpstreamBlocked {
  constructor(retryAfterS: number | null) {
    super('RateLimited', 'status:429', 'rate_limited');
    if (retryAfterS !== null) this.retryAfterS = retryAfterS;
  }
}
/**
 * 503: a reply of the expected kind (a JSON document, an HTML page) whose structure we cannot read:
 * the upstream changed. Not retryable until we adapt. A reply of another kind is UpstreamFailed
 * (`unusable`), a cut one too.
 */
export class UpstreamContractChanged extends ApiError {
  declare source: string;
  readonly failure = 'contract_changed' as const;
  constructor(source: string, what: string) {
    super(503, `${source} upstream contract changed: ${what}`);
    this.source = source;
  }
}

/**
 * 502: an operation over several sources (a comparison) got an answer from none of them: a failure,
 * free, with each source's reason. Retryable when any source's failure is.
 */
export class EverySourceFailed extends ApiError {
  constructor(reasons: { source: string; status: number; detail: string; retryable: boolean }[]) {
    super(
      502,
      `every source failed: ${reasons.map((r) => `${r.source}: ${r.detail} (${r.status})`).join('; ')}`,
      reasons.some((r) => r.retryable),
    );
  }
}

/** The table's class of a thrown value: an upstream failure's, not_found for a 404; null for anything else. */
export function failureClassOf(err: unknown): UpstreamFailureClass | null {
  if (err instanceof UpstreamFailed || err instanceof UpstreamContractChanged) return err.failure;
  if (err instanceof NotFound) return 'not_found';
  return null;
}

/** Seconds of a Retry-After header (delta seconds or an HTTP date), capped at an hour; null when absent or unreadable. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  const s = /^\d+$/.test(text) ? Number(text) : Math.ceil((Date.parse(text) - now) / 1000);
  return Number.isFinite(s) ? Math.min(3600, Math.max(1, s)) : null;
}

/**
 * The table applied to an upstream reply's HTTP status; null for a status that is no failure
 * (1xx-3xx). `notFound`: the request was for the caller's object (a property, listing, job, app,
 * video), so a 404/410 is that object gone (NotFound with this detail); without it a 404 is an
 * upstream error (an endpoint moved is not the caller's object missing).
 */
export function upstreamStatusFailure(status: number, opts: { notFound?: string; retryAfter?: string } = {}): ApiError | null {
  if (status < 400) return null;
  if ((status === 404 || status === 410) && opts.notFound) return new NotFound(opts.notFound);
  if (status === 401 || status === 403 || status === 451) return new UpstreamBlocked(`UpstreamHttp${status}`, `status:${status}`);
  if (status === 429) return new UpstreamRateLimited(parseRetryAfter(opts.retryAfter));
  if (status === 408 || status === 504) return new UpstreamFailed(`UpstreamHttp${status}`, 'timeout');
  return new UpstreamFailed(`UpstreamHttp${status}`, 'upstream_error');
}

/**
 * Seconds a retryable 502/503 asks the caller to wait (the Retry-After header): the error's own
 * (an upstream's stated delay, its class's), else 5; null when the caller should not retry.
 */
export function retryAfterOf(err: ApiError): number | null {
  if (!err.retryable || (err.status !== 502 && err.status !== 503)) return null;
  return err.retryAfterS ?? DEFAULT_RETRY_AFTER_S;
}
const DEFAULT_RETRY_AFTER_S = 5;

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

/** Messages of node-postgres (pg-boss's driver), which gives a lost connection no code. */
const DB_DOWN_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether a failure means the database is unreachable or unavailable (down, restarting, the
 * connection cut), as postgres.js, node-postgres and PostgreSQL itself say it: retry later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; errno?: string; message?: unknown } | null;
  if (!e) return false;
  const code = String(e.code ?? e.errno ?? '');
  if (DB_ERROR_CODES.has(code) || DB_ERROR_CODES.has(String(e.errno)) || DB_ERROR_CLASSES.some((c) => code.startsWith(c))) return true;
  return typeof e.message === 'string' && DB_DOWN_MESSAGES.test(e.message);
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
  if (isDatabaseUnavailable(err)) {
    const e = err as Error & { code?: string };
    const cls = e.constructor?.name && e.constructor.name !== 'Error' ? e.constructor.name : (e.code ?? 'Error');
    return new DependencyDown(`database unavailable: ${cls}`);
  }
  return new ApiError(500, 'internal error');
}
