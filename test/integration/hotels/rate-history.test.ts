import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import { TOOLS } from '../../../tools/index.js';

/*
 * GET /v1/rates/history over the replayed calendar with prices moved between calls: each change
 * is one observation with its provenance, an unchanged price adds nothing, a stay that stops
 * pricing is an `unpriced` observation; as_of reads the past; CSV (csv-parse) equals the JSON;
 * another account sees nothing.
 */

let svc: TestService;
let replay: ReplayServer;
let key: string;
const TOKEN = 'historyhotel-01';
const start = addDays(todayUtc(), 10);
/** The price of every night, per call; null: sold out. */
let nightly: number | null = 120;

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute((_date, los) => (nightly === null ? null : nightly * los))]);
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
  key = (await svc.key({ plan: 'starter' })).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const collect = async () => {
  const res = await svc.call('/v1/calendar', { key, body: { property_token: TOKEN, start, days: 3 } });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
};
const history = async (query: string, apiKey = key) => {
  const res = await svc.call(`/v1/rates/history?property_token=${TOKEN}&date=${addDays(start, 1)}${query}`, { key: apiKey });
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  assertOutputConforms(
    TOOLS.find((t) => t.name === 'get_rate_history')!,
    body,
  );
  return body;
};

describe('GET /v1/rates/history', () => {
  it('lists each change of a stay’s price with its provenance, as of any moment, CSV equal to JSON', async () => {
    const first = await collect();
    await collect(); // the same price again: nothing new
    nightly = 135;
    const moved = await collect();
    const between = new Date(Date.parse(moved.observed_at) - 1).toISOString();
    nightly = null;
    await collect(); // sold out

    const h = await history('');
    expect(h).toMatchObject({ token: TOKEN, los: 1, market: 'US', currency: 'USD', adults: 2, total: 3 });
    expect(h.observations.map((o: any) => [o.state, o.rate_total])).toEqual([
      ['priced', 120],
      ['priced', 135],
      ['unpriced', null],
    ]);
    const night = addDays(start, 1);
    expect(h.observations[0].provenance.observation_id).toBe(first.rates.find((r: any) => r.date === night).provenance.observation_id);
    expect(h.observations[1].provenance.observation_id).toBe(moved.rates.find((r: any) => r.date === night).provenance.observation_id);
    expect(h.observations[2]).toMatchObject({ provenance: null, currency: null, seller: null });
    expect(h.latest.state).toBe('unpriced');

    const past = await history(`&as_of=${encodeURIComponent(between)}`);
    expect(past.observations.map((o: any) => o.rate_total)).toEqual([120]);
    expect(past.latest.rate_total).toBe(120);

    const csv = await svc.call(`/v1/rates/history?property_token=${TOKEN}&date=${night}`, { key, headers: { accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(lines.map((l) => [l.observed_at, l.state, l.rate_total, l.currency, l.observation_id])).toEqual(
      h.observations.map((o: any) => [
        o.observed_at,
        o.state,
        o.rate_total === null ? '' : String(o.rate_total),
        o.currency ?? '',
        o.provenance?.observation_id ?? '',
      ]),
    );
  });

  it('places each night of a calendar answer in its window and against the account’s earlier prices of it', async () => {
    nightly = 150;
    const third = await collect();
    // the night has seen 120, 135 and 150 (two earlier prices when 150 came): not enough to judge
    expect(third.rates[1].position).toEqual({ window_percentile: 50, history: null, observations: 2 });
    nightly = 100;
    const fourth = await collect();
    expect(fourth.rates.map((r: any) => r.position)).toEqual(Array(3).fill({ window_percentile: 50, history: 'low', observations: 3 }));
    // another account holds no earlier price of it
    const other = (await svc.key({ plan: 'starter' })).key;
    const theirs = (await (await svc.call('/v1/calendar', { key: other, body: { property_token: TOKEN, start, days: 3 } })).json()) as any;
    expect(theirs.rates[1].position).toEqual({ window_percentile: 50, history: null, observations: 0 });
  });

  it('shows nothing to another account, nor of another length of stay', async () => {
    const other = (await svc.key({ plan: 'starter' })).key;
    expect((await history('', other)).observations).toEqual([]);
    expect((await history('&los=2')).observations).toEqual([]);
    const bad = await svc.call(`/v1/rates/history?property_token=${TOKEN}&date=not-a-date`, { key });
    expect(bad.status).toBe(422);
  });
});
