/**
 * Platform overhead, side by side in one run on the same database and machine:
 *  - one metered route through the whole platform path (auth, rate limit, validation, metering,
 *    ledger, request history) against the same handler mounted bare;
 *  - an MCP `tools/call` of the free balance tool (the request the SDK client really sends)
 *    against the same operation over REST;
 *  - PostgreSQL statements sent per call, the platform's database cost.
 * The load generator runs in a child process: sharing the measured event loop would add its own
 * CPU to every latency.
 *
 *   npx tsx bench/overhead.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import fs from 'node:fs';
import os from 'node:os';
import { spawn } from 'node:child_process';
import express from 'express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TOOLS } from '../tools/index.js';
import { createKey } from '../src/platform/keys.js';
import type { Sql } from '../src/db/client.js';
import { startBenchService } from './harness.js';
import type { LoadSpec } from './load.js';
import { probeMetered } from '../test/helpers/probe-tools.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface LoadResult {
  mean: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  requests: number;
}

/** One load run in its own process (`load.ts`). */
async function load(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_CONNECTIONS: String(CONNECTIONS), BENCH_DURATION_S: String(DURATION_S) },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`load generator exited ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

/** Counts the statements the service's pool sends (postgres.js calls `debug` once per query it sends). */
function countStatements(sql: Sql): () => number {
  let n = 0;
  (sql as unknown as { options: { debug: unknown } }).options.debug = () => void n++;
  return () => n;
}

/** CPU time (µs) used so far by this machine's PostgreSQL processes, from /proc (clock ticks of 10 ms). */
function postgresCpuUs(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10_000;
}

interface Measured extends LoadResult {
  perCall?: number;
  /** CPU per answered call (µs): the service's process (bare handler or platform), and PostgreSQL's. */
  serviceUs: number;
  postgresUs: number;
}

/** A load run with the CPU each side spent and the statements the service sent per answered request. */
async function measured(statements: (() => number) | null, spec: LoadSpec): Promise<Measured> {
  const before = statements?.() ?? 0;
  const cpu = process.cpuUsage();
  const pg = postgresCpuUs();
  const r = await load(spec);
  const used = process.cpuUsage(cpu);
  const n = Math.max(1, r.requests);
  return {
    ...r,
    ...(statements ? { perCall: (statements() - before) / n } : {}),
    serviceUs: (used.user + used.system) / n,
    postgresUs: (postgresCpuUs() - pg) / n,
  };
}

/** The tools/call request the MCP SDK client sends for `name`, captured from a real client. */
async function capturedToolCall(mcpUrl: string, key: string, name: string): Promise<{ headers: Record<string, string>; body: string }> {
  let captured: { headers: Record<string, string>; body: string } | null = null;
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { 'x-api-key': key } },
    fetch: async (url, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"tools/call"')) {
        const headers = Object.fromEntries(new Headers(init?.headers).entries());
        delete headers['x-api-key'];
        captured = { headers, body };
      }
      return fetch(url, init);
    },
  });
  await client.connect(transport);
  const res = await client.callTool({ name, arguments: {} });
  await client.close();
  if (res.isError || !captured) throw new Error(`MCP ${name} failed: ${JSON.stringify(res)}`);
  return captured;
}

const row = (label: string, path: string, r: Measured) =>
  `| ${label} | ${path} | ${r.mean.toFixed(2)} | ${r.p50} | ${r.p99} | ${r.rps.toFixed(0)} | ${r.perCall === undefined ? '' : r.perCall.toFixed(2)} | ${r.serviceUs.toFixed(0)} | ${r.postgresUs.toFixed(0)} | ${r.errors} |`;

async function main() {
  const bench = await startBenchService({ RUN_WORKER: 'false' }, [...TOOLS, probeMetered]);
  const { service, config, key } = bench;
  const sql = service.deps.sql;
  const statements = countStatements(sql);
  // ten accounts: requests of different keys do not wait on each other's rate-limit lock and period row
  const tenKeys: string[] = [];
  for (let i = 0; i < 10; i++) tenKeys.push((await createKey(sql, { name: `bench-${i}-${Date.now()}`, rateLimit: 1_000_000, plan: 'enterprise' })).key);

  const bare = express();
  bare.use(express.json());
  bare.post('/v1/test/metered', async (req, res) => {
    const input = probeMetered.input.parse(req.body);
    res.json(await probeMetered.handler(input as never, undefined as never));
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((r) => bareServer.once('listening', r));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as { port: number }).port}/v1/test/metered`;
  const metered = (url: string, keys: string[], delay: number): LoadSpec => ({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: 1, delay_ms: delay }),
    keys,
  });

  // warm both paths
  await load(metered(bareUrl, [], 0));
  await load(metered(`${service.url}/v1/test/metered`, [key], 0));
  const lines = [
    `## Platform overhead (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the start, ${CONNECTIONS} connections, ${DURATION_S}s each, ${config.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL, mode ${config.CREDITS_MODE})`,
    '',
    '| handler | path | mean ms | p50 ms | p99 ms | req/s | PostgreSQL statements per call | service CPU µs per call | PostgreSQL CPU µs per call | errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const summary: string[] = [];
  // An instant handler shows the platform's own cost; a 50 ms one is closer to a real upstream call.
  for (const delay of [0, 50]) {
    const bareRes = await measured(null, metered(bareUrl, [], delay));
    const fullRes = await measured(statements, metered(`${service.url}/v1/test/metered`, [key], delay));
    const spread = await measured(statements, metered(`${service.url}/v1/test/metered`, tenKeys, delay));
    lines.push(
      row(`${delay} ms`, 'bare handler', bareRes),
      row(`${delay} ms`, 'platform path (auth, limit, meter, ledger, history), one key', fullRes),
      row(`${delay} ms`, 'platform path, ten keys of ten accounts', spread),
    );
    summary.push(
      `${delay} ms handler: added mean ${(fullRes.mean - bareRes.mean).toFixed(2)} ms, added p50 ${(fullRes.p50 - bareRes.p50).toFixed(2)} ms, added p99 ${(fullRes.p99 - bareRes.p99).toFixed(2)} ms, throughput ratio ${((fullRes.rps / bareRes.rps) * 100).toFixed(1)} %.`,
    );
  }

  // The free balance tool: MCP tools/call as the SDK client sends it, against GET /v1/billing.
  const call = await capturedToolCall(`${service.url}/mcp`, key, 'get_credit_balance');
  const mcpSpec: LoadSpec = { url: `${service.url}/mcp`, method: 'POST', headers: call.headers, body: call.body, keys: [key] };
  const restSpec: LoadSpec = { url: `${service.url}/v1/billing`, method: 'GET', keys: [key] };
  await load(mcpSpec); // warm
  const rest = await measured(statements, restSpec);
  const mcp = await measured(statements, mcpSpec);
  lines.push(
    row('balance (free)', 'REST GET /v1/billing', rest),
    row('balance (free)', `MCP tools/call get_credit_balance (${call.headers['mcp-protocol-version'] ?? 'no version header'})`, mcp),
  );
  summary.push(
    `MCP tools/call vs REST, free balance tool: added p50 ${(mcp.p50 - rest.p50).toFixed(2)} ms, throughput ratio ${((mcp.rps / rest.rps) * 100).toFixed(1)} %.`,
  );
  lines.push('', ...summary);
  console.log(lines.join('\n'));
  bareServer.close();
  await bench.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
