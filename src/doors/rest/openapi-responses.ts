import { BODY_METHODS, type Tool } from '../../core/define-tool.js';
import { UPSTREAM_FAILURE_CLASSES } from '../../domain/errors.js';

const text = (description: string) => ({ type: 'string', description });

const VALIDATION_ISSUE = {
  type: 'object',
  description: 'One problem of the input, located by `loc`.',
  required: ['type', 'loc', 'msg', 'input'],
  properties: {
    type: text('Machine-readable kind of the problem, e.g. missing, string_too_long, enum.'),
    loc: {
      type: 'array',
      description: 'Where the problem is: the part of the request (body, query, path, header) followed by field names and array indexes.',
      items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    },
    msg: text('Human-readable explanation.'),
    input: { description: 'The offending value (long values are shortened).' },
  },
};
const DETAIL = text('What went wrong, in words.');
const DETAIL_OR_ISSUES = {
  description: 'A sentence for semantic checks, or one entry per problem for schema validation.',
  oneOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } }],
};
const COMPAT_ERROR = text('The same message as one string: the field clients of the compatible search API read.');
/** What a 502 or 503 adds: where it came from and whether to retry. */
const FAILURE = {
  source: text('502, 503: the upstream source the failure came from (e.g. metasearch, video), or service for a dependency of ours.'),
  retryable: {
    type: 'boolean',
    description: '502, 503: whether the same call may succeed later (retry with exponential backoff); false when the upstream changed its structure.',
  },
  retry: text('502, 503: what to do next, in words.'),
  failure: {
    type: 'string',
    enum: [...UPSTREAM_FAILURE_CLASSES],
    description:
      '502, 503 of an upstream: the class of the failure, by what to do next (the same for every source): blocked and challenge (a bot wall or refusal, what was seen in `detail`), rate_limited (the upstream answered 429; wait Retry-After), contract_changed (the upstream changed its structure; do not retry), timeout, unreachable, unusable (garbage, a cut or empty reply), upstream_error (5xx and other error statuses).',
  },
};

export const ERROR_SCHEMAS = {
  ValidationIssue: VALIDATION_ISSUE,
  Error: { type: 'object', description: 'Every error answer.', required: ['detail'], properties: { detail: DETAIL, ...FAILURE } },
  ValidationError: {
    type: 'object',
    description: 'A request whose input does not validate (422).',
    required: ['detail'],
    properties: { detail: DETAIL_OR_ISSUES },
  },
  CompatError: {
    type: 'object',
    description: 'Error answer of the compatible search family: `error` beside `detail`.',
    required: ['detail', 'error'],
    properties: { detail: DETAIL, error: COMPAT_ERROR, ...FAILURE },
  },
  CompatValidationError: {
    type: 'object',
    description: 'A request of the compatible search family whose input does not validate (400, as that API answers).',
    required: ['detail', 'error'],
    properties: { detail: DETAIL_OR_ISSUES, error: COMPAT_ERROR },
  },
};

export const RESPONSE_HEADERS = {
  RequestId: {
    description: 'Id of this request (req_…); GET /v1/requests/{request_id} returns its record.',
    required: true,
    schema: { type: 'string', pattern: '^req_' },
  },
  CreditsCharged: {
    description: 'Credits this call cost (0 for failed and empty results). Sent by metered operations unless metering is off.',
    schema: { type: 'integer', minimum: 0 },
  },
  CreditsRemaining: {
    description: 'Credits left in the current period after this call, when the key belongs to a billing account.',
    schema: { type: 'integer' },
  },
  RetryAfter: {
    description:
      'Retryable 502 and 503: seconds to wait before retrying (an upstream’s own delay after its 429, else by the failure’s class; 5 for a dependency of ours).',
    schema: { type: 'integer', minimum: 1 },
  },
  Cache: {
    description:
      'hit: answered from the shared result cache or from an identical call in flight, free (the answer says `cached: true`); miss: fetched for this call. Sent by cached operations while the cache is on.',
    schema: { type: 'string', enum: ['hit', 'miss'] },
  },
};

/** Whether an operation's answers may come from the result cache (its own `cache`, or its engine's). */
export const answersFromCache = (tool: Tool) => tool.cache !== null || tool.cacheInHandler;

const validationStatus = (tool: Tool) => (tool.compatErrors ? 400 : 422);

/** What every operation can answer, and when; operations add their own (Tool.errors). */
function statusesOf(tool: Tool): Map<number, string> {
  const out = new Map<number, string>();
  const add = (status: number, why: string) => out.set(status, out.has(status) ? `${out.get(status)}; ${why}` : why);
  if (BODY_METHODS.includes(tool.method)) add(413, 'The request body is larger than 2 MB.');
  if (BODY_METHODS.includes(tool.method)) add(415, 'The request body is not JSON (send Content-Type: application/json).');
  add(401, 'Missing or invalid API key.');
  if (tool.metered) add(402, 'Credits are enforced and the call needs more credits than the period has left.');
  // The compatible family answers invalid input with 400, as the API it is compatible with does.
  add(validationStatus(tool), 'The input does not validate: `detail` lists each problem with its location.');
  add(429, tool.metered ? 'Rate limit of the key or the plan’s concurrency reached; retry later.' : 'Rate limit of the key reached; retry later.');
  if (tool.metered) {
    add(400, 'The request is well-formed but this source cannot use it (e.g. dates in the wrong order, an unsupported combination).');
    add(404, 'The upstream says the property, item or page does not exist.');
    add(502, 'The upstream failed, blocked the request or answered something unusable; retryable, nothing is charged.');
    add(
      503,
      'The upstream’s structure changed (not retryable until adapted), or a dependency of ours (database, browser) is down or busy (`browser_busy`: every browser context is taken; retryable).',
    );
  } else add(503, 'A dependency of ours (the database) is down; retryable.');
  for (const [status, why] of Object.entries(tool.errors)) if (why) add(Number(status), why);
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

/** The statuses documented for an operation, success first: the check of the test suite reads these. */
export function documentedStatuses(tool: Tool): number[] {
  return [tool.status, ...statusesOf(tool).keys()];
}

function headers(tool: Tool, failure: boolean) {
  const out: Record<string, unknown> = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  if (tool.metered) {
    out['x-credits-charged'] = { $ref: '#/components/headers/CreditsCharged' };
    if (!failure) out['x-credits-remaining'] = { $ref: '#/components/headers/CreditsRemaining' };
  }
  if (!failure && answersFromCache(tool)) out['x-cache'] = { $ref: '#/components/headers/Cache' };
  return out;
}

export function responsesOf(tool: Tool, success: { description: string; schema: unknown; example?: unknown }): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [String(tool.status)]: {
      description: success.description,
      headers: headers(tool, false),
      content: {
        'application/json': { schema: success.schema, ...(success.example === undefined ? {} : { example: success.example }) },
        // RFC 4180, UTF-8, a header row: asked by format=csv or Accept: text/csv
        ...(tool.csv ? { 'text/csv': { schema: { type: 'string', description: tool.csv } } } : {}),
      },
    },
  };
  for (const [status, why] of statusesOf(tool)) {
    const validation = status === validationStatus(tool);
    const name = `${tool.compatErrors ? 'Compat' : ''}${validation ? 'ValidationError' : 'Error'}`;
    const failureHeaders = status === 401 ? { 'x-request-id': { $ref: '#/components/headers/RequestId' } } : headers(tool, true);
    if (status === 502 || status === 503) failureHeaders['retry-after'] = { $ref: '#/components/headers/RetryAfter' };
    out[String(status)] = {
      description: why,
      headers: failureHeaders,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` }, example: errorExample(status, validation, why, tool.compatErrors) } },
    };
  }
  return out;
}

const EXAMPLE_DETAIL: Partial<Record<number, string>> = {
  401: 'missing or invalid API key',
  402: 'insufficient credits: this request costs 5, 2 available. Credits renew 2026-12-01.',
  413: 'request body too large',
  415: 'request body must be JSON (Content-Type: application/json), not text/plain',
  429: 'rate limit 60/min exceeded',
  503: 'database unavailable: ConnectionError',
};

function errorExample(status: number, validation: boolean, why: string, compat: boolean) {
  if (validation) {
    const issue = { type: 'missing', loc: ['body', 'q'], msg: 'Field required', input: null };
    return compat ? { detail: [issue], error: 'Missing required parameter q: Field required' } : { detail: [issue] };
  }
  const detail = EXAMPLE_DETAIL[status] ?? why.replace(/[.;].*$/, '');
  if (status === 502) {
    const failure = { source: 'metasearch', failure: 'upstream_error', retryable: true, retry: 'retry with exponential backoff; nothing was charged' };
    return compat
      ? { detail: 'UpstreamHttp500', error: `metasearch: UpstreamHttp500; ${failure.retry}`, ...failure }
      : { detail: 'UpstreamHttp500', ...failure };
  }
  return compat ? { detail, error: detail } : { detail };
}
