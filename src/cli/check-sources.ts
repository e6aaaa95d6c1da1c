import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfigOrExit } from '../config/config.js';
import type { Sql } from '../db/client.js';
import { canonicalChecks } from '../doors/ops/canonical-checks.js';
import { MONITORED_SOURCES } from '../ops/outcome-store.js';
import { DependencyDown } from '../domain/errors.js';
import type { Database } from '../app/service.js';
import { CommandLine } from './command-line.js';

const USAGE = `usage: npm run check:sources [-- --json] [--only apps,video] [--timeout-s 60]
One canonical request per source through the routes' own source code; exit 0 when every source is ok.
With DATABASE_URL set the outcomes are also recorded there (GET /v1/sources/status shows them).`;

const cli = new CommandLine('check:sources', USAGE);

/** Without a database nothing may reach for one: a handler that does is refused like a database outage. */
function noDatabase(): Sql {
  const refuse = () => {
    throw new DependencyDown('check:sources runs without a database');
  };
  return new Proxy(refuse, { get: refuse, apply: refuse }) as unknown as Sql;
}

function options() {
  try {
    return parseArgs({
      options: { json: { type: 'boolean' }, only: { type: 'string' }, 'timeout-s': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (err) {
    return cli.fail((err as Error).message);
  }
}

cli.run(async () => {
  const values = options();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((s) => !MONITORED_SOURCES.includes(s)) ?? [];
  if (unknown.length) cli.fail(`unknown source: ${unknown.join(', ')} (sources: ${MONITORED_SOURCES.join(', ')})`);
  const timeoutS = Number(values['timeout-s'] ?? 60);
  if (!(timeoutS > 0)) cli.fail('--timeout-s must be a positive number');

  const config = loadConfigOrExit();
  // loaded only now, so that a usage or configuration error answers at once
  const [{ TOOLS }, { buildDeps, openDatabase }, { createOps }, { checkSources, formatTable }, { NO_QUEUE }] = await Promise.all([
    import('../../tools/index.js'),
    import('../app/service.js'),
    import('../ops/ops.js'),
    import('../doors/ops/source-check.js'),
    import('../jobs/job-queue.js'),
  ]);
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'error' : config.LOG_LEVEL }, pino.destination(2));
  const db: Database | null = config.DATABASE_URL ? await openDatabase(config, log) : null;
  const sql = db?.sql ?? noDatabase();
  // the service's own dependency builder: the same upstream client, website fetcher and outcome recording
  const ops = createOps({ sql: db?.sql ?? null, log });
  const built = buildDeps(config, sql, log, TOOLS, NO_QUEUE, ops);
  try {
    const checks = canonicalChecks().filter((c) => !only || only.includes(c.source));
    const results = await checkSources(built.deps, checks, timeoutS * 1000);
    const ok = results.every((r) => r.state === 'ok');
    process.stdout.write(values.json ? `${JSON.stringify({ checked_at: new Date().toISOString(), ok, sources: results }, null, 2)}\n` : formatTable(results));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await built.close();
    await ops.outcomes.close();
    await db?.close();
  }
});
