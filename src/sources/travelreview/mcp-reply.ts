/**
 * Replies of the metasearch's public MCP server (Streamable HTTP): a JSON-RPC message either as a
 * JSON body or inside `data:` lines of an event stream. The search tool's result carries the
 * accommodations as `structuredContent`, or as JSON inside a text block (sometimes wrapped in an
 * `output` string after an instruction preamble).
 */
import { UNREADABLE, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { arr, arrOrNull, at, str, type Json } from '../../domain/json.js';

/**
 * The JSON-RPC message answering request `id`. A body with no JSON message at all is not a reply
 * of the expected kind (502 `unusable`); JSON-RPC messages without this answer are a changed contract.
 */
export function rpcMessage(body: string, id: number): Json {
  const candidates: string[] = [];
  let read = false;
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) candidates.push(trimmed);
  for (const line of body.split(/\r?\n/)) if (line.startsWith('data:')) candidates.push(line.slice(5).trim());
  for (const c of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(c);
    } catch {
      continue;
    }
    read = true;
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) if (at(m, 'id') === id) return m;
  }
  if (!read) throw new UpstreamFailed(UNREADABLE, 'unusable');
  throw new UpstreamContractChanged('travelreview', `JSON-RPC reply to request ${id}`);
}

function jsonIn(text: string): Json {
  const start = text.indexOf('{');
  if (start < 0) return null;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return null;
  }
}

/** An object whose `accommodations` is a list (returned as it came, other keys included). */
function hasAccommodations(v: unknown): v is { accommodations: unknown[] } {
  return arrOrNull(v, 'accommodations') !== null;
}

/** `{ accommodations: [...] }` out of a tools/call result. */
export function toolAccommodations(message: Json): { accommodations: unknown[] } {
  if (at(message, 'error')) throw new UpstreamFailed('ToolCallError');
  const result = at(message, 'result');
  if (at(result, 'isError')) throw new UpstreamFailed('ToolCallError');
  const structured = at(result, 'structuredContent');
  if (hasAccommodations(structured)) return structured;
  for (const block of arr(result, 'content')) {
    const blockText = str(block, 'text');
    const parsed = blockText !== null ? jsonIn(blockText) : null;
    if (hasAccommodations(parsed)) return parsed;
    const output = str(parsed, 'output');
    if (output !== null) {
      try {
        const inner: unknown = JSON.parse(output);
        if (Array.isArray(inner)) return { accommodations: inner };
        if (hasAccommodations(inner)) return inner;
      } catch {
        // Not JSON; other blocks may still carry the list.
      }
    }
  }
  throw new UpstreamContractChanged('travelreview', 'accommodations in the search tool result');
}
