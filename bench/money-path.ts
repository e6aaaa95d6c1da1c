/**
 * The money path alone (src/platform/credits.ts `settle` behind CallWriter): what writing a call's
 * charge, ledger row, reservation release and history row costs, without HTTP or a handler around
 * it, so that a change to the statement shows above this machine's noise. Rows: concurrent calls
 * of one account and of ten (group commit), one call at a time, and a batch of one in the caller's
 * transaction (an MCP task's result, a batch item).
 *
 *   npx tsx bench/money-path.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import os from 'node:os';
import type { CallOutcome } from '../src/platform/call-writer.js';
import { createKey, type CreatedKey } from '../src/platform/keys.js';
import { startBenchService } from './harness.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);

const bench = await startBenchService();
const { sql, platform } = bench.service.deps;
let statements = 0;
(sql as unknown as { options: { debug: unknown } }).options.debug = () => void statements++;

let seq = 0;
const outcome = (key: CreatedKey): CallOutcome => {
  const id = `req_bench_${process.pid}_${++seq}`;
  return {
    id,
    accountId: key.account_id,
    history: { key_id: key.id, method: 'POST', path: '/v1/bench', status: 200, duration_ms: 1.2, response_bytes: 100, credits: 2, rate_limited: false },
    charge: { plan: 'enterprise', amount: 2, note: 'POST /v1/bench' },
  };
};

interface Row {
  case: string;
  callsPerS: number;
  statementsPerCall: number;
  cpuUsPerCall: number;
}

/** `clients` loops writing back to back until `calls` were written, each with the next key of `keys`. */
async function run(label: string, keys: CreatedKey[], clients: number, calls: number, write: (o: CallOutcome) => Promise<unknown>): Promise<Row> {
  await Promise.all(keys.map((k) => write(outcome(k)))); // periods opened, statements prepared
  statements = 0;
  let started = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (started < calls) {
        started++;
        await write(outcome(keys[c % keys.length]));
      }
    }),
  );
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return {
    case: label,
    callsPerS: Math.round((calls / ms) * 1000),
    statementsPerCall: statements / calls,
    cpuUsPerCall: Math.round((used.user + used.system) / calls),
  };
}

try {
  const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => createKey(sql, { name: `money-${Date.now()}-${i}`, plan: 'enterprise' })));
  const group = (o: CallOutcome) => platform.calls.write(o);
  const inTransaction = (o: CallOutcome) => sql.begin((tx) => platform.calls.write(o, tx));
  const rows = [
    await run('10 concurrent calls, one account (group commit)', keys.slice(0, 1), 10, CALLS, group),
    await run('10 concurrent calls, ten accounts (group commit)', keys, 10, CALLS, group),
    await run('one call at a time', keys.slice(0, 1), 1, CALLS / 4, group),
    await run("one call at a time in the caller's transaction (batch of one)", keys.slice(0, 1), 1, CALLS / 4, inTransaction),
  ];
  const load = os.loadavg()[0].toFixed(1);
  console.log(`## Money path (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${load}, ${CALLS} calls per concurrent row)\n`);
  console.log('| case | calls/s | PostgreSQL statements per call | service CPU µs per call |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.case} | ${r.callsPerS} | ${r.statementsPerCall.toFixed(2)} | ${r.cpuUsPerCall} |`);
  console.log('\n(the transaction row counts BEGIN and COMMIT as statements)');
} finally {
  await bench.close();
}
