/**
 * Idle memory of `npm start` as a user runs it: the compiled build (dist/, made by `npm run
 * build`), node's flags from package.json's start script, no DATABASE_URL (the service starts its
 * embedded PostgreSQL itself), the worker running. The service's resident set (VmRSS) right after
 * it listens, after serving the docs page and the OpenAPI document, and after idling; the budget
 * is 150 MB. PostgreSQL's own processes are not counted.
 *
 *   npm run build && npx tsx bench/idle-rss.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { spawnServer } from '../test/helpers/spawn-service.js';
import { field } from './process-memory.js';

const BUDGET_MB = 150;
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 25);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-idle-'));
  const startFlags = (JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start as string).split(/\s+/).filter((t) => t.startsWith('--max-'));
  const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: undefined, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) };
  const server = await spawnServer(env, 120_000, { nodeFlags: startFlags });
  const pid = server.child.pid!;
  try {
    const started = field(pid, 'status', 'VmRSS');
    for (const page of ['/docs', '/openapi.json']) {
      const res = await fetch(`${server.url}${page}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
    }
    const served = field(pid, 'status', 'VmRSS');
    // idle: the worker's queue polls and the timers run, nothing else
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const idle = field(pid, 'status', 'VmRSS');
    const peak = field(pid, 'status', 'VmHWM');
    console.log(
      [
        `## Idle memory of \`npm start\` (${new Date().toISOString().slice(0, 10)}, compiled dist/, embedded PostgreSQL, worker running, load average ${os.loadavg()[0].toFixed(1)})`,
        '',
        '| measure | MB |',
        '|---|---|',
        `| service RSS right after it listens | ${started.toFixed(0)} |`,
        `| after serving /docs and /openapi.json | ${served.toFixed(0)} |`,
        `| after ${IDLE_S} s idle | ${idle.toFixed(0)} |`,
        `| peak so far (VmHWM) | ${peak.toFixed(0)} |`,
        '',
        `Idle RSS ${idle.toFixed(0)} MB: ${idle <= BUDGET_MB ? 'within' : 'over'} the ${BUDGET_MB} MB budget.`,
      ].join('\n'),
    );
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
