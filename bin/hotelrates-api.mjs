#!/usr/bin/env node
// The installed package's command (`npx hotelrates-api <command>`, or `hotelrates-api` after
// `npm install -g hotelrates-api`), for running the service without a clone:
//   mcp     the stdio MCP server a desktop client launches (API_KEY from the environment)
//   start   the HTTP API (and the batch worker unless RUN_WORKER=false)
//   worker  the queued work alone
//   keys    create, list and revoke API keys (the clone's `npm run keys`)
// It runs the compiled build shipped in the package (dist/). Unless DATA_DIR is set, the data
// (the embedded PostgreSQL among it) lives in the user's data folder, not in the package, which
// npx may replace at any time. One process per command (no npm or shell in between), so a desktop
// client's signals and closing stdin reach the server.
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const COMMANDS = {
  mcp: 'dist/src/mcp-stdio.js',
  start: 'dist/src/main.js',
  worker: 'dist/src/worker.js',
  keys: 'dist/src/cli/keys.js',
};

/** Where a desktop app keeps its data on each system. */
function userDataDir() {
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'hotelrates');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'hotelrates');
  return path.join(process.env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'hotelrates');
}

const [command, ...rest] = process.argv.slice(2);
const entry = COMMANDS[command];
if (!entry) {
  process.stderr.write(
    `usage: hotelrates-api <${Object.keys(COMMANDS).join('|')}> [arguments]\n` +
      '  mcp     stdio MCP server for desktop clients (set API_KEY)\n  start   HTTP API\n  worker  batch worker\n  keys    API keys\n',
  );
  process.exit(command === undefined || command === '--help' || command === '-h' ? 0 : 2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const file = path.join(root, entry);
if (!fs.existsSync(file)) {
  process.stderr.write(`${file} is missing: this package was published without its build\n`);
  process.exit(1);
}
if (!process.env.DATA_DIR) process.env.DATA_DIR = userDataDir();
fs.mkdirSync(process.env.DATA_DIR, { recursive: true });
// the first launch of the stdio server on a fresh data folder takes API_KEY as its first key
if (command === 'mcp') process.env.FIRST_KEY_FROM_ENV ??= 'true';
process.argv = [process.argv[0], file, ...rest];
// compiled code cached beside the data (Node 22+): later launches skip compiling the modules
module.enableCompileCache?.(path.join(process.env.DATA_DIR, 'compile-cache'));
await import(pathToFileURL(file).href);
