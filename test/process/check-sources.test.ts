import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSourcesStatus } from '../../src/ops/outcome-store.js';
import type { Sql } from '../../src/db/client.js';
import { ALIASES, hostEnvName } from '../../src/config/hosts.js';
import { fixtureSuite } from '../helpers/fixtures.js';
import { freePort } from '../helpers/free-port.js';
import { runEntry } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

const LOOKUP = 'apps/itunes-lookup-macsoftware-slack-803453959.json';
const GH = 'ats/greenhouse-board-jobs-content-amplitude.json';
const payload = (name: string) => readFileSync(new URL(`../fixtures/webdata/${name}`, import.meta.url), 'utf8');

/** Sources answered by the replay, one whose reply changed shape, sources behind a bot wall; every other source points at a closed port. */
const ANSWERING = ['apps', 'careers'];
const CHANGED = ['hostel'];
const BLOCKING = ['otaone', 'video', 'retail'];

const suite = fixtureSuite('npm run check:sources (the real script, as a child process)', LOOKUP, GH);
describe(suite.title, () => {
  let replay: ReplayServer;
  let wall: http.Server;
  let db: TestDatabase;
  let dataDir: string;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/lookup', query: { id: '803453959' }, fixture: LOOKUP },
      { path: '/us/customer-reviews/id803453959', body: payload('apps-customer-reviews.json'), headers: { 'content-type': 'application/json' } },
      { path: '/gh/v1/boards/amplitude/jobs', fixture: GH },
      { path: '/gh/v1/boards/amplitude', body: { name: 'Amplitude', content: '' } },
      // the autocomplete answers an object where its list of places was
      { path: '/autocomplete-service/v1/autocomplete/web', body: { places: [] } },
    ]);
    // a bot wall in front of everything: DataDome's challenge page with 403
    wall = http.createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>');
    });
    await new Promise<void>((resolve) => wall.listen(0, '127.0.0.1', resolve));
    const wallUrl = `http://127.0.0.1:${(wall.address() as AddressInfo).port}`;
    const closed = `http://127.0.0.1:${await freePort()}`;
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'check-sources-'));
    env = {
      ...Object.fromEntries(ALIASES.map((a) => [hostEnvName(a), a === 'apps' || CHANGED.includes(a) ? replay.url : BLOCKING.includes(a) ? wallUrl : closed])),
      ATS_HOST_OVERRIDES: JSON.stringify({ 'boards-api.greenhouse.io': `${replay.url}/gh` }),
      SAFE_FETCH_ALLOW_PRIVATE: 'true',
      UPSTREAM_RETRIES: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: undefined,
    };
  });
  afterAll(async () => {
    await replay?.close();
    await new Promise((resolve) => wall?.close(resolve));
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('--json: answering sources ok, walled ones blocked, the rest unreachable; exit 1; outcomes recorded in the configured database', async () => {
    const run = await runEntry('src/cli/check-sources.ts', ['--json'], { ...env, DATABASE_URL: db.url });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    const states = Object.fromEntries(report.sources.map((s: any) => [s.source, s.state]));
    const expected = Object.fromEntries(
      [...ALIASES, 'careers'].map((s) => [
        s,
        ANSWERING.includes(s) ? 'ok' : CHANGED.includes(s) ? 'contract_changed' : BLOCKING.includes(s) ? 'blocked' : 'unreachable',
      ]),
    );
    expect(states).toEqual(expected);
    for (const s of report.sources) {
      expect(s.latency_ms).toBeGreaterThanOrEqual(0);
      expect(s.checked.length).toBeGreaterThan(0);
      expect(s.detail === null).toBe(s.state === 'ok');
    }
    expect(report.sources.find((s: any) => s.source === 'apps')).toMatchObject({
      operation: 'get_app',
      checked: 'app 803453959 (Slack, us storefront)',
      mode: 'auto',
      path: 'http',
      clearance: null,
      paths: { calls: 2, browser_visits: 0, browser_visits_per_100_calls: 0, plain_on_clearance: 0, reclears: 0, identifier_repairs: 0, drift_verdicts: 0 },
    });
    expect(report.sources.find((s: any) => s.source === 'careers')).toMatchObject({
      mode: null,
      paths: { calls: 1, browser_visits: 0, browser_visits_per_100_calls: 0 },
    });
    expect(report.sources.find((s: any) => s.source === 'hostel').detail).toBe('hostel upstream contract changed: autocomplete array');
    // the changed reply is kept for diagnosis, as every contract change is
    expect(readdirSync(path.join(dataDir, 'diagnostics', 'hostel')).some((f) => f.endsWith('.html.gz'))).toBe(true);

    // the status every API process reads now reflects the check
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined }) as unknown as Sql;
    try {
      const status = Object.fromEntries((await readSourcesStatus(sql)).map((s) => [s.source, s]));
      expect(status.apps).toMatchObject({ state: 'ok', counts: { ok: 2 } });
      expect(status.careers.state).toBe('ok');
      expect(status.otaone).toMatchObject({ state: 'failing', counts: { blocked: 1 } });
      expect(status.trends).toMatchObject({ state: 'failing', counts: { unreachable: 1 } });
      expect(status.hostel).toMatchObject({ state: 'failing', counts: { contract_changed: 1 } });
      expect(status.hostel.last_contract_change_at).not.toBeNull();
    } finally {
      await sql.end();
    }
  }, 180_000);

  it('prints the table without a database and exits 0 when every source checked is ok', async () => {
    const run = await runEntry('src/cli/check-sources.ts', ['--only', 'apps,careers'], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^source\s+state\s+mode\s+path\s+latency\s+browser\/100\s+on-clearance\s+reclears\s+repairs\s+drift\s+clearance\s+checked\s+detail$/,
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^apps\s+ok\s+auto\s+http\s+\d+ ms\s+0\s+0\s+0\s+0\s+0\s+-\s+get_app: app 803453959/);
    // the careers boards go through the website fetcher, not the upstream client: no mode or path to report
    expect(lines[2]).toMatch(/^careers\s+ok\s+-\s+-\s+\d+ ms\s+0\s+0\s+0\s+0\s+0\s+-\s+get_careers_jobs: board greenhouse\/amplitude$/);
  }, 180_000);

  it('refuses an unknown source with the usage, exit 2', async () => {
    const run = await runEntry('src/cli/check-sources.ts', ['--only', 'nosuch'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown source: nosuch');
  }, 180_000);
});
