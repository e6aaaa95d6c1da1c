import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createKey } from '../../src/platform/keys.js';
import { KEY_CACHE_TTL_MS } from '../../src/platform/key-cache.js';
import { refusal } from '../helpers/key-refusal.js';
import { replayEnv, startToolCallReplay } from '../helpers/mcp-tool-calls.js';
import { runEntry, spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import type { ReplayServer } from '../replay/server.js';

/**
 * The platform's fast path against separate processes: a key cached by the API process stops
 * working within a second of being revoked or rotated by another process (the keys CLI), and a
 * kill -9 of the API under concurrent metered load loses no history or ledger row of any call
 * whose answer a client received (group commit writes before answering, never behind).
 */
let db: TestDatabase;
let sql: Sql;
let replay: ReplayServer;
const servers: Spawned[] = [];

beforeAll(async () => {
  replay = await startToolCallReplay();
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
  await migrate(sql);
});
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await sql?.end();
  await db?.drop();
  await replay?.close();
});

// the crash test's calls are identical and each must be fetched and charged: the result cache is off (test/process/result-cache.test.ts runs it)
const env = () => ({
  DATABASE_URL: db.url,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  BOOTSTRAP_KEY: 'false',
  RUN_WORKER: 'false',
  RESULT_CACHE_ENABLED: 'false',
  ...replayEnv(replay),
});

async function start(): Promise<Spawned> {
  const s = await spawnServer(env());
  servers.push(s);
  return s;
}

const billing = (url: string, key: string) => fetch(`${url}/v1/billing`, { headers: { 'x-api-key': key } }).then((r) => r.status);

describe('key cache across processes', () => {
  it('a key revoked or rotated by the keys CLI is refused by a running API within 1 s', async () => {
    const api = await start();
    const revoked = await createKey(sql, { name: 'to-revoke', plan: 'starter' });
    const rotated = await createKey(sql, { name: 'to-rotate', plan: 'starter' });
    // warm the API's cache: both keys answered from it from now on
    for (const k of [revoked.key, rotated.key]) for (let i = 0; i < 5; i++) expect(await billing(api.url, k)).toBe(200);

    const cli = await runEntry('src/cli/keys.ts', ['revoke', '--name', 'to-revoke'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
    expect(cli.code, cli.stderr).toBe(0);
    const revoke = await refusal(() => billing(api.url, revoked.key), KEY_CACHE_TTL_MS);
    expect(revoke.acceptedAfterBound).toBe(0);

    const rot = await runEntry('src/cli/keys.ts', ['rotate', '--name', 'to-rotate'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
    expect(rot.code, rot.stderr).toBe(0);
    const rotate = await refusal(() => billing(api.url, rotated.key), KEY_CACHE_TTL_MS);
    expect(rotate.acceptedAfterBound).toBe(0);
    const fresh = /(sk_[A-Za-z0-9_-]{32})/.exec(rot.stdout)![1];
    expect(await billing(api.url, fresh)).toBe(200);
    // the bound is the cache's lifetime: 1 s, documented in docs/api.md
    expect(KEY_CACHE_TTL_MS).toBe(1_000);
    console.log(
      `first refused request sent after the CLI exited: revoke ${revoke.firstRefusedMs.toFixed(1)} ms, rotate ${rotate.firstRefusedMs.toFixed(1)} ms`,
    );
  });
});

describe('crash under load', () => {
  it('kill -9 of the API mid-load loses no history or ledger row of an answered call', async () => {
    const api = await start();
    const { key } = await createKey(sql, { name: 'crash-load', plan: 'starter', rateLimit: 100_000 });
    const answered: { id: string; charged: number }[] = [];
    let stop = false;
    // killed once 150 calls have been answered
    let loaded!: () => void;
    const underLoad = new Promise<void>((resolve) => (loaded = resolve));
    // twelve clients call a metered operation back to back (their calls share group commits)
    const client = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${api.url}/v1/serp/metasearch_flights_location_search`, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify({ q: 'london' }),
          });
          await res.arrayBuffer();
          if (res.status === 200) answered.push({ id: res.headers.get('x-request-id')!, charged: Number(res.headers.get('x-credits-charged')) });
          if (answered.length === 150) loaded();
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: 12 }, client);
    await underLoad;
    api.child.kill('SIGKILL');
    await api.exited;
    stop = true;
    await Promise.all(clients);

    const ids = answered.map((a) => a.id);
    expect(answered.every((a) => a.charged === 1)).toBe(true);
    const history = await sql<{ id: string }[]>`SELECT id FROM request_history WHERE id = ANY(${ids}) AND status = 200 AND credits = 1`;
    const ledger = await sql<{ request_id: string }[]>`SELECT request_id FROM credit_ledger WHERE request_id = ANY(${ids}) AND kind = 'charge' AND amount = -1`;
    expect(new Set(history.map((r) => r.id)).size).toBe(ids.length);
    expect(new Set(ledger.map((r) => r.request_id)).size).toBe(ids.length);
    // and the period's running total agrees with the ledger: no charge was applied twice or half
    const [sums] = await sql<{ used: number; charged: number }[]>`
      SELECT (SELECT sum(used) FROM credit_periods p JOIN api_keys k ON k.account_id = p.account_id WHERE k.name = 'crash-load') AS used,
             (SELECT -sum(amount) FROM credit_ledger l JOIN api_keys k ON k.account_id = l.account_id WHERE k.name = 'crash-load' AND l.kind = 'charge') AS charged`;
    expect(sums.used).toBe(sums.charged);
    console.log(`answered before the kill: ${ids.length}; rows found: history ${history.length}, ledger ${ledger.length}`);
  });
});
