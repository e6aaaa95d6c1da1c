/**
 * Clearance reuse across two API processes (the compiled build, as `npm start` runs it) on one
 * database, against replayed walls that behave like the real ones (test/replay/walls.ts): AWS WAF
 * in front of the first OTA (202 interstitial, `aws-waf-token`) and Akamai in front of the second
 * (429 until the sensor validated `_abck`). The first call clears in the browser; the next calls,
 * on either process, go plain with the kept clearance; when the wall stops honouring it, one browser
 * visit renews it for every waiting call, and the two processes never clear at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createKey } from '../../src/platform/keys.js';
import { hasChromium } from '../helpers/chromium.js';
import { fixtureSuite, readFixtureJson } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/wait.js';
import { spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { OTAONE_PROPERTY_PAGE } from '../fixtures/ota-payloads.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';
import { AkamaiWall, AwsWafWall } from '../replay/walls.js';
import { shiftFrom } from '../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-04');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const PROPERTY = '/otaone/hotel/rs/example-centre.en-gb.html';
const ROOMS = { pagename: 'example-centre', country: 'rs', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' };
const GRID = { property_id: '9209612', check_in: S('2023-06-04'), nights: 10 };

const suite = fixtureSuite('anti-bot clearance kept in PostgreSQL and shared by two API processes (headless Chromium, replayed walls)', OFFERS);
const title = hasChromium ? suite.title : `${suite.title} [SKIPPED: chromium not installed]`;

describe.skipIf(!hasChromium)(title, () => {
  let db: TestDatabase;
  let sql: Sql;
  let replay: ReplayServer;
  let key: string;
  let adminKey: string;
  let dataDir: string;
  const servers: Spawned[] = [];
  const waf = new AwsWafWall();
  const akamai = new AkamaiWall();

  const post = async (server: Spawned, route: string, body: unknown) => {
    const res = await fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** A counter summed over both processes' /metrics. */
  const metric = async (name: string, labels: string) => {
    let sum = 0;
    for (const s of servers) {
      const text = await (await fetch(`${s.url}/metrics`, { headers: { 'x-api-key': adminKey } })).text();
      for (const line of text.split('\n')) if (line.startsWith(`${name}{`) && line.includes(labels)) sum += Number(line.split(' ').at(-1));
    }
    return sum;
  };

  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    replay = await startReplayServer([
      ...waf.routes(),
      ...akamai.routes(),
      ...waf.protect({ path: PROPERTY, body: OTAONE_PROPERTY_PAGE }),
      ...akamai.protect({ path: '/', body: '<!DOCTYPE html><html><head><title>Travel</title></head><body>home</body></html>' }),
      ...akamai.protect({ method: 'POST', path: '/otatwo/graphql', body: offers }),
    ]);
    db = await createTestDatabase();
    sql = createSql(db.url, { max: 4 });
    await migrate(sql);
    key = (await createKey(sql, { name: 'clearance-processes', plan: 'enterprise', rateLimit: 100_000 })).key;
    adminKey = (await createKey(sql, { name: 'clearance-admin', plan: null, role: 'admin', rateLimit: 100_000 })).key;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clearance-'));
    const env = {
      DATABASE_URL: db.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BOOTSTRAP_KEY: 'false',
      RUN_WORKER: 'false',
      RESULT_CACHE_ENABLED: 'false',
      DATA_DIR: dataDir,
      UPSTREAM_RETRIES: '0',
      UPSTREAM_BROWSER_ALLOW_PRIVATE: 'true',
      // a loaded machine may take long to launch Chromium and run a page
      UPSTREAM_BROWSER_TIMEOUT_MS: '90000',
      UPSTREAM_OTAONE_URL: `${replay.url}/otaone`,
      UPSTREAM_OTATWO_URL: `${replay.url}/otatwo`,
    };
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    await sql?.end();
    await db?.drop();
    await replay?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('AWS WAF: the first call clears in the browser, the next 99 (on both processes) go plain with the kept aws-waf-token', async () => {
    const first = await post(servers[0], '/v1/ota/otaone/rooms', ROOMS);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.rooms[0].rate_plans[0].provenance.egress_mode).toBe('browser');
    // the plain request and the browser's first document met the interstitial; its script earned one token
    expect([waf.challenged, waf.issued]).toEqual([2, 1]);

    const modes: string[] = [];
    for (let i = 0; i < 99; i++) {
      const res = await post(servers[(i + 1) % 2], '/v1/ota/otaone/rooms', ROOMS);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      modes.push(res.body.rooms[0].rate_plans[0].provenance.egress_mode);
    }
    expect(new Set(modes)).toEqual(new Set(['direct']));
    expect([waf.challenged, waf.issued, waf.passed]).toEqual([2, 1, 100]);
    expect(await metric('hotelrates_browser_calls_total', 'source="otaone"')).toBe(1);
    expect(await metric('hotelrates_upstream_path_events_total', 'source="otaone",event="plain_on_clearance"')).toBe(99);
    expect(await metric('hotelrates_upstream_path_events_total', 'source="otaone",event="reclear"')).toBe(1);

    // what is kept: the wall's cookie and the browser's user agent, nothing else
    const [row] = await sql<{ wall: string; user_agent: string; cookies: { name: string }[]; generation: number }[]>`
      SELECT wall, user_agent, cookies, generation FROM wall_clearances WHERE source = 'otaone'`;
    expect(row).toMatchObject({ wall: 'aws_waf', generation: 1 });
    expect(row.cookies.map((c) => c.name)).toEqual(['aws-waf-token']);
    expect(row.user_agent).toMatch(/X11; Linux x86_64.*Chrome\/\d+\.0\.0\.0/);

    // every process reports the same: the source's mode, its clearance (no cookie values) and its paths
    // (the other process adds its figures within its flush interval of a few seconds)
    const otaone = await waitFor(
      async () => {
        const res = await fetch(`${servers[1].url}/v1/sources/status`, { headers: { 'x-api-key': adminKey } });
        const s = ((await res.json()) as any).sources.find((x: any) => x.source === 'otaone');
        return s.paths.calls === 100 && s;
      },
      { timeoutMs: 30_000, what: 'both processes flushed their outcomes' },
    );
    expect(otaone).toMatchObject({
      state: 'ok',
      mode: 'auto',
      clearance: { wall: 'aws_waf', state: 'held', reclearing: false },
      paths: { calls: 100, browser_visits: 1, browser_visits_per_100_calls: 1, plain_on_clearance: 99, reclears: 1 },
    });
    expect(otaone.clearance.age_s).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(otaone)).not.toContain('aws-waf-token');
  }, 240_000);

  it('the wall stops honouring the token: one re-clear for 20 concurrent calls on two processes, the rest plain', async () => {
    waf.expireAll();
    const before = { challenged: waf.challenged, issued: waf.issued };
    const calls = servers.flatMap((s) => Array.from({ length: 10 }, () => post(s, '/v1/ota/otaone/rooms', ROOMS)));
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    // one browser visit earned one new token; every other call went plain
    expect(waf.issued - before.issued).toBe(1);
    expect(answers.filter((a) => a.body.rooms[0].rate_plans[0].provenance.egress_mode === 'browser')).toHaveLength(1);
    expect(await metric('hotelrates_browser_calls_total', 'source="otaone"')).toBe(2);
    expect(await metric('hotelrates_upstream_path_events_total', 'source="otaone",event="reclear"')).toBe(2);
    const [row] = await sql<{ generation: number }[]>`SELECT generation FROM wall_clearances WHERE source = 'otaone'`;
    expect(row.generation).toBe(2);
  }, 240_000);

  it('Akamai: 429 until the sensor ran; the validated _abck (and bm_sz) earned once serve plain GraphQL calls of both processes', async () => {
    const first = await post(servers[1], '/v1/ota/otatwo/rooms', GRID);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(akamai.issued).toBe(1);
    const rest = await Promise.all(Array.from({ length: 9 }, (_, i) => post(servers[i % 2], '/v1/ota/otatwo/rooms', GRID)));
    expect(rest.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect(akamai.issued).toBe(1);
    expect(await metric('hotelrates_browser_calls_total', 'source="otatwo"')).toBe(1);
    expect(await metric('hotelrates_upstream_path_events_total', 'source="otatwo",event="plain_on_clearance"')).toBe(9);
    const [row] = await sql<{ wall: string; cookies: { name: string }[] }[]>`SELECT wall, cookies FROM wall_clearances WHERE source = 'otatwo'`;
    expect(row.wall).toBe('akamai');
    expect(row.cookies.map((c) => c.name).sort()).toEqual(['_abck', 'bm_sz']);
  }, 240_000);
});
