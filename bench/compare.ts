/**
 * POST /v1/ota/compare fans out to every named source at once: its wall time should track the
 * slowest source, not the sum. Sources are replayed with different injected latencies.
 *
 *   npx tsx bench/compare.ts      (DATABASE_URL or an embedded PostgreSQL)
 */
import os from 'node:os';
import { median, startBenchService } from './harness.js';
import { readFixtureJson } from '../test/helpers/fixtures.js';
import { asRental } from '../test/fixtures/ota-payloads.js';
import { startReplayServer } from '../test/replay/server.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const LATENCIES = { otatwo: 100, otathree: 250, rentalone: 400 } as const;

async function main() {
  const offers = readFixtureJson('expedia/propertyOffers-9209612-2023.json');
  const replay = await startReplayServer([
    { method: 'POST', path: '/otatwo/graphql', body: offers, delayMs: LATENCIES.otatwo },
    { method: 'POST', path: '/otathree/graphql', body: [offers], delayMs: LATENCIES.otathree },
    { method: 'POST', path: '/rentalone/graphql', body: [asRental(offers)], delayMs: LATENCIES.rentalone },
  ]);
  const bench = await startBenchService({
    UPSTREAM_OTATWO_URL: `${replay.url}/otatwo`,
    UPSTREAM_OTATHREE_URL: `${replay.url}/otathree`,
    UPSTREAM_RENTALONE_URL: `${replay.url}/rentalone`,
    RUN_WORKER: 'false',
  });
  const { service, key } = bench;
  const body = JSON.stringify({
    check_in: '2023-06-04',
    nights: 10,
    adults: 2,
    currency: 'USD',
    sources: { otatwo: { property_id: '9209612' }, otathree: { property_id: '9209612' }, rentalone: { property_id: '9209612' } },
  });
  const walls: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t = performance.now();
    const res = await fetch(`${service.url}/v1/ota/compare`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
    const json = (await res.json()) as { sources: { status: string }[] };
    if (res.status !== 200 || json.sources.some((s) => s.status !== 'ok'))
      throw new Error(`compare answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    if (i > 0) walls.push(performance.now() - t);
  }
  const slowest = Math.max(...Object.values(LATENCIES));
  const m = median(walls);
  console.log(
    [
      `## Compare across sources (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores; injected latencies ${Object.entries(LATENCIES)
        .map(([k, v]) => `${k} ${v} ms`)
        .join(', ')})`,
      '',
      '| measure | value |',
      '|---|---|',
      `| wall time, median of ${RUNS} | ${m.toFixed(0)} ms |`,
      `| wall time, worst of ${RUNS} | ${Math.max(...walls).toFixed(0)} ms |`,
      `| ratio to the slowest source (${slowest} ms), median | ${(m / slowest).toFixed(3)} × |`,
      `| sum of the sources' latencies (sequential would be ≥) | ${Object.values(LATENCIES).reduce((a, b) => a + b, 0)} ms |`,
    ].join('\n'),
  );
  await bench.close();
  await replay.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
