/** `npm run bench`: every benchmark in turn; each prints a markdown block for bench/RESULTS.md. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const BENCHES = ['bench/overhead.ts', 'bench/calendar-jobs.ts', 'bench/compare.ts', 'bench/metasearch-hotels-parse.ts', 'bench/flights-parse.ts'];

let failed = false;
for (const file of BENCHES) {
  if (!fs.existsSync(file)) continue;
  console.log(`\n# ${file}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);
