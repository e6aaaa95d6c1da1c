import type { z } from 'zod';
import type { Freshness } from '../config/cache-settings.js';
import type { Db, Sql, Statement, Tx } from '../db/client.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { Ops } from '../ops/ops.js';
import type { Credits } from '../platform/credits.js';
import type { AuthedKey } from '../platform/keys.js';
import type { SourceContext } from '../sources/context.js';
import type { McpToolSet } from '../domain/mcp-tool-sets.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Methods whose input comes in a JSON body (the others take it from the query). */
export const BODY_METHODS: readonly HttpMethod[] = ['POST', 'PATCH'];

/** Error statuses an operation may add to the ones every operation can answer (doors/rest/openapi-responses.ts). */
type ErrorStatus = 400 | 402 | 403 | 404 | 409 | 410 | 502 | 503 | 504;

/** A request header the handler reads, as documented in OpenAPI. */
interface HeaderSpec {
  description: string;
  required: boolean;
  schema: Record<string, unknown>;
}

/**
 * What tool handlers use: the sources' context (upstream client, website fetcher, browser, settings,
 * logger) and the platform's modules. Built once per process by the one builder (app/service.ts),
 * scoped to each call by the invoke step (invoke.ts invokeTool). Every field is required: where a process lacks something (the
 * stdio server runs no queue) it is given an implementation that answers the right error (503).
 */
export interface ToolServices extends SourceContext {
  sql: Sql;
  credits: Credits;
  /** Metrics and upstream-outcome recording of this process. */
  ops: Ops;
  /** The operations this process serves (the catalogue and the sources' listing read them). */
  tools: Tool[];
  /** The batch queue (calendar jobs). */
  queue: JobQueue;
  /** The shared result cache (src/core/result-cache.ts): repeated calls answered from it, identical calls in flight sharing one fetch. */
  results: ResultCacheService;
}

/** The process's result cache as the kernel asks it for each call's side of it. */
export interface ResultCacheService {
  forCall(call: CacheCallOptions): CallCache;
}

export interface CacheCallOptions {
  requestId: string;
  zeroRetention: boolean;
  /** Ends this call's wait for an identical call's fetch (its client hung up). */
  signal?: AbortSignal;
  /** Runs once before this call fetches (its credits reserved), never for an answer it did not fetch. */
  beforeFetch?: () => Promise<void>;
}

export interface ToolContext {
  /** The process's services, scoped to this call: its upstream session, its caller's hang-up. */
  deps: ToolServices;
  requestId: string;
  key: AuthedKey;
  /** Which door the call came through; the operator's own checks are `operator`, a watch's checks `watch`, a calendar batch's items `batch`. */
  transport: 'rest' | 'mcp' | 'operator' | 'watch' | 'batch';
  /** Request headers, lower-cased (REST); MCP calls carry none. */
  headers: Record<string, string | undefined>;
  /** The collection run the call's stored rates join (a batch item: its job's run); absent: a run of its own. */
  runId?: string;
  /** This service's base URL as the caller reached it (MCP over HTTP), for links it hands out; REST: from `headers`. */
  origin?: string;
  /**
   * The call's input carries zero_retention=true: nothing of this call may be stored (no stored
   * rates, no run, no archived result, no raw page under diagnostics). Its history row and charge stay.
   */
  zeroRetention: boolean;
  /** The shared result cache as this call uses it (src/core/result-cache.ts). */
  cache: CallCache;
  /**
   * For a handler that commits its own charge with its outcome (a watch check): tells the door what
   * was charged, so that its answer carries the credit headers; the door then charges nothing more.
   */
  reportCharge?: (charged: number, remaining: number | null) => void;
  /**
   * Commits the statement `write` builds together with the call's own record (its history row and
   * charge), in one transaction sent whole before the answer leaves, and only if the call
   * succeeds: a handler's stored results (a calendar's stored rates) then commit with what the
   * call is charged, or not at all, and cost no round trip of their own. Absent where no call
   * record follows (the handler then sends it itself).
   */
  commitWithCall?: (write: (tx: Db) => Statement) => void;
  /**
   * Leaves `work` (statements that need one another's answers) to the transaction the door settles
   * the call in, beside the call's record and the door's own work, and only if the call succeeds: a
   * watch check's parity range is written, and its batch queued, in the check's transaction, so a
   * check refused at commit leaves nothing running or to charge. Absent where the call settles on
   * its own (REST, MCP without a task): the handler then commits the work itself.
   */
  commitWithDoor?: (work: (tx: Tx) => Promise<void>) => void;
}

/** How a call that may be cached was answered. */
export interface CacheOutcome {
  /** From the cache or from an identical call's fetch (free); false: fetched for this call (charged). */
  hit: boolean;
  /** When the answer was fetched from the upstream. */
  observedAt: Date;
}

/** The result cache as one call uses it: invokeTool runs a cached operation through it, the compatible search its operation. */
export interface CallCache {
  /**
   * `fetch`'s answer for `tool` and its valid `input`, or the same answer from the shared cache or
   * from an identical call in flight, as `tool.cache` allows. `bypass`: fetched live (the caller
   * asked so). `facts`: kept beside a fetched answer and handed back with it on a hit.
   */
  run<O>(
    tool: Tool<unknown, O>,
    input: unknown,
    fetch: () => Promise<O>,
    opts?: { bypass?: boolean; facts?: () => Record<string, unknown> },
  ): Promise<{ output: O; facts: Record<string, unknown> | null }>;
  /** How the call was answered; null while nothing of it could be cached. */
  readonly outcome: CacheOutcome | null;
}

/** A charge beside the base one: `credits` for each `per` (a night, a spot-check), `when` an argument asks for it. */
export interface CostGrowth {
  credits: number;
  per: string;
  when?: string;
}

/** What a call costs: charged only on a successful, non-empty result. */
export interface CreditRule<I, O> {
  /** Cost shown in the plan catalogue (the base for variable costs). */
  base: number;
  /** How a variable cost grows, for the catalogue; absent for fixed costs. */
  note?: string;
  /** What `base` is charged for: each call (the default) or each page fetched. */
  per?: 'call' | 'page';
  /** Charges on top of `base`, as data (an agent reads them in the tool's `_meta`). */
  growth?: CostGrowth[];
  /** When a call that ran is free, e.g. "no match". */
  free?: string;
  /** Upper bound reserved before the call when credits are enforced. */
  max(input: I): number;
  /** Actual charge once the handler has returned. */
  actual(input: I, output: O): number;
}

/**
 * A tool that can run past ~10 s: for a client that declares the MCP tasks extension, the server
 * runs the calls `when` picks as tasks (durable, polled, cancellable) instead of holding the call open.
 */
interface TaskRule<I> {
  when(input: I): boolean;
  /** Expected run time in seconds (poll interval; a crashed run is retried after twice this). */
  seconds(input: I): number;
}

/**
 * How the MCP door answers an agent, from the operation's own (REST) answer: an agent pays for
 * every token, so the default is compact and the rest is asked for (a detail level, a row count).
 */
export interface McpView<I, O> {
  /**
   * Arguments of the MCP tool alone (detail level, rows wanted), listed beside the operation's
   * fields and taken off before its input is validated; each with its default.
   */
  args?: Record<string, z.ZodType>;
  /** Schema of the answer an agent gets (the listing's outputSchema); absent: the operation's own. */
  output?: z.ZodType;
  /** The answer an agent gets. */
  shape(output: O, args: Record<string, unknown>, input: I): Record<string, unknown>;
}

/**
 * Fields the MCP tool is always refused without, beyond what its zod schema states (a check in a
 * refinement or a transform). A field required only under a condition (a round trip's return
 * date, one of a listing's three names) is said in the descriptions and checked by the server:
 * no schema form of a condition survives every client's converter (LangChain's turns a top-level
 * `if`/`then`/`else` into an unconditional `required`; Anthropic's API refuses a tool whose input
 * schema starts with `anyOf`, `oneOf` or `allOf`).
 */
interface McpRequirements {
  required?: string[];
}

/**
 * Where the tool is listed over MCP: `expose` in the default set (the 18 read-only tools every
 * caller lists), or `set`: in an opt-in set a caller lists only when the MCP_TOOL_SETS setting or
 * its key enables it (src/domain/mcp-tool-sets.ts).
 */
type McpListing = { expose: true; set?: never } | { set: McpToolSet; expose?: never };

type McpSpec<I, O> = McpListing & McpShape<I, O>;

interface McpShape<I, O> {
  title?: string;
  /** Argument defaults of the MCP tool where they differ from the REST route's (listed as the fields' defaults). */
  defaults?: Record<string, unknown>;
  /** Upper bounds of the MCP tool where lower than the route's, so that its largest answer fits an agent's budget (listed as the fields' maximum). */
  maximums?: Record<string, number>;
  task?: TaskRule<I>;
  view?: McpView<I, O>;
  requires?: McpRequirements;
  /** The first line of the result's text block: what was found, for a person or a model reading text only. */
  summary?: (answer: Record<string, unknown>) => string;
  /** The text block's lines after the summary, where the answer's compact JSON lines (one per list item) say less or cost more. */
  text?: (answer: Record<string, unknown>) => string[];
  /**
   * The MCP App (io.modelcontextprotocol/ui) that shows this tool's answer in hosts that render
   * apps: the name of its page (src/doors/mcp/apps/views/<app>.view.ts), served as a `ui://`
   * resource and linked from the tool's `_meta.ui.resourceUri`. The result itself is unchanged.
   */
  app?: string;
  /**
   * Hints of an opt-in set's tool (a default-set tool is read-only and reads third-party sites):
   * whether it changes nothing, deletes, may be repeated to no further effect, reaches outside.
   */
  hints?: McpHints;
}

interface McpHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
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
  /** For fixed costs: what such an empty result is, in words ("no match"), for the cost an agent reads. */
  free?: string;
  /**
   * How fast its answers go out of date, when they are served again from the shared result cache
   * (the seconds per kind are settings: RESULT_CACHE_*): a repeated identical call within that time
   * is answered from it, free. Only for metered operations of public web data; its input takes
   * CACHE_FIELD (src/core/result-cache.ts). Absent: every call is fetched live.
   */
  cache?: Freshness;
  /** A successful answer that is partial (a source failed or is missing from it): never cached. */
  partial?: (output: z.output<O>) => boolean;
  /** HTTP status of success (200 unless stated). */
  status?: number;
  /** The key may come as `api_key` in the query (compatible search GET routes only). */
  queryKey?: boolean;
  /** Error bodies also carry `error` (the compatible search API's field) beside `detail`. */
  compatErrors?: boolean;
  /**
   * Listed as one of the read-only MCP tools at POST /mcp, shaped for agents from this one
   * descriptor (McpSpec): defaults and maximums of its own, its answer's view, what it requires,
   * its text summary; `task`: when a call runs as an MCP task.
   */
  mcp?: McpSpec<z.output<S>, z.output<O>>;
  /** Statuses beyond the common ones (401, 422, 429, 503; 402 and 502 when metered), with when. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Request headers the handler reads (e.g. Idempotency-Key). */
  headers?: Record<string, HeaderSpec>;
  /** Also answers CSV (`format=csv` or `Accept: text/csv`): what its lines are, for the reference. */
  csv?: string;
  /** A dispatching route (the compatible search): the operations it picks by `engine`, whose inputs are its query. */
  engines?: Record<string, Tool>;
  /** A request to show in the reference; it must validate against `input`. */
  example?: z.input<S>;
  /** Called unbound (the doors and the compatible search pass it around), so it never reads `this`. */
  handler(this: void, input: z.output<S>, ctx: ToolContext): Promise<z.output<O>>;
  /**
   * What each call adds to the answer after the result cache (a hit included): what belongs to
   * the caller and this moment, never to a cached answer (the booking links minted for it). The
   * lifecycle's invoke step runs it (invoke.ts invokeTool), for every door.
   */
  finish?: (this: void, output: z.output<O>, ctx: ToolContext) => Promise<z.output<O>>;
}

export interface Tool<I = unknown, O = unknown> {
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
  /** ToolSpec.cache; null: not cached. */
  cache: Freshness | null;
  /** The handler runs its operation through ctx.cache itself (the compatible search builds its envelope around it). */
  cacheInHandler: boolean;
  /** ToolSpec.partial; false when absent. */
  partial(output: O): boolean;
  status: number;
  queryKey: boolean;
  compatErrors: boolean;
  mcp: {
    /** In the default set. */
    expose: boolean;
    /** The opt-in set it is listed in; null: none (the default set's tools, and tools not on MCP). */
    set: McpToolSet | null;
    title: string;
    defaults: Record<string, unknown>;
    maximums: Record<string, number>;
    task?: TaskRule<I>;
    view?: McpView<I, O>;
    requires: McpRequirements;
    summary?: (answer: Record<string, unknown>) => string;
    text?: (answer: Record<string, unknown>) => string[];
    app?: string;
    hints?: McpHints;
  };
  errors: Partial<Record<ErrorStatus, string>>;
  headers: Record<string, HeaderSpec>;
  csv?: string;
  engines?: Record<string, Tool>;
  example?: unknown;
  handler(this: void, input: I, ctx: ToolContext): Promise<O>;
  // a method, like handler: a Tool<I, O> is then also a Tool (bivariant parameters)
  finish?(this: void, output: O, ctx: ToolContext): Promise<O>;
}

export function defineTool<S extends z.ZodType, O extends z.ZodType>(spec: ToolSpec<S, O>): Tool<z.output<S>, z.output<O>> {
  const credits: CreditRule<z.output<S>, z.output<O>> = typeof spec.credits === 'number'
    ? { ...fixedCost(spec.credits, spec.isEmpty), ...(spec.free ? { free: spec.free } : {}) }
    : spec.credits;
  if (spec.cache && !(credits.base > 0)) throw new Error(`${spec.name}: only a metered operation is cached (a free one has nothing to save)`);
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
    cache: spec.cache ?? null,
    cacheInHandler: false,
    partial: spec.partial ?? (() => false),
    status: spec.status ?? 200,
    queryKey: spec.queryKey ?? false,
    // the compatible search family answers errors with both `detail` and that API's `error`
    compatErrors: spec.compatErrors ?? (spec.path.startsWith('/v1/serp/') || spec.path.startsWith('/api/')),
    mcp: {
      expose: spec.mcp?.expose ?? false,
      set: spec.mcp?.set ?? null,
      title: spec.mcp?.title ?? spec.title,
      defaults: spec.mcp?.defaults ?? {},
      maximums: spec.mcp?.maximums ?? {},
      task: spec.mcp?.task,
      view: spec.mcp?.view,
      requires: spec.mcp?.requires ?? {},
      summary: spec.mcp?.summary,
      text: spec.mcp?.text,
      app: spec.mcp?.app,
      hints: spec.mcp?.hints,
    },
    errors: spec.errors ?? {},
    headers: spec.headers ?? {},
    ...(spec.csv ? { csv: spec.csv } : {}),
    engines: spec.engines,
    example: spec.example,
    handler: spec.handler,
    finish: spec.finish,
  };
}

function fixedCost<I, O>(n: number, isEmpty?: (o: O) => boolean): CreditRule<I, O> {
  return {
    base: n,
    max: () => n,
    actual: (_input, output) => (isEmpty?.(output) ? 0 : n),
  };
}
