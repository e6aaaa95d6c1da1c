/**
 * docs/rate-intelligence.md's walk-through runs as written: its shell block in one bash session
 * against a service started as `npm start` starts it (the build, its own database, the first key
 * it prints, the batch worker in the API process). The doc's placeholders are the only thing
 * filled in: `sk_...` by the printed key and 8080 by the service's port. The script runs in a
 * folder of its own, where its CSV downloads land.
 *
 * The upstream pages come from the replay server: the recorded London result page for every
 * search, each of its first five properties' own page (built around its real payload,
 * test/fixtures/hotels-payloads.ts) for resolve_hotel's verification, and a calendar priced per
 * property, date and length of stay. Steps 0-5 (resolve, set, 90-day shop, grid, CSV, history)
 * are checked against what the service answers through its own routes. Step 6 (parity over the
 * range) needs the hotel's own website and the agencies' sites, which no replay here serves: the
 * test checks that the doc's request is accepted as written and reads back in the shape the doc
 * shows (its comparisons are test/integration/compsets/parity-range.test.ts's). Step 7 (a
 * parity_range watch) is checked as created; its firing is parity-range.test.ts's too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarRoute } from '../helpers/calendar-replay.js';
import { jsonValues, runDocSteps } from '../helpers/doc-script.js';
import { fixtureSuite } from '../helpers/fixtures.js';
import { spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { encodePropertyQs } from '../../src/sources/metasearch/hotels/requests.js';
import { detailData, page, PAGES, propertyPayload, withData } from '../fixtures/hotels-payloads.js';
import { startReplayServer, type ReplayServer } from '../replay/server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(REPO, 'docs/rate-intelligence.md'), 'utf8');
const blocks = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** The London page's first five results, in page order: the doc's own hotel and its four competitors. */
const TOKENS = [0, 1, 2, 3, 4].map((n) => propertyPayload(page(PAGES.london), n)[20] as string);
/** Every calendar quote: per property, weekday and length of stay. */
const price = (date: string, los: number, token: string) => (110 + TOKENS.indexOf(token) * 6 + (new Date(`${date}T00:00:00Z`).getUTCDay() % 3) * 10) * los;

const suite = fixtureSuite("docs/rate-intelligence.md's walk-through, as written", PAGES.london);
describe(suite.title, () => {
  let db: TestDatabase;
  let replay: ReplayServer;
  let svc: Spawned;
  let dir: string;

  beforeAll(async () => {
    const london = page(PAGES.london);
    replay = await startReplayServer([
      calendarRoute(price),
      ...TOKENS.map((token, n) => ({
        path: '/travel/search',
        query: { qs: encodePropertyQs(token) },
        body: withData(london, detailData(london, propertyPayload(london, n))),
      })),
      { path: '/travel/search', body: london },
    ]);
    db = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-rate-intelligence-'));
    svc = await spawnServer(
      {
        DATABASE_URL: db.url,
        PORT: '0',
        WORKER_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        UPSTREAM_METASEARCH_URL: replay.url,
        // the agencies of step 6 answer from the replay too (which knows none of them), never from the network
        UPSTREAM_OTAONE_URL: replay.url,
        UPSTREAM_OTATWO_URL: replay.url,
        UPSTREAM_OTATHREE_URL: replay.url,
        UPSTREAM_RETRIES: '0',
      },
      180_000,
    );
  }, 240_000);
  afterAll(async () => {
    svc?.child.kill('SIGTERM');
    await svc?.exited;
    await db?.drop();
    await replay?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has one shell block', () => {
    expect(blocks).toHaveLength(1);
  });

  it('resolves the hotels, makes the set, shops 90 days at 3 lengths, reads the grid, its CSV and the history, submits a parity range', async () => {
    const { steps, vars, stdout } = await runDocSteps(blocks[0]!, {
      key: svc.firstKey!,
      url: svc.url,
      vars: ['OWN', 'R1', 'R2', 'R3', 'R4', 'SET', 'SHOP', 'PARITY', 'WATCH'],
      cwd: dir,
      timeoutMs: 300_000,
    });
    expect(Object.keys(steps), stdout).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'step 4', 'step 5', 'step 6', 'step 7', 'vars']);
    const [own, r1, r2, r3, r4, set, shop, parity, watch] = vars;
    // 0. each name resolved to its own hotel on the page
    expect([own, r1, r2, r3, r4]).toEqual(TOKENS);
    expect(set).toMatch(/^compset_/);
    expect(shop).toMatch(new RegExp(`^/v1/compsets/${set}/shops/rateshop_`));
    expect(parity).toMatch(new RegExp(`^/v1/compsets/${set}/parity/`));

    const api = async (p: string) => {
      const res = await fetch(svc.url + p, { headers: { 'x-api-key': svc.firstKey! } });
      expect(res.status, p).toBe(200);
      return res;
    };
    const grid = (await (await api(shop!)).json()) as any;
    expect(grid).toMatchObject({ status: 'succeeded', items_total: 15, items_succeeded: 15, request: { start: '2027-04-01', days: 90, los: [1, 2, 3] } });
    expect(grid.properties.map((p: any) => p.name)).toEqual(['The Crown', 'Exmouth Arms', 'Rose & Crown', 'Steam Engine', 'White Ferry']);

    // 3. the status, then the first three dates at one night as the doc's json helper prints them (node's console.log of the rows)
    const [status, ...printed] = steps['step 3']!.split('\n');
    expect(status).toBe('succeeded');
    const shown = [...printed.join('\n').matchAll(/date: '([\d-]+)',\s+los: 1,\s+currency: '(\w+)',\s+own_total: ([\d.]+)/g)].map((m) => [
      m[1],
      m[2],
      Number(m[3]),
    ]);
    expect(shown).toEqual(
      grid.rows
        .filter((r: any) => r.los === 1)
        .slice(0, 3)
        .map((r: any) => [r.date, r.currency, r.own_total]),
    );
    expect(shown.map(([d, , total]) => [d, total])).toEqual(['2027-04-01', '2027-04-02', '2027-04-03'].map((d) => [d, price(d, 1, TOKENS[0]!)]));
    for (const r of grid.rows) {
      expect(r.cells.map((c: any) => c.total)).toEqual(TOKENS.map((t) => price(r.date, r.los, t)));
      expect(r.own_rank).toBe(1); // the own hotel is the page's first and the cheapest by construction
    }

    // 4. the CSV saved where the script ran: csv-parse reads the API's grid back, one line per date, length and property
    const csv = parse(fs.readFileSync(path.join(dir, 'battersea.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(90 * 3 * 5);
    expect(csv.map((l) => [l.date, Number(l.los), l.property_token, Number(l.total)])).toEqual(
      grid.rows.flatMap((r: any) => r.cells.map((c: any) => [r.date, r.los, c.property_token, c.total])),
    );

    // 5. the history of the own hotel's stay of 10 April at 2 nights: the shop's observation; as of 1 March 2027 the same; its CSV
    const [history, asOf] = jsonValues(steps['step 5']!);
    expect(history).toMatchObject({ token: own, date: '2027-04-10', los: 2, total: 1 });
    expect(history.observations[0]).toMatchObject({ state: 'priced', rate_total: price('2027-04-10', 2, TOKENS[0]) });
    const cell = grid.rows.find((r: any) => r.date === '2027-04-10' && r.los === 2).cells[0];
    expect(history.observations[0].provenance.observation_id).toBe(cell.provenance.observation_id);
    expect(asOf.observations).toEqual(history.observations);
    const historyCsv = parse(fs.readFileSync(path.join(dir, 'history.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(historyCsv.map((l) => [l.state, Number(l.rate_total), l.observation_id])).toEqual([
      ['priced', history.observations[0].rate_total, cell.provenance.observation_id],
    ]);

    // 6. the parity range as the doc submits it: 30 dates × 2 lengths, three agencies, read back in the doc's shape
    const range = (await (await api(parity!)).json()) as any;
    expect(range).toMatchObject({ request: { start: '2027-04-01', days: 30, los: [1, 2], tolerance_pct: 1 } });
    expect(range.items_total).toBe(62);
    // as the json helper prints them: an agency each, the (empty) disparities and sold-out sellers
    for (const source of ['otaone', 'otatwo', 'otathree']) expect(steps['step 6']).toContain(`source: '${source}'`);
    expect(range.agencies.map((a: any) => a.source).sort()).toEqual(['otaone', 'otathree', 'otatwo']);
    const parityCsv = fs.readFileSync(path.join(dir, 'parity.csv'), 'utf8');
    expect(parityCsv.split('\r\n')[0]).toBe(
      'date,los,check_out,status,source,outcome,official_total,agency_total,currency,amount,pct,basis_price,basis_nights,basis_adults,basis_rooms,metasearch_total,metasearch_currency,reason',
    );

    // 7. the parity_range watch as the doc creates it: the range's cost per check, its events listed (none told yet, or the reasons)
    const watched = (await (await api(`/v1/watches/${watch}`)).json()) as any;
    expect(watched).toMatchObject({
      target: { operation: 'parity_range', compset_id: set, days: 30, los: [1, 2] },
      rule: { type: 'undercut' },
      credits_per_check: 1210,
    });
    expect(steps['step 7']).toMatch(/^\[.*\]$/s);
  }, 360_000);
});
