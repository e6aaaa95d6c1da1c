/**
 * docs/watches.md runs as written: its first block (the signing secret, exported as the doc
 * exports it) sets up the service, started as `npm start` starts it but without the queue worker
 * (so nothing is ever delivered to the doc's example.com callback, and the watch's baseline check
 * waits in the queue), and its second block, steps 0 to 5, runs in one bash session against it.
 * The upstreams are replayed: the hotel search for step 0 and the calendar the watch prices,
 * with one night under the rule's 150. The doc's placeholders are the only thing filled in: the
 * key `npm start` printed for `sk_...` and the service's port for 8080. Each step's answer is
 * checked against what the doc shows beside it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePropertyQs } from '../../src/sources/metasearch/hotels/requests.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../fixtures/hotels-payloads.js';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { fixtureSuite } from '../helpers/fixtures.js';
import { spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(REPO, 'docs/watches.md'), 'utf8');
const BLOCKS = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
const CROWN = LONDON_TOKENS[0];
/** The night the doc's check finds under 150, at the price it shows. */
const CHEAP_NIGHT = '2027-05-05';

/** The JSON values curl printed one after another (its answers end without a newline). */
function jsonValues(text: string): any[] {
  const values: any[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
  }
  return values;
}

const suite = fixtureSuite('docs/watches.md, as written', PAGES.london);

describe(suite.title, () => {
  let db: TestDatabase;
  let replay: ReplayServer;
  let svc: Spawned;
  let secret: string;

  beforeAll(async () => {
    expect(BLOCKS).toHaveLength(2);
    // block 1's export line, as written: the secret the doc makes
    const exportLine = BLOCKS[0].split('\n').find((l) => l.startsWith('export WEBHOOK_SIGNING_SECRET='))!;
    secret = (await run('bash', ['-euo', 'pipefail', '-c', `${exportLine}\necho "$WEBHOOK_SIGNING_SECRET"`], { cwd: REPO })).stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const london = page(PAGES.london);
    replay = await startReplayServer([
      { path: '/travel/search', query: { qs: encodePropertyQs(CROWN) }, body: withData(london, crownDetail()) },
      { path: '/travel/search', body: london },
      calendarRoute((date, los) => (date === CHEAP_NIGHT ? 142 : 180) * los),
    ]);
    db = await createTestDatabase();
    svc = await spawnServer(
      {
        DATABASE_URL: db.url,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WEBHOOK_SIGNING_SECRET: secret,
        RUN_WORKER: 'false',
        UPSTREAM_METASEARCH_URL: replay.url,
        UPSTREAM_RETRIES: '0',
      },
      180_000,
    );
  });
  afterAll(async () => {
    svc?.child.kill('SIGTERM');
    await svc?.exited;
    await replay?.close();
    await db?.drop();
  });

  it('steps 0 to 5 answer as the doc shows', async () => {
    expect(svc.firstKey).toMatch(/^sk_/);
    const port = new URL(svc.url).port;
    // a marker before each numbered step, and the variables the doc sets printed at the end
    const script =
      BLOCKS[1]
        .replaceAll('sk_...', svc.firstKey!)
        .replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)
        .replace(/^# (\d)\. /gm, (m, n: string) => `echo; echo "--- step ${n}"\n${m}`) + 'echo; echo "--- vars"; echo "$TOKEN $WATCH"\n';
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: REPO, timeout: 120_000 });
    const steps = Object.fromEntries(
      stdout
        .split(/^--- /m)
        .slice(1)
        .map((part) => [part.slice(0, part.indexOf('\n')).trim(), part.slice(part.indexOf('\n') + 1).trim()]),
    );
    const [token, watch] = steps.vars.split(' ');

    // 0: the hotel's property token from resolve_hotel; 1: the watch's id
    expect(token).toBe(CROWN);
    expect(watch).toMatch(/^watch_/);

    // 2: checked now, charged like POST /v1/calendar: the night under 150 fires the rule
    const [status, ...rest] = steps['step 2'].split(/\r?\n/);
    expect(status).toMatch(/^HTTP\/1\.1 200/);
    expect(rest.find((l) => /^x-credits-charged:/i.test(l))).toMatch(/: 5$/);
    const [check] = jsonValues(rest.join('\n'));
    expect(check.check).toMatchObject({ cheapest: { key: CHEAP_NIGHT, total: 142, currency: expect.any(String) }, fired: true });
    expect(check.check.cheapest.provenance).toBeTruthy();
    expect(check.event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'watch.triggered' });
    expect(check.watch.id).toBe(watch);

    // 3: the watch with its latest checks, its events, what it stored
    const [got, events, rates] = jsonValues(steps['step 3']);
    expect(got).toMatchObject({ id: watch, status: 'active', rule: { type: 'below', price: 150 }, every_hours: 12 });
    expect(got.checks.map((c: { id: string }) => c.id)).toEqual([check.check.id]);
    expect(events).toMatchObject({ watch_id: watch, events: [{ id: check.event.id, type: 'watch.triggered' }] });
    expect(rates).toMatchObject({ token: CROWN, los: 1, total: 30 });
    expect(rates.rates.find((r: { date: string }) => r.date === CHEAP_NIGHT)).toMatchObject({ rate_total: 142 });

    // 4: rule and schedule changed, paused, resumed, deleted
    const [patched, paused, resumed] = jsonValues(steps['step 4']);
    expect(patched).toMatchObject({ rule: { type: 'drop_pct', pct: 10 }, every_hours: 24 });
    expect(paused.status).toBe('paused');
    expect(resumed.status).toBe('active');

    // 5: a parity watch of a compare target, rule undercut
    const [parity] = jsonValues(steps['step 5']);
    expect(parity).toMatchObject({ id: expect.stringMatching(/^watch_/), status: 'active', rule: { type: 'undercut' } });
    expect(parity.target).toMatchObject({ operation: 'compare', check_in: '2027-05-04', nights: 3 });
  }, 300_000);
});
