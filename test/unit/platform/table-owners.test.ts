/**
 * One owner module per table: a table's name appears in SQL only in its owner, and everything else
 * (doors, workers, CLIs, the tool kernel and descriptors) calls owner modules instead of writing
 * SQL. A new table must be given an owner here; a statement in the wrong place fails with where it is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Table → the one module that reads and writes it. */
const OWNERS: Record<string, string> = {
  accounts: 'src/platform/accounts.ts',
  api_keys: 'src/platform/keys.ts',
  request_history: 'src/platform/history.ts',
  credit_periods: 'src/platform/credits.ts',
  credit_ledger: 'src/platform/credits.ts',
  credit_reservations: 'src/platform/credits.ts',
  // only through the database functions rate_limit_take and rate_limit_lease
  rate_buckets: 'src/platform/rate-limit.ts',
  idempotency_keys: 'src/platform/idempotency.ts',
  stored_rates: 'src/platform/stored-rates.ts',
  rate_history: 'src/platform/stored-rates.ts',
  compsets: 'src/platform/compsets.ts',
  compset_shops: 'src/platform/compsets.ts',
  compset_parity_ranges: 'src/platform/parity-ranges.ts',
  scrape_runs: 'src/platform/stored-rates.ts',
  search_archive: 'src/platform/search-archive.ts',
  dashboard_sessions: 'src/platform/dashboard-sessions.ts',
  dashboard_sign_in_attempts: 'src/platform/sign-in-attempts.ts',
  oauth_clients: 'src/platform/oauth-store.ts',
  oauth_grants: 'src/platform/oauth-store.ts',
  oauth_codes: 'src/platform/oauth-store.ts',
  oauth_tokens: 'src/platform/oauth-store.ts',
  calendar_jobs: 'src/jobs/calendar-jobs.ts',
  calendar_job_items: 'src/jobs/calendar-jobs.ts',
  job_artifacts: 'src/jobs/artifacts.ts',
  mcp_tasks: 'src/jobs/mcp-task-store.ts',
  source_outcomes: 'src/ops/outcome-store.ts',
  source_marks: 'src/ops/outcome-store.ts',
  watches: 'src/platform/watches.ts',
  watch_checks: 'src/platform/watches.ts',
  watch_events: 'src/platform/watch-events.ts',
  result_cache: 'src/platform/result-cache.ts',
  booking_links: 'src/platform/booking-links.ts',
  signing_keys: 'src/platform/booking-links.ts',
  wall_clearances: 'src/platform/wall-clearances.ts',
  upstream_identifiers: 'src/platform/upstream-identifiers.ts',
  source_events: 'src/ops/outcome-store.ts',
};

/** Where owner modules live: the platform layer (platform, jobs, ops), under the doors and the kernel. */
const OWNER_LAYER = /^src\/(platform|jobs|ops)\//;
/** Layers that call owner modules and hold no statement of their own. */
const NO_SQL = /^(src\/(doors|workers|cli|app|core|sources|upstream|domain|config)\/|src\/[^/]+\.ts$|tools\/)/;

function sources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts')) out.push({ file: rel, text: fs.readFileSync(path.join(ROOT, rel), 'utf8') });
    }
  };
  walk('src');
  walk('tools');
  return out;
}

function migratedTables(): string[] {
  const dir = path.join(ROOT, 'migrations');
  const tables = fs
    .readdirSync(dir)
    .flatMap((f) =>
      [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF NOT EXISTS\s+)?([a-z_]+)/gi)].map((m) => m[1]),
    );
  return [...new Set(tables)].sort();
}

/** A table named where SQL names tables (case-sensitive keywords: prose saying "from accounts" does not count). */
const namedInSql = (text: string, table: string) => new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE)\\s+(ONLY\\s+)?${table}\\b`).test(text);

describe('table ownership', () => {
  const files = sources();

  it('every table the migrations create has an owner module, in the platform layer, that exists', () => {
    expect(Object.keys(OWNERS).sort()).toEqual(migratedTables());
    for (const owner of new Set(Object.values(OWNERS))) {
      expect(owner).toMatch(OWNER_LAYER);
      expect(fs.existsSync(path.join(ROOT, owner)), owner).toBe(true);
    }
  });

  it("a table's name appears in SQL only in its owner module", () => {
    const strays = Object.entries(OWNERS).flatMap(([table, owner]) =>
      files.filter((f) => f.file !== owner && namedInSql(f.text, table)).map((f) => `${table} in ${f.file} (owner: ${owner})`),
    );
    expect(strays).toEqual([]);
  });

  it('doors, workers, CLIs, the kernel and the descriptors send no statement of their own', () => {
    const statement = /\b(sql|tx|db)\s*(<[^`]*>)?`\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b|\.unsafe\(\s*[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/;
    const offenders = files.filter((f) => NO_SQL.test(f.file) && statement.test(f.text)).map((f) => f.file);
    expect(offenders).toEqual([]);
  });
});
