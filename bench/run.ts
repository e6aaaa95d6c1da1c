/** `npm run bench`: every benchmark in turn; each prints a markdown block for bench/RESULTS.md. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Each benchmark with the settings of its rows in RESULTS.md. */
const BENCHES: [string, Record<string, string>][] = [
  ['bench/overhead.ts', { BENCH_CONNECTIONS: '1' }],
  ['bench/overhead.ts', { BENCH_CONNECTIONS: '10' }],
  ['bench/money-path.ts', {}],
  ['bench/calendar-jobs.ts', {}],
  ['bench/calendar-jobs.ts', { WORKER_CONCURRENCY: '1' }],
  ['bench/compare.ts', {}],
  ['bench/result-cache.ts', {}],
  ['bench/watches.ts', {}],
  ['bench/rate-shop.ts', {}],
  ['bench/metasearch-hotels-parse.ts', {}],
  ['bench/flights-parse.ts', {}],
  ['bench/mcp-payloads.ts', {}],
  ['bench/rss.ts', {}],
  ['bench/idle-rss.ts', {}],
  ['bench/browser-pool.ts', {}],
  ['bench/clearance.ts', {}],
  ['bench/stdio-start.ts', {}],
];

let failed = false;
for (const [file, env] of BENCHES) {
  if (!fs.existsSync(file)) continue;
  console.log(
    `\n# ${file} ${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}\n`,
  );
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit', env: { ...process.env, ...env } });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);
