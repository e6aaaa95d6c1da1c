-- Opt-in MCP tool sets per key (issue 38): the 18 read-only tools are every key's default set; a
-- key lists and calls the tools of the sets named here besides them ('watches': create, list,
-- get, update, delete, check a watch and list its events). Set with `npm run keys -- tool-sets`.
ALTER TABLE api_keys ADD COLUMN mcp_tool_sets text[] NOT NULL DEFAULT '{}';
ALTER TABLE api_keys ADD CONSTRAINT api_keys_mcp_tool_sets_known CHECK (mcp_tool_sets <@ ARRAY['watches']::text[]);
