import { z } from 'zod';
import { InvalidInput, type ValidationIssue } from '../../domain/errors.js';
import type { Tool, ToolContext } from '../define-tool.js';
import { queryBool } from '../../domain/query-params.js';
import { coerceQuery } from '../query.js';
import { parseInput, type Location } from '../validation.js';
import { archiveSearch } from '../../platform/search-archive.js';
import { UpstreamTap } from './capture.js';

/**
 * One of the compatible search API's parameters, as our operation takes it:
 * - `{}` the same name and value;
 * - `to` our field name (and `value` our value form);
 * - `noEffect` accepted, cannot change our answer; the reason is named in `warnings`;
 * - `notApplied` a filter or order we cannot apply whose effect the caller can do without (the
 *   answer is broader or in the engine's own order, and carries what is needed to apply it):
 *   accepted, and a value other than its neutral one is named in `warnings`;
 * - `unsupported` would change what the answer means in a way the caller cannot undo (another
 *   area, other prices, another series): a value other than its neutral one (false, 0, empty) is
 *   refused with 400 naming the reason, together with every other problem of the request.
 */
export type ParamRule = {
  to?: string;
  value?: (v: unknown) => unknown;
  noEffect?: string;
  notApplied?: string;
  unsupported?: string;
  /** Consumed by the engine's `derive` into this field of our operation (e.g. check_out_date into nights). */
  via?: string;
  /** Values of an unsupported parameter that ask for what we do anyway (besides false, 0 and empty). */
  neutral?: readonly string[];
  doc?: string;
};

export interface CompatEngine {
  /** The engine name as clients send it (that API's name, or our alias). */
  name: string;
  /** Our operation; a function when the parameters pick it (google_flights with departure_token). */
  tool: Tool | ((params: Record<string, unknown>) => Tool);
  /** Every parameter that API documents for the engine and we take. Unlisted names go to our operation unchanged. */
  params: Record<string, ParamRule>;
  /** search_parameters keys that API echoes as numbers (the others as text). */
  numbers?: readonly string[];
  /** Keys of our operation's echo that API echoes even when not sent (its defaults). */
  echoDefaults?: readonly string[];
  /** That API's response shape where ours differs, applied to our operation's answer. */
  reshape?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Our own alias: search_parameters stay as our operation echoes them. */
  ownEcho?: boolean;
  /** Fields of our operation computed from several of that API's parameters (the `via` ones). */
  derive?: (params: Record<string, unknown>) => Record<string, unknown>;
  /** Parameters the chosen operation takes from elsewhere (a token carries the search), with the reason. */
  carriedBy?: (tool: Tool) => { params: readonly string[]; reason: string } | null;
}

/** Parameters of every engine of that API. */
export const COMMON_PARAMS: Record<string, ParamRule> = {
  engine: { doc: 'the engine' },
  zero_retention: { doc: 'true: nothing kept (archive, raw page, cache)' },
  no_cache: { doc: 'true: fetched live, never answered from the result cache (a repeated search is otherwise answered from it, free, while fresh)' },
  async: { noEffect: 'the search is answered synchronously; the stored answer is also at search_metadata.json_url' },
};

/** The common parameters as fields of an operation's own schema, for its POST /v1/serp/<engine> route. */
export const COMPAT_COMMON_FIELDS = {
  zero_retention: queryBool.optional().describe(COMMON_PARAMS.zero_retention.doc!),
  // that API's name for our `cache: false` (which these routes take too): deprecated here, so the MCP listing leaves it out
  no_cache: queryBool.optional().meta({ deprecated: true, description: `${COMMON_PARAMS.no_cache.doc}; the same as cache: false` }),
  // deprecated: accepted so that client's requests pass, and left out of the MCP listing where they would only cost tokens
  async: queryBool.optional().meta({ deprecated: true, description: `accepted for compatibility: ${COMMON_PARAMS.async.noEffect}` }),
};

export interface ResolvedSearch {
  engine: CompatEngine;
  tool: Tool;
  /** Our operation's validated input. */
  input: unknown;
  /** The caller's parameters (that API's names), minus the credential. */
  params: Record<string, unknown>;
  warnings: string[];
  zeroRetention: boolean;
}

const NEUTRAL = new Set<unknown>([false, 'false', 0, '0', '', undefined, null]);

function objectKeys(schema: z.ZodType): Set<string> {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return new Set(shape ? Object.keys(shape) : []);
}

function asksZeroRetention(params: Record<string, unknown>): boolean {
  return params.zero_retention === true || params.zero_retention === 'true';
}

/**
 * Translates a request of that API into our operation's input and validates it there: one
 * implementation per operation, this only renames. Errors name the caller's parameters.
 */
export function resolveSearch(engine: CompatEngine, raw: Record<string, unknown>, locate: (key: string | undefined) => Location): ResolvedSearch {
  const params = { ...raw };
  delete params.api_key;
  const tool = typeof engine.tool === 'function' ? engine.tool(params) : engine.tool;
  const own = objectKeys(tool.input);
  const warnings: string[] = [];
  // every problem of the request in one 400: refused parameters and the operation's own validation
  const issues: ValidationIssue[] = [];
  const mapped: Record<string, unknown> = {};
  const theirName = new Map<string, string>();
  // a field the caller did not send is still named as that API names it (a missing url, not pagename)
  for (const [name, rule] of Object.entries(engine.params)) {
    const ours = rule.via ?? rule.to;
    if (ours && !theirName.has(ours)) theirName.set(ours, name);
  }
  const carried = engine.carriedBy?.(tool) ?? null;
  for (const [name, value] of Object.entries(params)) {
    if (name === 'engine') continue;
    const rule = engine.params[name] ?? COMMON_PARAMS[name] ?? {};
    const noEffect = carried?.params.includes(name) ? carried.reason : rule.noEffect;
    if (noEffect) {
      warnings.push(`${name}: ${noEffect}`);
      continue;
    }
    const neutral = NEUTRAL.has(value) || rule.neutral?.includes(String(value)) === true;
    if (rule.notApplied) {
      if (!neutral) warnings.push(`${name}: not applied: ${rule.notApplied}`);
      continue;
    }
    if (rule.unsupported) {
      if (!neutral) issues.push({ type: 'unsupported', loc: [locate(name), name], msg: rule.unsupported, input: value });
      continue;
    }
    if (rule.via) {
      theirName.set(rule.via, name);
      continue;
    }
    const to = rule.to ?? name;
    if (name in COMMON_PARAMS && !own.has(to)) continue;
    mapped[to] = rule.value ? rule.value(value) : value;
    theirName.set(to, name);
  }
  Object.assign(mapped, engine.derive?.(params));
  let input: unknown;
  try {
    input = parseInput(tool.input, coerceQuery(tool.input, mapped), locate);
  } catch (err) {
    if (!(err instanceof InvalidInput) || !Array.isArray(err.detail)) throw err;
    issues.push(...err.detail.map((d) => inTheirTerms(d, theirName)));
  }
  if (issues.length) throw new InvalidInput(issues);
  return { engine, tool, input, params, warnings, zeroRetention: asksZeroRetention(params) };
}

/** A validation issue of our operation with the caller's parameter names, in its location and in its message. */
function inTheirTerms(d: ValidationIssue, theirName: Map<string, string>): ValidationIssue {
  let msg = d.msg;
  for (const [ours, theirs] of theirName) if (ours !== theirs) msg = msg.replace(new RegExp(`\\b${ours}\\b`, 'g'), theirs);
  return { ...d, msg, loc: d.loc.map((p, i) => (i === 1 && typeof p === 'string' ? (theirName.get(p) ?? p) : p)) };
}

const seconds = (ms: number) => Math.round(ms) / 1000;
/** That API's timestamps carry no fraction of a second. */
const isoSeconds = (d: Date | string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');

function baseUrl(ctx: ToolContext): string {
  const configured = ctx.deps.config.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const host = ctx.headers.host;
  return host ? `http://${host}` : '';
}

/** search_parameters in that API's value types: its engine name, then what the caller sent. */
function echo(r: Pick<ResolvedSearch, 'engine' | 'params'>, ours: Record<string, unknown> | undefined): Record<string, unknown> {
  const { engine } = r;
  if (engine.ownEcho && ours) return ours;
  const out: Record<string, unknown> = { engine: engine.name };
  for (const key of engine.echoDefaults ?? []) {
    const value = ours?.[engine.params[key]?.to ?? key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  for (const [k, v] of Object.entries(r.params)) if (k !== 'engine' && v !== undefined) out[k] = v;
  for (const [k, v] of Object.entries(out)) {
    if (k === 'engine') continue;
    out[k] =
      engine.numbers?.includes(k) && v !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : Array.isArray(v)
          ? v.join(',')
          : typeof v === 'string'
            ? v
            : typeof v === 'number' || typeof v === 'boolean'
              ? String(v)
              : JSON.stringify(v);
  }
  return out;
}

/** The search asks to be fetched live: no_cache=true (that API's name), or our `cache: false`. */
function asksLive(r: ResolvedSearch): boolean {
  const { no_cache } = r.params;
  return no_cache === true || no_cache === 'true' || (r.input as { cache?: unknown } | null)?.cache === false;
}

/** How the operation's answer was fetched: the envelope's timings and request URL (kept with a cached answer, for its hits). */
type FetchFacts = {
  started: string;
  request_ms: number;
  total_ms: number;
  request_url: string | null;
};

/**
 * Runs the operation (through the result cache: a repeated search within its freshness is
 * answered from it) and answers in that API's envelope: search_metadata (with json_url and
 * html_url when the search is archived), search_parameters in its value types, our answer
 * (reshaped where its shape differs; our provenance stays inside) and `warnings` for parameters
 * that had no effect. Unless zero_retention is set, the answer (and the first upstream reply, when
 * this call fetched one) is archived for the caller's key.
 */
export async function runCompatSearch(
  r: ResolvedSearch,
  ctx: ToolContext,
  handler: Tool['handler'] = r.tool.handler,
): Promise<{ output: unknown; body: Record<string, unknown> }> {
  const tap = new UpstreamTap();
  const started = new Date();
  const t0 = performance.now();
  const facts = (): FetchFacts => ({
    started: started.toISOString(),
    request_ms: tap.requestMs,
    total_ms: performance.now() - t0,
    request_url: tap.replies[0]?.url ?? null,
  });
  const run = await ctx.cache.run(r.tool, r.input, () => handler(r.input, { ...ctx, deps: { ...ctx.deps, upstream: tap.around(ctx.deps.upstream) } }), {
    bypass: asksLive(r),
    facts,
  });
  const body = await finishSearch(r, run.output as Record<string, unknown>, ctx, tap, (run.facts as FetchFacts | null) ?? facts());
  return { output: run.output, body };
}

async function finishSearch(
  r: ResolvedSearch,
  output: Record<string, unknown>,
  ctx: ToolContext,
  tap: UpstreamTap,
  facts: FetchFacts,
): Promise<Record<string, unknown>> {
  const shaped = r.engine.reshape ? r.engine.reshape(output) : output;
  const {
    search_metadata: ourMeta,
    search_parameters: ourEcho,
    ...rest
  } = shaped as { search_metadata?: Record<string, unknown>; search_parameters?: Record<string, unknown> };
  // the page this call fetched (none when its answer came from the result cache)
  const page = tap.replies[0] ?? null;
  // the archive serves that API's json_url / html_url: an MCP call (no such links in that protocol) keeps nothing there
  const store = ctx.transport === 'rest' && !r.zeroRetention && !ctx.zeroRetention && Boolean(ctx.key.account_id);
  const link = `${baseUrl(ctx)}/api/v1/searches/${ctx.requestId}`;
  const { id: _id, status: _s, created_at, request_time_taken, parsing_time_taken, total_time_taken, request_url, ...extra } = ourMeta ?? {};
  const search_metadata: Record<string, unknown> = {
    id: ctx.requestId,
    status: 'Success',
    created_at: isoSeconds((created_at as string | undefined) ?? facts.started),
    request_time_taken: request_time_taken ?? seconds(facts.request_ms),
    parsing_time_taken: parsing_time_taken ?? seconds(Math.max(0, facts.total_ms - facts.request_ms)),
    total_time_taken: total_time_taken ?? seconds(facts.total_ms),
    request_url: request_url ?? facts.request_url,
    ...(store && page ? { html_url: `${link}.html` } : {}),
    ...(store ? { json_url: link } : {}),
    ...extra,
  };
  const body: Record<string, unknown> = { search_metadata, search_parameters: echo(r, ourEcho), ...rest };
  if (r.warnings.length) body.warnings = r.warnings;
  if (store)
    await archiveSearch(ctx.deps.sql, ctx.deps.config.SEARCH_ARCHIVE_DAYS, { id: ctx.requestId, key: ctx.key, engine: r.engine.name, response: body, page });
  return body;
}

/**
 * An operation that already lives at POST /v1/serp/<its alias>: same descriptor, its answer
 * finished like every other compatible search (envelope links, warnings, archive).
 */
export function asCompatRoute(tool: Tool, engine: CompatEngine): Tool {
  const handler = tool.handler;
  const output = tool.output instanceof z.ZodObject ? tool.output.extend({ warnings: z.array(z.string()).optional() }) : tool.output;
  return {
    ...tool,
    output,
    // its operation (this descriptor's own handler) is what the result cache keeps, never the envelope made per call
    cacheInHandler: true,
    async handler(input, ctx) {
      const params = input as Record<string, unknown>;
      const warnings = Object.entries(COMMON_PARAMS).flatMap(([k, rule]) => (rule.noEffect && params[k] !== undefined ? [`${k}: ${rule.noEffect}`] : []));
      const r: ResolvedSearch = { engine, tool, input, params, warnings, zeroRetention: asksZeroRetention(params) };
      return (await runCompatSearch(r, ctx, handler)).body;
    },
  };
}
