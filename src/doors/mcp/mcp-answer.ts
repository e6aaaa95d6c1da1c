/**
 * What the MCP door makes of an operation's answer for an agent, which pays for every token it reads:
 * the view its descriptor defines (mcp.view; compact by default, more on request) or, without one,
 * the answer itself with the provenance every price shares stated once; and the text block, a short
 * summary and the JSON a model needs, without what only a program reads (metadata, provenance,
 * image URLs), so that a client forwarding both the text and the structured result does not pay
 * for the answer twice. REST answers are never shaped: they keep the contract's full shapes.
 */
import { z } from 'zod';
import { InvalidInput, type ValidationIssue } from '../../domain/errors.js';
import type { Tool } from '../../core/define-tool.js';
import { toValidationIssues } from '../../core/validation.js';

type Json = Record<string, unknown>;

/** The fields every provenance of an answer shares, stated once at its top under this key. */
export const SHARED_PROVENANCE = 'shared_provenance';

/** The MCP tool's own arguments (its view's), validated with their defaults, and the rest for the operation. */
export function splitArguments(tool: Tool, given: Json): { view: Json; rest: Json } {
  const names = Object.keys(tool.mcp.view?.args ?? {});
  if (!names.length) return { view: {}, rest: given };
  const mine = Object.fromEntries(Object.entries(given).filter(([k]) => names.includes(k)));
  const rest = Object.fromEntries(Object.entries(given).filter(([k]) => !names.includes(k)));
  const parsed = z.object(tool.mcp.view!.args).safeParse(mine);
  if (!parsed.success) throw new InvalidInput(toValidationIssues(parsed.error.issues, mine, () => 'body'));
  return { view: parsed.data, rest };
}

/** The MCP tool's lower bounds (mcp.maximums), checked once the input is valid: a 422 as the schema's own bounds give. */
export function checkMaximums(tool: Tool, input: unknown): void {
  const issues: ValidationIssue[] = [];
  for (const [field, max] of Object.entries(tool.mcp.maximums)) {
    const value = (input as Json | null)?.[field];
    if (typeof value === 'number' && value > max) {
      issues.push({
        type: 'less_than_equal',
        loc: ['body', field],
        msg: `Input should be less than or equal to ${max} (an agent's answer stays within its token budget)`,
        input: value,
      });
    }
  }
  if (issues.length) throw new InvalidInput(issues);
}

/**
 * Top-level fields an agent has no use for: a search's own metadata and the collection's
 * diagnostics (timings, upstream URL, byte counts; the call's request id is in the result's
 * `_meta`), the upstream's internal ids and codes no tool takes.
 */
export const AGENT_OMITS = [
  'search_metadata',
  'wire_bytes',
  'elapsed_s',
  'calendar_elapsed_s',
  'egress_geo_locked_ok',
  'price_insights_market_verified',
  'data_id',
  'amenity_codes',
];

/** The structured result an agent gets for the operation's answer. */
export function agentAnswer(tool: Tool, output: unknown, view: Json, input: unknown): Json {
  const shaped = tool.mcp.view ? tool.mcp.view.shape(output, view, input) : (output as Json);
  const answer = Object.fromEntries(Object.entries(shaped).filter(([k]) => !AGENT_OMITS.includes(k)));
  return shareProvenance(answer);
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isProvenanceKey = (k: string) => k === 'provenance' || k.endsWith('_provenance');

/**
 * Provenance objects (under `provenance` or `…_provenance`) reduced to what tells them apart, the
 * fields they all share stated once at the top: nothing is lost, and a page of 20 hotels with five
 * prices each no longer repeats the same source, market, currency and collection 100 times.
 */
function shareProvenance(answer: Json): Json {
  const all: Json[] = [];
  const collect = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(collect);
    if (!isObject(v)) return;
    for (const [k, child] of Object.entries(v)) {
      if (isProvenanceKey(k) && isObject(child)) all.push(child);
      else collect(child);
    }
  };
  collect(answer);
  if (!all.length || SHARED_PROVENANCE in answer) return answer;
  const shared: Json = {};
  for (const [k, value] of Object.entries(all[0])) {
    const text = JSON.stringify(value);
    if (all.every((p) => k in p && JSON.stringify(p[k]) === text)) shared[k] = value;
  }
  const reduce = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(reduce);
    if (!isObject(v)) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, child]) => [
        k,
        isProvenanceKey(k) && isObject(child) ? Object.fromEntries(Object.entries(child).filter(([f]) => !(f in shared))) : reduce(child),
      ]),
    );
  };
  return { ...(reduce(answer) as Json), [SHARED_PROVENANCE]: shared };
}

/** What a model reading the text block does not need: metadata, provenance, images (the structured result keeps them). */
const TEXT_OMITS = new Set([
  SHARED_PROVENANCE,
  'search_metadata',
  'search_parameters',
  'collection_id',
  'observed_at',
  'wire_bytes',
  'elapsed_s',
  'calendar_elapsed_s',
  'request_url',
  'thumbnail',
  'images',
  'image',
  'airline_logo',
  'data_id',
]);

/** A value as the text block writes it: its essentials as compact JSON. */
function compact(v: unknown): string {
  return JSON.stringify(essentials(v));
}

function essentials(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(essentials);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k, child]) => !TEXT_OMITS.has(k) && !isProvenanceKey(k) && child !== null)
      .map(([k, child]) => [k, essentials(child)]),
  );
}

/**
 * The answer's lines: its own fields on one line, then each list of the answer (top level, or one
 * level down as in a calendar's `periods`) with one line per item. Every item of the view is
 * there, so a client that reads only text (the AI SDK, Mastra and OpenAI Agents by default) can
 * answer what a client reading the structured result can.
 */
function viewLines(answer: Json): string[] {
  const head: Json = {};
  const lists: string[] = [];
  for (const [k, v] of Object.entries(answer)) {
    if (TEXT_OMITS.has(k) || isProvenanceKey(k) || v === null) continue;
    if (Array.isArray(v) && v.some(isObject)) {
      lists.push(`${k} (${v.length}):`, ...v.map((item) => `- ${compact(item)}`));
    } else head[k] = v;
  }
  const first = compact(head);
  return [...(first === '{}' ? [] : [first]), ...lists];
}

/**
 * The text block: the descriptor's one-line summary, then the whole view in compact lines (the
 * descriptor's own `text` lines where it has them): what a model needs to choose and to call the
 * next tool, without what only a program reads (metadata, provenance, image URLs), so that a
 * client forwarding both the text and the structured result pays for the facts once and their
 * markup, not twice. The 2025 revisions ask a tool with structured content to also give it as
 * text, for clients that read no structured result.
 */
export function textBlock(tool: Tool, answer: Json): string {
  const summary = tool.mcp.summary?.(answer) ?? `${tool.mcp.title}: answered.`;
  const lines = tool.mcp.text ? tool.mcp.text(answer) : viewLines(answer);
  // an answer with nothing to leave out is said by its summary alone: the JSON would be a second copy
  if (lines.length === 1 && lines[0] === JSON.stringify(answer)) return summary;
  return [summary, ...lines].join('\n');
}
