#!/usr/bin/env node
// The stdio MCP server as a desktop client launches it: `node /path/to/repo/bin/mcp-stdio.mjs`.
// One process (no npm or shell in between), so the client's signals and closing stdin reach it.
// tsx is resolved from this file, whatever directory the client starts in, and relative settings
// (DATA_DIR) resolve from the repository, as they do for `npm start`.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
register();
await import('../src/mcp-stdio.ts');
