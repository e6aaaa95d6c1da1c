import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { TOOLS } from '../../../tools/index.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/*
 * GET /v1/watches/{watch_id}/checks over the replayed calendar with prices moved between checks:
 * every check, newest first, page by page; the same page as CSV (format=csv or Accept: text/csv),
 * which csv-parse reads back equal to the JSON; another account's watch is a 404.
 */

let svc: TestService;
let replay: ReplayServer;
let key: string;
const TOKEN = 'checkscsv-hotel-01';
const start = addDays(todayUtc(), 12);
/** The price of every night, per check. */
let nightly = 140;

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((_date, los) => nightly * los)]);
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
  key = (await svc.key({ plan: 'starter' })).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const checksTool = TOOLS.find((t) => t.name === 'list_watch_checks')!;

async function json(path: string, apiKey = key): Promise<any> {
  const res = await svc.call(path, { key: apiKey });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** A CSV cell as the JSON value writes it: absent → empty, never 0. */
const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

describe('GET /v1/watches/{watch_id}/checks', () => {
  it('lists every check page by page, and the same page as CSV that csv-parse reads equal to the JSON', async () => {
    const created = await svc.call('/v1/watches', {
      key,
      body: { target: { operation: 'calendar', property_token: TOKEN, start, days: 3 }, rule: { type: 'drop_pct', pct: 5 }, name: 'Spring checks' },
    });
    expect(created.status).toBe(201);
    const watch = (await created.json()) as any;
    await waitFor(async () => ((await json(`/v1/watches/${watch.id}`)).checks_total ? true : null), { what: 'the baseline check' });
    nightly = 120; // a drop of 14 %: the rule fires
    expect((await svc.call(`/v1/watches/${watch.id}/check`, { key, method: 'POST' })).status).toBe(200);
    nightly = 125;
    expect((await svc.call(`/v1/watches/${watch.id}/check`, { key, method: 'POST' })).status).toBe(200);

    const all = await json(`/v1/watches/${watch.id}/checks`);
    assertOutputConforms(checksTool, all);
    expect(all).toMatchObject({ watch_id: watch.id, total: 3 });
    expect(all.checks.map((c: any) => [c.trigger, c.cheapest.total, c.fired])).toEqual([
      ['request', 125, false],
      ['request', 120, true],
      ['schedule', 140, false],
    ]);
    // the same checks as the watch's own answer, newest first
    const detail = await json(`/v1/watches/${watch.id}?checks=3`);
    expect(all.checks).toEqual(detail.checks);

    const page = await json(`/v1/watches/${watch.id}/checks?limit=1&offset=1`);
    expect(page.checks.map((c: any) => c.id)).toEqual([all.checks[1].id]);
    expect(page.total).toBe(3);

    const byFormat = await svc.call(`/v1/watches/${watch.id}/checks?format=csv`, { key });
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(byFormat.headers.get('content-disposition')).toBe(`attachment; filename="${watch.id}-checks.csv"`);
    const text = await byFormat.text();
    expect(text.split('\r\n')[0]).toBe(checksTool.csv!.split(': ')[1]!.replaceAll(', ', ','));
    const byAccept = await svc.call(`/v1/watches/${watch.id}/checks`, { key, headers: { accept: 'text/csv' } });
    expect(await byAccept.text()).toBe(text);

    const lines = parse(text, { columns: true }) as Record<string, string>[];
    expect(lines).toEqual(
      all.checks.map((c: any) => ({
        watch_id: watch.id,
        check_id: c.id,
        checked_at: c.checked_at,
        trigger: c.trigger,
        period: cell(c.period),
        credits: String(c.credits),
        currency: cell(c.currency),
        cheapest_key: c.cheapest.key,
        cheapest_total: String(c.cheapest.total),
        cheapest_currency: c.cheapest.currency,
        cheapest_observation_id: c.cheapest.provenance.observation_id,
        cheapest_observed_at: c.cheapest.provenance.observed_at,
        cheapest_source: c.cheapest.provenance.source,
        changed: String(c.changed),
        fired: String(c.fired),
        // a calendar check sees no parity: empty, never 0
        parity_status: '',
        parity_official_total: '',
        parity_cheapest_agency: '',
        parity_cheapest_agency_total: '',
        parity_undercuts: '',
        run_id: c.stored.run_id,
        rows_written: String(c.stored.rows_written),
        rows_changed: String(c.stored.rows_changed),
        rows_removed: String(c.stored.rows_removed),
      })),
    );

    // format=json wins over Accept
    const asked = await svc.call(`/v1/watches/${watch.id}/checks?format=json`, { key, headers: { accept: 'text/csv' } });
    expect(asked.headers.get('content-type')).toMatch(/^application\/json/);

    // another account: a 404, in JSON and in CSV
    const other = (await svc.key({ plan: 'starter' })).key;
    for (const path of [`/v1/watches/${watch.id}/checks`, `/v1/watches/${watch.id}/checks?format=csv`]) {
      expect((await svc.call(path, { key: other })).status, path).toBe(404);
    }
  });
});
