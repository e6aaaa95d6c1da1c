/**
 * The input and output schemas of one MCP tool as `tools/list` carries them, from its descriptor:
 * the operation's input plus the MCP tool's own arguments (its view's), with the MCP defaults and
 * maximums, and what the server refuses a call without stated as `required` (or a top-level
 * `if`/`then`/`else`); the output: the view's schema, or the operation's with the shared provenance.
 */
import { z } from 'zod';
import type { Tool } from '../../core/define-tool.js';
import { jsonSchema } from '../../core/json-schema.js';
import { COST_META_KEY, costLine, toolCost } from '../../core/tool-cost.js';
import { AGENT_OMITS, SHARED_PROVENANCE } from './mcp-answer.js';
import { leanSchema } from './mcp-schema.js';
import { appToolMeta } from './mcp-apps.js';

type Schema = Record<string, unknown>;

/** A tool's MCP description: its cost on the first line (as `_meta` states it as data), then what it does. */
export function mcpDescription(tool: Tool): string {
  return `${costLine(tool)}\n${tool.description}`;
}

/**
 * A tool's `_meta` in the listing: its cost as data (credits, per page or call, what adds to it,
 * when it is free) and, for a tool with an MCP App, the `ui://` page that shows its answer.
 */
export function mcpToolMeta(tool: Tool): Record<string, unknown> {
  return { [COST_META_KEY]: toolCost(tool), ...appToolMeta(tool) };
}

export function mcpInputSchema(tool: Tool): Schema {
  const base = jsonSchema(tool.input, 'input');
  const own = tool.mcp.view?.args ? (jsonSchema(z.object(tool.mcp.view.args), 'input').properties as Record<string, Schema>) : {};
  const properties = Object.fromEntries(
    Object.entries({ ...(base.properties as Record<string, Schema> | undefined), ...own }).map(([name, p]) => {
      const shown = { ...p };
      if (name in tool.mcp.defaults) shown.default = tool.mcp.defaults[name];
      if (name in tool.mcp.maximums) shown.maximum = tool.mcp.maximums[name];
      return [name, shown];
    }),
  );
  const { required: needs = [] } = tool.mcp.requires;
  const required = [...new Set([...((base.required as string[] | undefined) ?? []), ...needs])].filter((name) => !(name in tool.mcp.defaults));
  const schema: Schema = { ...base, properties, ...(required.length ? { required } : {}) };
  if (!required.length) delete schema.required;
  return leanSchema(schema, 'input');
}

export function mcpOutputSchema(tool: Tool): Schema {
  const full = jsonSchema(tool.mcp.view?.output ?? tool.output, 'output');
  const properties = Object.fromEntries(
    Object.entries((full.properties as Record<string, Schema> | undefined) ?? {}).filter(([k]) => !AGENT_OMITS.includes(k)),
  );
  // an answer with provenance states what all of it shares once (mcp-answer.ts)
  if (JSON.stringify(full).includes('provenance')) properties[SHARED_PROVENANCE] = { type: 'object' };
  return leanSchema({ ...full, properties }, 'output');
}
