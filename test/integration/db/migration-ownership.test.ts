import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../../src/db/client.js';
import { migrate } from '../../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';

const MIGRATIONS = path.resolve('migrations');

/** A database as it stood before ownership (migrations up to 004), with rows of every kind, then migrated to now. */
describe('migration 005: every existing record gets its owner', () => {
  let db: TestDatabase;
  let sql: Sql;
  const accountOf = async (keyId: string) => (await sql`SELECT account_id FROM api_keys WHERE id = ${keyId}`)[0].account_id as string;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = createSql(db.url, { max: 2 });
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-004-'));
    for (const f of fs.readdirSync(MIGRATIONS).filter((f) => /^00[1-4]_/.test(f))) fs.copyFileSync(path.join(MIGRATIONS, f), path.join(before, f));
    await migrate(sql, before);
    fs.rmSync(before, { recursive: true });

    await sql`INSERT INTO accounts (id, name, plan) VALUES ('acct_a', 'a', 'starter')`;
    // key_old was rotated into key_new, both without an account; key_lone is another account-less key
    await sql`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min, role, revoked_at) VALUES
      ('key_a', 'acct_a', 'a', 'sk_a', '\\x01', 60, 'user', NULL),
      ('key_new', NULL, 'ops', 'sk_n', '\\x02', 60, 'admin', NULL),
      ('key_old', NULL, 'ops', 'sk_o', '\\x03', 60, 'admin', now()),
      ('key_lone', NULL, 'lone', 'sk_l', '\\x04', 60, 'user', NULL)`;
    await sql`UPDATE api_keys SET replaced_by = 'key_new' WHERE id = 'key_old'`;
    await sql`INSERT INTO request_history (id, key_id, method, path, status, duration_ms, response_bytes) VALUES
      ('req_a', 'key_a', 'POST', '/v1/calendar', 200, 1, 1), ('req_old', 'key_old', 'POST', '/v1/calendar', 200, 1, 1)`;
    await sql`INSERT INTO idempotency_keys (key_id, scope, idem_key, body_hash, resource_id) VALUES ('key_lone', 'POST /v1/jobs', 'k', 'h', 'refreshjob_l')`;
    await sql`INSERT INTO calendar_jobs (id, key_id, account_id, priority, callback_status, items_total) VALUES ('refreshjob_l', 'key_lone', NULL, 5, 'not_configured', 1)`;
    await sql`INSERT INTO calendar_job_items (id, job_id, item_index, token, request) VALUES ('refreshitem_l', 'refreshjob_l', 0, 'tok-job', '{}')`;
    await sql`INSERT INTO scrape_runs (collection_key, run_id, token, collection_id, rows_written, rows_changed, rows_removed) VALUES
      ('req_a', 'scraperun_a', 'tok-a', 'c1', 1, 0, 0),
      ('req_old', 'scraperun_old', 'tok-shared', 'c2', 1, 0, 0),
      ('refreshitem_l', 'scraperun_l', 'tok-job', 'c3', 1, 0, 0),
      ('req_unknown', 'scraperun_x', 'tok-x', 'c4', 1, 0, 0)`;
    const rate = (token: string, run: string, obs: string) =>
      sql`INSERT INTO stored_rates (token, market, currency, adults, los, stay_date, rate_total, rate, observation_id, collection_id, run_id, observed_at)
        VALUES (${token}, 'US', 'USD', 2, 1, '2027-01-01', 100, '{}', ${obs}, 'c', ${run}, now())`;
    await rate('tok-a', 'scraperun_a', 'o1');
    await rate('tok-shared', 'scraperun_old', 'o2');
    await rate('tok-job', 'scraperun_l', 'o3');
    await rate('tok-x', 'scraperun_x', 'o4');

    await migrate(sql);
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('keys without an account get one per rotation chain, unmetered', async () => {
    const keys = Object.fromEntries(
      (await sql`SELECT k.id, k.account_id, a.plan FROM api_keys k JOIN accounts a ON a.id = k.account_id`).map((r) => [r.id, r]),
    );
    expect(keys.key_a).toMatchObject({ account_id: 'acct_a', plan: 'starter' });
    expect(keys.key_new.account_id).toBe(keys.key_old.account_id);
    expect(keys.key_new.plan).toBe('none');
    expect(keys.key_lone.account_id).not.toBe(keys.key_new.account_id);
    expect(keys.key_lone.account_id).toMatch(/^acct_[0-9a-f]{16}$/);
    await expect(
      sql`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min) VALUES ('key_z', NULL, 'z', 'sk_z', '\\x09', 60)`,
    ).rejects.toThrow(/null value/);
  });

  it('history, idempotency records, jobs and items take their key account', async () => {
    const lone = await accountOf('key_lone');
    const old = await accountOf('key_old');
    expect((await sql`SELECT id, account_id FROM request_history ORDER BY id`).map((r) => [r.id, r.account_id])).toEqual([
      ['req_a', 'acct_a'],
      ['req_old', old],
    ]);
    expect((await sql`SELECT account_id FROM idempotency_keys`)[0].account_id).toBe(lone);
    expect((await sql`SELECT account_id FROM calendar_jobs`)[0].account_id).toBe(lone);
    expect((await sql`SELECT account_id FROM calendar_job_items`)[0].account_id).toBe(lone);
  });

  it('runs and stored rates belong to the call or job that wrote them; untraceable ones are dropped, not handed out', async () => {
    const lone = await accountOf('key_lone');
    const old = await accountOf('key_old');
    expect((await sql`SELECT run_id, account_id FROM scrape_runs ORDER BY run_id`).map((r) => [r.run_id, r.account_id])).toEqual([
      ['scraperun_a', 'acct_a'],
      ['scraperun_l', lone],
      ['scraperun_old', old],
    ]);
    expect((await sql`SELECT token, account_id FROM stored_rates ORDER BY token`).map((r) => [r.token, r.account_id])).toEqual([
      ['tok-a', 'acct_a'],
      ['tok-job', lone],
      ['tok-shared', old],
    ]);
  });

  it('a stored rate cannot name an account that does not exist (checked once per statement, migration 017)', async () => {
    const rate = (account: string, day: string) =>
      sql`INSERT INTO stored_rates (account_id, token, market, currency, adults, los, stay_date, rate_total, rate, observation_id, collection_id, run_id, observed_at)
        VALUES (${account}, 'tok-017', 'US', 'USD', 2, 1, ${day}, 100, '{}', 'o-017', 'c', 'scraperun_a', now())`;
    await expect(rate('acct_missing', '2027-02-01')).rejects.toThrow(/stored rate without its account/);
    await rate('acct_a', '2027-02-01');
    expect((await sql`SELECT account_id FROM stored_rates WHERE token = 'tok-017'`).map((r) => r.account_id)).toEqual(['acct_a']);
  });

  it('the reads by account have an index that leads with the account', async () => {
    // The index definitions, not a plan: on a four-row table the planner's choice says little and
    // varied between PostgreSQL versions and runs.
    const defs = (await sql`SELECT indexdef FROM pg_indexes WHERE tablename IN ('stored_rates', 'scrape_runs', 'request_history', 'calendar_jobs')`).map(
      (r) => r.indexdef as string,
    );
    expect(defs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/stored_rates_pkey .*\(account_id, token, market, currency, adults, los, stay_date\)/),
        expect.stringMatching(/stored_rates_account_observed .*\(account_id, observed_at\)/),
        expect.stringMatching(/scrape_runs_account_run .*\(account_id, run_id\)/),
        expect.stringMatching(/request_history_account_time .*\(account_id, created_at\)/),
        expect.stringMatching(/calendar_jobs_account .*\(account_id, created_at DESC\)/),
      ]),
    );
  });
});
