import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AuthedKey } from '../platform/keys.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Error statuses an operation may add to the ones every operation can answer (registry/openapi-responses.ts). */
export type ErrorStatus = 400 | 402 | 403 | 404 | 409 | 410 | 502 | 503 | 504;

/** A request header the handler reads, as documented in OpenAPI. */
export interface HeaderSpec {
  description: string;
  required: boolean;
  schema: Record<string, unknown>;
}

export interface ToolContext {
  deps: AppDeps;
  requestId: string;
  key: AuthedKey;
  /** Which door the call came through; the operator's own checks are `operator`. */
  transport: 'rest' | 'mcp' | 'operator';
  /** Request headers, lower-cased (REST); MCP calls carry none. */
  headers: Record<string, string | undefined>;
  /**
   * The call's input carries zero_retention=true: nothing of this call may be stored (no stored
   * rates, no run, no archived result, no raw page under diagnostics). Its history row and charge stay.
   */
  zeroRetention: boolean;
}

/** What a call costs: charged only on a successful, non-empty result. */
export interface CreditRule<I, O> {
  /** Cost shown in the plan catalogue (the base for variable costs). */
  base: number;
  /** How a variable cost grows, for the catalogue; absent for fixed costs. */
  note?: string;
  /** Upper bound reserved before the call when credits are enforced. */
  max(input: I): number;
  /** Actual charge once the handler has returned. */
  actual(input: I, output: O): number;
}

/**
 * A tool that can run past ~10 s: for a client that declares the MCP tasks extension, the server
 * runs the calls `when` picks as tasks (durable, polled, cancellable) instead of holding the call open.
 */
export interface TaskRule<I> {
  when(input: I): boolean;
  /** Expected run time in seconds (poll interval; a crashed run is retried after twice this). */
  seconds(input: I): number;
}

export interface ToolSpec<S extends z.ZodType, O extends z.ZodType> {
  /** snake_case operation id; also the MCP tool name when exposed. */
  name: string;
  title: string;
  description: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{param}` for path parameters. */
  path: string;
  /** Extra paths serving the same operation (compatibility aliases). */
  aliases?: string[];
  tags: string[];
  input: S;
  output: O;
  /** A number for a fixed cost (0 for free operations) or a rule. */
  credits: number | CreditRule<z.output<S>, z.output<O>>;
  /** For fixed costs: results that count as empty and are therefore free. */
  isEmpty?: (output: z.output<O>) => boolean;
  /** HTTP status of success (200 unless stated). */
  status?: number;
  /** The key may come as `api_key` in the query (compatible search GET routes only). */
  queryKey?: boolean;
  /** Error bodies also carry `error` (the compatible search API's field) beside `detail`. */
  compatErrors?: boolean;
  /**
   * Listed as one of the read-only MCP tools at POST /mcp. `defaults` are argument defaults of the
   * MCP tool where they differ from the REST route's, to keep an agent's default result small
   * (e.g. fewer items); the listing shows them as the fields' defaults. `task`: when a call runs as
   * an MCP task.
   */
  mcp?: { expose: true; title?: string; defaults?: Record<string, unknown>; task?: TaskRule<z.output<S>> };
  /** Statuses beyond the common ones (401, 422, 429, 503; 402 and 502 when metered), with when. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Request headers the handler reads (e.g. Idempotency-Key). */
  headers?: Record<string, HeaderSpec>;
  /** A dispatching route (the compatible search): the operations it picks by `engine`, whose inputs are its query. */
  engines?: Record<string, Tool>;
  /** A request to show in the reference; it must validate against `input`. */
  example?: z.input<S>;
  handler(input: z.output<S>, ctx: ToolContext): Promise<z.output<O>>;
}

export interface Tool<I = any, O = any> {
  name: string;
  title: string;
  description: string;
  method: HttpMethod;
  path: string;
  aliases: string[];
  tags: string[];
  input: z.ZodType;
  output: z.ZodType;
  credits: CreditRule<I, O>;
  metered: boolean;
  status: number;
  queryKey: boolean;
  compatErrors: boolean;
  mcp: { expose: boolean; title: string; defaults: Record<string, unknown>; task?: TaskRule<I> };
  errors: Partial<Record<ErrorStatus, string>>;
  headers: Record<string, HeaderSpec>;
  engines?: Record<string, Tool>;
  example?: unknown;
  handler(input: I, ctx: ToolContext): Promise<O>;
}

export function defineTool<S extends z.ZodType, O extends z.ZodType>(spec: ToolSpec<S, O>): Tool<z.output<S>, z.output<O>> {
  const credits: CreditRule<z.output<S>, z.output<O>> =
    typeof spec.credits === 'number'
      ? fixedCost(spec.credits, spec.isEmpty)
      : spec.credits;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    method: spec.method,
    path: spec.path,
    aliases: spec.aliases ?? [],
    tags: spec.tags,
    input: spec.input,
    output: spec.output,
    credits,
    metered: credits.base > 0,
    status: spec.status ?? 200,
    queryKey: spec.queryKey ?? false,
    // the compatible search family answers errors with both `detail` and that API's `error`
    compatErrors: spec.compatErrors ?? (spec.path.startsWith('/v1/serp/') || spec.path.startsWith('/api/')),
    mcp: { expose: spec.mcp?.expose ?? false, title: spec.mcp?.title ?? spec.title, defaults: spec.mcp?.defaults ?? {}, task: spec.mcp?.task },
    errors: spec.errors ?? {},
    headers: spec.headers ?? {},
    engines: spec.engines,
    example: spec.example,
    handler: spec.handler,
  };
}

function fixedCost<I, O>(n: number, isEmpty?: (o: O) => boolean): CreditRule<I, O> {
  return {
    base: n,
    max: () => n,
    actual: (_input, output) => (isEmpty?.(output) ? 0 : n),
  };
}
