/**
 * Desktop start: the stdio MCP server launched exactly as the README's desktop snippet says
 * (`node <repo>/bin/mcp-stdio.mjs`, from another directory, no DATABASE_URL: it starts the embedded
 * PostgreSQL itself), driven by the SDK client through initialize, tools/list and one tools/call.
 * Reports the CPU (user + sys, from /proc) the node process and any helper of its own (not
 * PostgreSQL) spent from launch until that call was answered, and the wall time. The first launch
 * warms what a desktop machine has warm after its first use (the cluster's data directory, the
 * OS file cache); the launches after it are the ones measured.
 *
 *   npx tsx bench/stdio-start.ts        (BENCH_STDIO_LAUNCHES=5; BENCH_STDIO_STDERR=1 shows the server's log)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createSql } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { createKey } from '../src/platform/keys.js';
import { freePort } from '../test/helpers/free-port.js';
import { waitFor } from '../test/helpers/wait.js';
import { median } from './harness.js';

const LAUNCHES = Number(process.env.BENCH_STDIO_LAUNCHES ?? 5);
const BUDGET_CPU_S = 1.5;
const REPO = path.resolve(import.meta.dirname, '..');
const TICKS_PER_S = 100; // USER_HZ on Linux

/** The desktop snippet of the README: `{ mcpServers: { <name>: { command, args, env } } }`. */
function desktopCommand(): { command: string; args: string[] } {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('"mcpServers"'));
  if (!block) throw new Error('README has no desktop snippet');
  const [server] = Object.values(JSON.parse(block).mcpServers) as { command: string; args: string[] }[];
  return { command: server.command, args: server.args.map((a) => a.replace('/path/to/this/repo', REPO)) };
}

function stat(pid: number | string): { comm: string; cpuTicks: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); // also /proc/<pid>/task/<tid>
    const fields = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // fields from the state (3rd): utime is the 14th, stime the 15th
    return { comm: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

function descendants(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of fs.readdirSync(`/proc/${out[i]}/task`)) {
        const children = fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, 'utf8').trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Launch {
  nodeCpuS: number;
  /** Of nodeCpuS, the main thread's (the rest: V8's compiler and GC threads, libuv's pool). */
  mainThreadCpuS: number;
  helpersCpuS: number;
  wallMs: number;
}

async function launch(env: Record<string, string>): Promise<Launch> {
  const { command, args: readmeArgs } = desktopCommand();
  // e.g. BENCH_STDIO_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to see where the CPU goes
  const args = [...(process.env.BENCH_STDIO_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []), ...readmeArgs];
  const started = performance.now();
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: os.tmpdir(),
    env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, ...env },
    stderr: process.env.BENCH_STDIO_STDERR ? 'inherit' : 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  const result = await client.callTool({ name: 'get_credit_balance', arguments: {} });
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.content)}`);
  const wallMs = performance.now() - started;
  const pid = transport.pid!;
  let nodeTicks = 0;
  let helperTicks = 0;
  // node itself, and whatever it runs besides PostgreSQL (e.g. an esbuild service under tsx)
  for (const p of descendants(pid)) {
    const s = stat(p);
    if (!s || s.comm.startsWith('postgres')) continue;
    if (p === pid) nodeTicks += s.cpuTicks;
    else helperTicks += s.cpuTicks;
  }
  const mainThreadCpuS = (stat(`${pid}/task/${pid}`)?.cpuTicks ?? 0) / TICKS_PER_S;
  const tree = descendants(pid);
  await client.close();
  await waitFor(async () => tree.every((p) => !alive(p)), { what: 'the server and its cluster to end', timeoutMs: 10_000 });
  return { nodeCpuS: nodeTicks / TICKS_PER_S, mainThreadCpuS, helpersCpuS: helperTicks / TICKS_PER_S, wallMs };
}

async function main() {
  // the build the launch runs, up to date with the sources
  execFileSync(process.execPath, [path.join(REPO, 'scripts/build.mjs')], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stdio-'));
  const port = String(await freePort());
  // the cluster is made and a key created here, then stopped: each launch starts it itself, as a desktop client's does
  const embedded = await startEmbeddedPostgres({ dataDir, port: Number(port) });
  const sql = createSql(embedded.url, { max: 1 });
  await migrate(sql);
  const key = (await createKey(sql, { name: 'bench-stdio', rateLimit: 1_000_000, plan: 'enterprise' })).key;
  await sql.end();
  await embedded.stop();
  const env: Record<string, string> = { API_KEY: key, DATA_DIR: dataDir, EMBEDDED_PG_PORT: port, LOG_LEVEL: 'silent' };
  try {
    await launch(env); // the first launch: warms the OS caches
    const runs: Launch[] = [];
    for (let i = 0; i < LAUNCHES; i++) runs.push(await launch(env));
    const total = runs.map((r) => r.nodeCpuS + r.helpersCpuS);
    console.log(`| launches | node CPU s (median, max) | of it main thread (median) | helpers CPU s (median) | wall ms (median) | budget |`);
    console.log(`|---|---|---|---|---|---|`);
    console.log(
      `| ${runs.length} | ${median(runs.map((r) => r.nodeCpuS)).toFixed(2)}, ${Math.max(...runs.map((r) => r.nodeCpuS)).toFixed(2)} | ${median(runs.map((r) => r.mainThreadCpuS)).toFixed(2)} | ${median(runs.map((r) => r.helpersCpuS)).toFixed(2)} | ${median(runs.map((r) => r.wallMs)).toFixed(0)} | ≤ ${BUDGET_CPU_S} s: ${median(total) <= BUDGET_CPU_S ? 'met' : 'NOT met'} |`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
