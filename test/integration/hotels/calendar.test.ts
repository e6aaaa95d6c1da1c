import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../src/domain/dates.js';
import { askedWindow, realRateBlock } from '../../helpers/calendar-payload.js';
import { calendarRoute, type Pricer } from '../../helpers/calendar-replay.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { answerOf } from '../../helpers/answers.js';
import { calendar, serpCalendar, storedRates } from '../../../tools/calendar.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const TOKEN = 'ChkIq9DtnN2Sx7kBGg0vZy8xMWJ3cGh0c2JtEAE';
const START = '2027-03-01';
const suite = fixtureSuite('POST /v1/calendar against the replayed calendar RPC', 'google-hotels/travel-search-paris-budget.html');

// 2027-03-05 and -06 sell only as 2-night stays; 2027-03-10 not at all; other nights 100 + day index.
/** Tokens whose every night is sold out from now on. */
const soldOut = new Set<string>();
const pricer: Pricer = (date, los, token) => {
  if (token.startsWith('ChkEmpty') || soldOut.has(token)) return null;
  const i = Math.round((Date.parse(date) - Date.parse(START)) / 86_400_000);
  if (date === '2027-03-10') return null;
  if (date === '2027-03-05' || date === '2027-03-06') return los >= 2 ? (260 * los) / 2 : null;
  return (100 + i) * los;
};

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      calendarRoute(pricer, { match: (r) => !/^Chk(Fail|Junk|Block)/.test(askedWindow(r.body).token) }),
      {
        method: 'POST',
        path: '/_/TravelFrontendUi/data/batchexecute',
        match: (r) => askedWindow(r.body).token.startsWith('ChkFail'),
        status: 500,
        body: 'oops',
      },
      {
        method: 'POST',
        path: '/_/TravelFrontendUi/data/batchexecute',
        match: (r) => askedWindow(r.body).token.startsWith('ChkJunk'),
        body: ')]}\'\n\n12\n[["di",12]]\n',
      },
      {
        method: 'POST',
        path: '/_/TravelFrontendUi/data/batchexecute',
        match: (r) => askedWindow(r.body).token.startsWith('ChkBlock'),
        status: 429,
        body: '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>',
      },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('prices every night of the horizon with the split, probes minimum stays, reports unpriced nights', async () => {
    const res = await svc.call('/v1/calendar', { key, body: { token: TOKEN, start: START, days: 40, market: 'FR' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('5');
    const cal = await answerOf(res, calendar);
    expect(cal).toMatchObject({ token: TOKEN, market: 'FR', requested_days: 40, egress_mode: 'direct', unpriced_dates: ['2027-03-10'] });
    expect(cal.coverage).toBe(0.975);
    expect(cal.collection_id).toMatch(/^ratecol_/);
    expect(cal.rates).toHaveLength(39);
    const first = cal.rates[0];
    expect(first).toMatchObject({ date: START, check_in: START, check_out: '2027-03-02', nights: 1, currency: 'EUR', rate_total: 100 });
    // the template's split, scaled: base + taxes + fees = total
    expect(first.rate_base! + first.rate_taxes! + first.rate_fees!).toBeCloseTo(100, 1);
    expect(first.rate_before_taxes_with_fees).toBeCloseTo(first.rate_base! + first.rate_fees!, 2);
    expect(first.rate_per_night).toBe(100); // FR: rates include tax
    expect(first.provenance).toMatchObject({
      schema_version: 1,
      collection_id: cal.collection_id,
      source: 'metasearch',
      source_kind: 'calendar',
      source_property_id: TOKEN,
      requested_market: 'FR',
      requested_currency: 'EUR',
      returned_currency: 'EUR',
      egress_mode: 'direct',
      price_basis: 'stay_total_including_taxes_and_fees',
      derivation: 'upstream',
      upstream_rate_id: null,
    });
    expect(new Set(cal.rates.map((r) => r.provenance.observation_id)).size).toBe(39);
    const probed = cal.rates.find((r) => r.date === '2027-03-05');
    expect(probed).toMatchObject({ min_length_of_stay: 2, rate_total: 130, nights: 1, check_out: '2027-03-06' });
    expect(probed!.provenance.derivation).toBe('min_stay_total_divided_by_nights');
    expect(cal.tax_profile).toMatchObject({ currency: 'EUR', rates_include_tax: true });
    expect(cal.validation).toMatchObject({ rows: 39, non_positive: 0, split_mismatch: 0, currency_mismatch: 0 });
    expect(cal.booking_window).toMatchObject({ first_priced_date: START, last_priced_date: addDays(START, 39) });

    // the upstream was asked for two windows at 1 night, then the missing nights at 2 and 3
    const asked = replay.requests.filter((r) => r.query.rpcids === 'yY52ce').map((r) => askedWindow(r.body));
    expect(asked.filter((a) => a.los === 1).map((a) => [a.first, a.last])).toEqual([
      [START, '2027-03-31'],
      ['2027-04-01', '2027-04-09'],
    ]);
    expect(asked.find((a) => a.los === 2)).toMatchObject({ first: '2027-03-05', last: '2027-03-10', currency: 'EUR', token: TOKEN });
    const req = replay.requests.find((r) => r.query.rpcids === 'yY52ce')!;
    expect(req.query).toMatchObject({ gl: 'fr', 'source-path': `/travel/hotels/entity/${TOKEN}` });
    expect(req.headers['x-same-domain']).toBe('1');
  });

  it('a 330-night calendar: eleven monthly windows, every night priced', async () => {
    const res = await svc.call('/v1/calendar', { key, body: { token: TOKEN, start: '2027-06-01', days: 330, probe_min_stay: false, market: 'DE' } });
    expect(res.status).toBe(200);
    const cal = await answerOf(res, calendar);
    expect(cal.requested_days).toBe(330);
    expect(cal.rates).toHaveLength(330);
    expect(cal.coverage).toBe(1);
    expect(cal.rates.at(-1)!.date).toBe(addDays('2027-06-01', 329));
    expect(cal.rates[0].currency).toBe('EUR');
    const windows = replay.requests.filter((r) => r.query.rpcids === 'yY52ce' && askedWindow(r.body).first >= '2027-06-01');
    expect(windows).toHaveLength(11);
    const days331 = await svc.call('/v1/calendar', { key, body: { token: TOKEN, days: 331 } });
    expect(days331.status).toBe(422);
  });

  it('US market: per-night figure before taxes; stored rates are readable for free', async () => {
    const res = await svc.call('/v1/calendar', { key, body: { token: TOKEN, start: START, days: 3, probe_min_stay: false } });
    const cal = await answerOf(res, calendar);
    expect(cal.market).toBe('US');
    expect(cal.rates[0].rate_per_night).toBe(cal.rates[0].rate_base);
    const stored = await svc.call(`/v1/rates?token=${TOKEN}&from=${START}&to=2027-03-02`, { key });
    expect(stored.status).toBe(200);
    const body = await answerOf(stored, storedRates);
    expect(body.rates.map((r) => [r.date, r.rate_total])).toEqual([
      [START, 100],
      ['2027-03-02', 101],
    ]);
    expect(stored.headers.get('x-credits-charged')).toBeNull();
    // property_token, the name every other route takes, reads the same rows
    const byName = await svc.call(`/v1/rates?property_token=${TOKEN}&from=${START}&to=2027-03-02`, { key });
    expect(byName.status).toBe(200);
    expect((await answerOf(byName, storedRates)).rates).toEqual(body.rates);
    const none = await svc.call(`/v1/rates?from=${START}`, { key });
    expect(none.status).toBe(422);
    expect(((await none.json()) as any).detail[0]).toMatchObject({ type: 'missing', msg: 'Field required' });
    const bad = await svc.call(`/v1/rates?token=${TOKEN}&from=2027-03-05&to=2027-03-01`, { key });
    expect(bad.status).toBe(400);
  });

  it('the stored rates commit with the call’s history row and charge, or none of them does', async () => {
    const token = 'ChkAtomic-hotel-0001';
    const used = async () => ((await (await svc.call('/v1/billing', { key })).json()) as any).credits.used as number;
    const before = await used();
    const calendarCall = () => svc.call('/v1/calendar', { key, body: { token, start: START, days: 3, probe_min_stay: false } });
    /** The call made while `table` is gone: a write to it fails for real. */
    const withoutTable = async (table: string) => {
      await svc.deps.sql.unsafe(`ALTER TABLE ${table} RENAME TO ${table}_away`);
      try {
        return await calendarCall();
      } finally {
        await svc.deps.sql.unsafe(`ALTER TABLE ${table}_away RENAME TO ${table}`);
      }
    };
    // the stored-rates write fails: nothing of the call commits
    const failed = await withoutTable('stored_rates');
    expect(failed.status).toBe(500);
    expect(failed.headers.get('x-credits-charged')).toBe('0');
    const id = failed.headers.get('x-request-id')!;
    // recorded as the failure it became, uncharged; nothing charged, nothing stored
    const record = (await (await svc.call(`/v1/requests/${id}`, { key })).json()) as any;
    expect(record).toMatchObject({ status: 500, credits: 0 });
    expect(await used()).toBe(before);
    const stored = await answerOf(await svc.call(`/v1/rates?token=${token}`, { key }), storedRates);
    expect(stored.total).toBe(0);
    // the other way round: the charge cannot be written, so the rates are not kept either
    const unpaid = await withoutTable('credit_ledger');
    expect(unpaid.status).toBe(500);
    expect(await used()).toBe(before);
    expect((await answerOf(await svc.call(`/v1/rates?token=${token}`, { key }), storedRates)).total).toBe(0);
    // the same call with its tables back: rates, charge and record all there
    const ok = await calendarCall();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-credits-charged')).toBe('5');
    expect(await used()).toBe(before + 5);
    expect((await answerOf(await svc.call(`/v1/rates?token=${token}`, { key }), storedRates)).total).toBe(3);
    expect((await (await svc.call(`/v1/requests/${ok.headers.get('x-request-id')}`, { key })).json()) as any).toMatchObject({ status: 200, credits: 5 });
  });

  it('a calendar with nothing bookable is free', async () => {
    const res = await svc.call('/v1/calendar', { key, body: { token: 'ChkEmpty-hotel', start: START, days: 5, probe_min_stay: false } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect((await answerOf(res, calendar)).unpriced_dates).toHaveLength(5);
  });

  it('a full sell-out removes the stored nights, as one sold-out night removes its own (defect 5)', async () => {
    const token = 'ChkSellout-hotel-0001';
    const stored = async () => (await answerOf(await svc.call(`/v1/rates?token=${token}`, { key }), storedRates)).total;
    const calendarCall = () => svc.call('/v1/calendar', { key, body: { token, start: START, days: 3, probe_min_stay: false } });
    expect((await calendarCall()).status).toBe(200);
    expect(await stored()).toBe(3);
    soldOut.add(token);
    const res = await calendarCall();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect((await answerOf(res, calendar)).unpriced_dates).toHaveLength(3);
    expect(await stored()).toBe(0);
  });

  it('upstream failure is 502, a reply without the RPC frame is 503, bad input is 422', async () => {
    const failed = await svc.call('/v1/calendar', { key, body: { token: 'ChkFail-hotel', start: START, days: 5 } });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-credits-charged')).toBe('0');
    const blocked = await svc.call('/v1/calendar', { key, body: { token: 'ChkBlock-hotel', start: START, days: 5 } });
    expect(blocked.status).toBe(502);
    expect(((await blocked.json()) as any).detail).toBe('UnusualTraffic');
    expect(blocked.headers.get('x-credits-charged')).toBe('0');
    const junk = await svc.call('/v1/calendar', { key, body: { token: 'ChkJunk-hotel', start: START, days: 5 } });
    expect(junk.status).toBe(503);
    expect(((await junk.json()) as any).detail).toMatch(/^metasearch upstream contract changed/);
    const bad = await svc.call('/v1/calendar', { key, body: { token: 'short', days: 331, los: 0, market: 'JP' } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).detail.map((d: any) => d.loc[1]).sort()).toEqual(['days', 'los', 'market', 'token']);
  });

  it('the compatible route wraps the same collection in search_metadata', async () => {
    const res = await svc.call('/v1/serp/metasearch_hotels_calendar', { key, body: { property_token: TOKEN, start: START, days: 2, probe_min_stay: false } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.search_metadata).toMatchObject({ status: 'Success', id: res.headers.get('x-request-id') });
    expect(body.search_parameters).toMatchObject({ engine: 'metasearch_hotels_calendar', property_token: TOKEN, days: '2' });
    expect(body.calendar.rates).toHaveLength(2);
  });

  it('GET /api/v1/search picks the engine, takes api_key in the query and answers errors with 400, detail and error', async () => {
    const ok = await fetch(`${svc.url}/api/v1/search?engine=metasearch_hotels_calendar&property_token=${TOKEN}&start=${START}&days=2&api_key=${key}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-credits-charged')).toBe('5');
    expect((await answerOf(ok, serpCalendar)).calendar.rates).toHaveLength(2);
    const unknownEngine = await fetch(`${svc.url}/api/v1/search?engine=nope&api_key=${key}`);
    expect(unknownEngine.status).toBe(400);
    const body = (await unknownEngine.json()) as any;
    expect(body.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'engine'] });
    expect(typeof body.error).toBe('string');
    const unknownParam = await fetch(`${svc.url}/api/v1/search?engine=metasearch_hotels_calendar&property_token=${TOKEN}&bogus=1&api_key=${key}`);
    expect(unknownParam.status).toBe(400);
    expect(((await unknownParam.json()) as any).detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['query', 'bogus'] });
  });

  it('MCP get_hotel_calendar answers a summary, and one line per night on request', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const res = await client.callTool({ name: 'get_hotel_calendar', arguments: { token: TOKEN, start: START, days: 3, market: 'GB' } });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as any;
    expect(sc).toMatchObject({
      priced: 3,
      min: 100,
      median: 101,
      max: 102,
      cheapest: [{ date: START, rate_total: 100 }, { rate_total: 101 }, { rate_total: 102 }],
      unavailable: [],
    });
    expect(sc.nights).toBeUndefined();
    const list = await client.callTool({ name: 'get_hotel_calendar', arguments: { token: TOKEN, start: START, days: 3, market: 'GB', nights: 'list' } });
    expect((list.structuredContent as any).nights.map((r: any) => r.rate_total)).toEqual([100, 101, 102]);
    expect((res._meta as any).credits_charged).toBe(5);
    await client.close();
  });

  it('the template rate block is a real one from the recorded page', () => {
    expect((realRateBlock() as any[])[15]).toBe('EUR');
  });
});
