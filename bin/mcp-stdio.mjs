#!/usr/bin/env node
// The stdio MCP server as a desktop client launches it: `node /path/to/repo/bin/mcp-stdio.mjs`.
// One process (no npm or shell in between), so the client's signals and closing stdin reach it.
// It runs the compiled build (dist/, made by `npm ci`, `npm start` and `npm run build`): nothing
// is compiled at launch. Relative settings (DATA_DIR) resolve from the repository, whatever
// directory the client starts it in, as they do for `npm start`.
import fs from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const entry = new URL('../dist/src/mcp-stdio.js', import.meta.url);
if (!fs.existsSync(entry)) {
  process.stderr.write(`${fileURLToPath(entry)} is missing: run \`npm ci\` (or \`npm run build\`) in ${repo}\n`);
  process.exit(1);
}
// Node 22+ keeps the compiled code of every module on disk, so later launches skip compiling it
// (about a third of a launch's CPU); older versions have no such cache and go on without it.
module.enableCompileCache?.(fileURLToPath(new URL('../node_modules/.cache/node-compile-cache', import.meta.url)));
process.chdir(repo);
await import(entry.href);
