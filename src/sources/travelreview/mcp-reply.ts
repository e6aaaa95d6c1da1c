/**
 * Replies of the metasearch's public MCP server (Streamable HTTP): a JSON-RPC message either as a
 * JSON body or inside `data:` lines of an event stream. The search tool's result carries the
 * accommodations as `structuredContent`, or as JSON inside a text block (sometimes wrapped in an
 * `output` string after an instruction preamble).
 */
import { UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';

type Json = any;

/** The JSON-RPC message answering request `id`. */
export function rpcMessage(body: string, id: number): Json {
  const candidates: string[] = [];
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) candidates.push(trimmed);
  for (const line of body.split(/\r?\n/)) if (line.startsWith('data:')) candidates.push(line.slice(5).trim());
  for (const c of candidates) {
    let parsed: Json;
    try {
      parsed = JSON.parse(c);
    } catch {
      continue;
    }
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) if (m && m.id === id) return m;
  }
  throw new UpstreamContractChanged('travelreview', `JSON-RPC reply to request ${id}`);
}

function jsonIn(text: string): Json | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return null;
  }
}

/** `{ accommodations: [...] }` out of a tools/call result. */
export function toolAccommodations(message: Json): { accommodations: Json[] } {
  if (message?.error) throw new UpstreamFailed('ToolCallError');
  const result = message?.result;
  if (result?.isError) throw new UpstreamFailed('ToolCallError');
  if (Array.isArray(result?.structuredContent?.accommodations)) return result.structuredContent;
  for (const block of result?.content ?? []) {
    const parsed = typeof block?.text === 'string' ? jsonIn(block.text) : null;
    if (Array.isArray(parsed?.accommodations)) return parsed;
    if (typeof parsed?.output === 'string') {
      try {
        const inner = JSON.parse(parsed.output);
        if (Array.isArray(inner)) return { accommodations: inner };
        if (Array.isArray(inner?.accommodations)) return inner;
      } catch {
        // Not JSON; other blocks may still carry the list.
      }
    }
  }
  throw new UpstreamContractChanged('travelreview', 'accommodations in the search tool result');
}
