/**
 * docs/watches.md's walk-through runs as written: its second shell block (resolve the hotel, create
 * a watch, check it, read it back, change it, delete it, create a parity watch) in one bash session
 * against a service started as its first block says (a signing secret set, `npm start`'s build and
 * first key). The doc's placeholders are the only thing filled in: `sk_...` by the printed key and
 * 8080 by the service's port. The upstream pages come from the replay server (the recorded London
 * result page and a calendar priced so that one night of May 2027 is under the rule's 150).
 *
 * The service runs without its queue worker (RUN_WORKER=false): scheduled checks and webhook
 * deliveries are the worker's, and the doc's callback host (example.com) must never be called
 * from a test; the doc's step 2 is a check run by the API itself.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { jsonValues, runDocSteps } from '../helpers/doc-script.js';
import { fixtureSuite } from '../helpers/fixtures.js';
import { spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { encodePropertyQs } from '../../src/sources/metasearch/hotels/requests.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../fixtures/hotels-payloads.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(REPO, 'docs/watches.md'), 'utf8');
const blocks = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
/** The night the calendar prices under the doc's rule (its own example answer names it). */
const CHEAP_NIGHT = '2027-05-05';

const suite = fixtureSuite("docs/watches.md's walk-through, as written", PAGES.london);
describe(suite.title, () => {
  let db: TestDatabase;
  let replay: ReplayServer;
  let svc: Spawned;

  beforeAll(async () => {
    const london = page(PAGES.london);
    replay = await startReplayServer([
      calendarRoute((date, los) => (date === CHEAP_NIGHT ? 142 : 180) * los),
      { path: '/travel/search', query: { qs: encodePropertyQs(LONDON_TOKENS[0]!) }, body: withData(london, crownDetail()) },
      { path: '/travel/search', body: london },
    ]);
    db = await createTestDatabase();
    svc = await spawnServer(
      {
        DATABASE_URL: db.url,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RUN_WORKER: 'false',
        UPSTREAM_METASEARCH_URL: replay.url,
        UPSTREAM_RETRIES: '0',
        WEBHOOK_SIGNING_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      },
      180_000,
    );
  }, 240_000);
  afterAll(async () => {
    svc?.child.kill('SIGTERM');
    await svc?.exited;
    await db?.drop();
    await replay?.close();
  });

  it('the first block starts the service with a signing secret', () => {
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(/export WEBHOOK_SIGNING_SECRET=.*\nnpm start/);
  });

  it('the second block resolves, watches, checks, reads, changes and deletes as the doc shows', async () => {
    const { steps, vars, stdout } = await runDocSteps(blocks[1]!, {
      key: svc.firstKey!,
      url: svc.url,
      vars: ['TOKEN', 'WATCH'],
      cwd: REPO,
      timeoutMs: 180_000,
    });
    expect(Object.keys(steps), stdout).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'step 4', 'step 5', 'vars']);
    const [token, watch] = vars;
    expect(token).toBe(LONDON_TOKENS[0]);
    expect(watch).toMatch(/^watch_/);

    // 2. check now: the response headers, then the check whose cheapest night is under the rule
    const [head, body] = steps['step 2']!.split(/\r?\n\r?\n/, 2);
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(/^x-credits-charged: 5\r?$/im);
    const check = JSON.parse(body!);
    expect(check.check).toMatchObject({ cheapest: { key: CHEAP_NIGHT, total: 142, currency: expect.stringMatching(/^[A-Z]{3}$/) }, fired: true });
    expect(check.event).toMatchObject({ type: 'watch.triggered' });

    // 3. the watch with its checks, its events, the stored rates
    const [detail, events, rates] = jsonValues(steps['step 3']!);
    expect(detail).toMatchObject({ id: watch, name: 'London in May', status: 'active' });
    expect(detail.checks.length).toBeGreaterThanOrEqual(1);
    expect(events).toMatchObject({ watch_id: watch, events: [{ type: 'watch.triggered' }] });
    expect(rates).toMatchObject({ token });
    expect(rates.rates.find((r: { date: string }) => r.date === CHEAP_NIGHT)).toMatchObject({ rate_total: 142 });

    // 4. PATCH rule and schedule, pause, resume, delete
    const changes = jsonValues(steps['step 4']!);
    expect(changes[0]).toMatchObject({ rule: { type: 'drop_pct', pct: 10 }, every_hours: 24 });
    expect(changes[1]).toMatchObject({ status: 'paused' });
    expect(changes[2]).toMatchObject({ status: 'active' });

    // 5. the parity watch is created (checked later, by the worker)
    const [parity] = jsonValues(steps['step 5']!);
    expect(parity).toMatchObject({ id: expect.stringMatching(/^watch_/), status: 'active', rule: { type: 'undercut' } });
  }, 300_000);
});
