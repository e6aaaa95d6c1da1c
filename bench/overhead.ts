/**
 * Platform overhead: one metered route through the whole platform path (auth, rate
 * limit, validation, metering, ledger, request history) against the same handler
 * mounted bare, in one run on the same database and machine. The load generator runs in a child
 * process: sharing the measured event loop would add its own CPU to every latency.
 *
 *   npx tsx bench/overhead.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import os from 'node:os';
import { spawn } from 'node:child_process';
import express from 'express';
import { TOOLS } from '../tools/index.js';
import { createKey } from '../src/platform/keys.js';
import { startBenchService } from './harness.js';
import { probeMetered } from '../test/helpers/probe-tools.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** Each request takes the next of `keys` (none: no key header); the load runs in its own process (`load.ts`). */
async function run(url: string, keys: string[], delayMs = 0): Promise<{ mean: number; p50: number; p99: number; rps: number; errors: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts', url, keys.join(','), String(delayMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_CONNECTIONS: String(CONNECTIONS), BENCH_DURATION_S: String(DURATION_S) },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`load generator exited ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

async function main() {
  const bench = await startBenchService({ RUN_WORKER: 'false' }, [...TOOLS, probeMetered]);
  const { service, config, key } = bench;
  // ten accounts: requests of different keys do not wait on each other's rate-limit lock and period row
  const tenKeys: string[] = [];
  for (let i = 0; i < 10; i++) tenKeys.push((await createKey(service.deps.sql, { name: `bench-${i}-${Date.now()}`, rateLimit: 1_000_000, plan: 'enterprise' })).key);

  const bare = express();
  bare.use(express.json());
  bare.post('/v1/test/metered', async (req, res) => {
    const input = probeMetered.input.parse(req.body);
    res.json(await probeMetered.handler(input as never, undefined as never));
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((r) => bareServer.once('listening', r));
  const barePort = (bareServer.address() as { port: number }).port;

  // warm both paths
  await run(`http://127.0.0.1:${barePort}/v1/test/metered`, []);
  const lines = [
    `## Platform overhead (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${CONNECTIONS} connections, ${DURATION_S}s each, ${config.DATABASE_URL ? 'external' : 'embedded'} PostgreSQL, mode ${config.CREDITS_MODE})`,
    '',
    '| handler | path | mean ms | p50 ms | p99 ms | req/s | errors |',
    '|---|---|---|---|---|---|---|',
  ];
  const summary: string[] = [];
  // An instant handler shows the platform's own cost; a 50 ms one is closer to a real upstream call.
  for (const delay of [0, 50]) {
    const bareRes = await run(`http://127.0.0.1:${barePort}/v1/test/metered`, [], delay);
    const fullRes = await run(`${service.url}/v1/test/metered`, [key], delay);
    const spread = await run(`${service.url}/v1/test/metered`, tenKeys, delay);
    lines.push(
      `| ${delay} ms | bare handler | ${bareRes.mean.toFixed(2)} | ${bareRes.p50} | ${bareRes.p99} | ${bareRes.rps.toFixed(0)} | ${bareRes.errors} |`,
      `| ${delay} ms | platform path (auth, limit, meter, ledger, history), one key | ${fullRes.mean.toFixed(2)} | ${fullRes.p50} | ${fullRes.p99} | ${fullRes.rps.toFixed(0)} | ${fullRes.errors} |`,
      `| ${delay} ms | platform path, ten keys of ten accounts | ${spread.mean.toFixed(2)} | ${spread.p50} | ${spread.p99} | ${spread.rps.toFixed(0)} | ${spread.errors} |`,
    );
    summary.push(
      `${delay} ms handler: added mean ${(fullRes.mean - bareRes.mean).toFixed(2)} ms, added p50 ${(fullRes.p50 - bareRes.p50).toFixed(2)} ms, added p99 ${(fullRes.p99 - bareRes.p99).toFixed(2)} ms, throughput ratio ${((fullRes.rps / bareRes.rps) * 100).toFixed(1)} %.`,
    );
  }
  lines.push('', ...summary);
  console.log(lines.join('\n'));
  bareServer.close();
  await bench.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
