/**
 * The MCP tool sets a caller may opt into beside the default set (the 18 read-only tools, which
 * every caller lists). A set is enabled for every caller by the MCP_TOOL_SETS setting or for one
 * key (api_keys.mcp_tool_sets, migration 024); README and docs/mcp.md say why the default stays read-only.
 */
export const MCP_TOOL_SETS = ['watches'] as const;
export type McpToolSet = (typeof MCP_TOOL_SETS)[number];

/** The sets a caller has: the setting's and its key's, each once, in MCP_TOOL_SETS order. */
export function enabledToolSets(setting: readonly string[], key: readonly string[] | undefined): McpToolSet[] {
  const on = new Set([...setting, ...(key ?? [])]);
  return MCP_TOOL_SETS.filter((s) => on.has(s));
}
