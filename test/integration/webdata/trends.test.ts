import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTrendsInterest } from '../../../tools/trends.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../replay/server.js';
import { cassette } from '../../helpers/recorded.js';

const DAILY = 'google_trends/cassette-interest-over-time-pizza-bagel-daily.vcr.yaml';
const WEEKLY = 'google_trends/cassette-interest-over-time-5y-weekly-partial.vcr.yaml';
const json = { 'content-type': 'application/json; charset=utf-8' };

/** The keyword of the explore request (its `req` parameter). */
const keywordIs = (k: string) => (r: RecordedRequest) => JSON.parse(r.query.req ?? '{}').comparisonItem?.[0]?.keyword === k;

const suite = fixtureSuite('trends interest route', DAILY, WEEKLY);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    const [warmup, explore, data] = cassette(DAILY);
    const [, weeklyExplore, weeklyData] = cassette(WEEKLY);
    const emptyData = ")]}',\n" + JSON.stringify({ default: { timelineData: [], averages: [] } });
    // The recorded explore answer with another token, to reach an empty data answer.
    const recorded = JSON.parse(explore.body.replace(/^\)\]\}'\s*/, ''));
    recorded.widgets.find((w: any) => w.id === 'TIMESERIES').token = 'none';
    const emptyExplore = ")]}'\n" + JSON.stringify(recorded);
    replay = await startReplayServer([
      { path: '/trends/explore', status: warmup.status, body: warmup.body, headers: { 'set-cookie': 'NID=511=recorded-session; Path=/; HttpOnly' } },
      {
        method: 'POST',
        path: '/trends/api/explore',
        match: keywordIs('blocked'),
        status: 429,
        body: '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>',
      },
      { method: 'POST', path: '/trends/api/explore', match: keywordIs('weekly'), body: weeklyExplore.body, headers: json },
      { method: 'POST', path: '/trends/api/explore', match: keywordIs('nothing'), body: emptyExplore, headers: json },
      { method: 'POST', path: '/trends/api/explore', body: explore.body, headers: json },
      { path: '/trends/api/widgetdata/multiline', match: (r) => r.query.token === 'none', body: emptyData, headers: json },
      { path: '/trends/api/widgetdata/multiline', match: (r) => JSON.parse(r.query.req).resolution === 'WEEK', body: weeklyData.body, headers: json },
      { path: '/trends/api/widgetdata/multiline', body: data.body, headers: json },
    ]);
    svc = await startTestService({ UPSTREAM_TRENDS_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('warms up in every call, takes the widget token from explore, strips the anti-JSON prefix, charged 1 credit', async () => {
    const res = await svc.call('/v1/trends/interest', { key, body: { keyword: 'pizza', time_range: '2021-01-01 2021-01-05' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('1');
    const body = (await res.json()) as any;
    expect(() => getTrendsInterest.output.parse(body)).not.toThrow();
    expect(body.search_parameters).toEqual({ engine: 'trends_interest', keyword: 'pizza', geo: 'US', time_range: '2021-01-01 2021-01-05' });
    // The recorded explore compared two keywords; each widget keyword is one series.
    expect(body.series[0].points).toEqual([
      { date: '2021-01-01', value: 100 },
      { date: '2021-01-02', value: 83 },
      { date: '2021-01-03', value: 78 },
      { date: '2021-01-04', value: 49 },
      { date: '2021-01-05', value: 50 },
    ]);
    expect(body.total).toBe(10);
    const explore = replay.requests.find((r) => r.path === '/trends/api/explore')!;
    expect(explore.method).toBe('POST');
    expect(explore.headers.cookie).toContain('NID=511=recorded-session');
    expect(JSON.parse(explore.query.req)).toEqual({
      comparisonItem: [{ keyword: 'pizza', time: '2021-01-01 2021-01-05', geo: 'US' }],
      category: 0,
      property: '',
    });
    const data = replay.requests.find((r) => r.path === '/trends/api/widgetdata/multiline')!;
    expect(data.query.token).toBe('APP6_UEAAAAAZCFPLHz6xkRipufcZZNE92hnrJrQM4XT');

    // the session cookie belongs to that call: the next call warms up again and sends only its own
    const before = replay.requests.length;
    await svc.call('/v1/trends/interest', { key, body: { keyword: 'pizza' } });
    const second = replay.requests.slice(before);
    expect(second.map((r) => r.path)).toEqual(['/trends/explore', '/trends/api/explore', '/trends/api/widgetdata/multiline']);
    expect(second[0].headers.cookie).toBeUndefined();
    expect(second[1].headers.cookie).toBe('NID=511=recorded-session');
  });

  it('flags the partial last week', async () => {
    const body = (await (await svc.call('/v1/trends/interest', { key, body: { keyword: 'weekly', time_range: 'today 5-y' } })).json()) as any;
    expect(body.series[0].points).toHaveLength(260);
    expect(body.series[0].points.at(-1)).toEqual({ date: '2023-03-19', value: 58, partial: true });
  });

  it('an empty series is free', async () => {
    const res = await svc.call('/v1/trends/interest', { key, body: { keyword: 'nothing' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(((await res.json()) as any).total).toBe(0);
  });

  it('a rate-limit page is a free 502; bad windows are 422 and 400', async () => {
    const blocked = await svc.call('/v1/trends/interest', { key, body: { keyword: 'blocked' } });
    expect(blocked.status).toBe(502);
    expect(blocked.headers.get('x-credits-charged')).toBe('0');
    expect((await svc.call('/v1/trends/interest', { key, body: { keyword: 'pizza', time_range: 'yesterday' } })).status).toBe(422);
    expect((await svc.call('/v1/trends/interest', { key, body: { keyword: 'pizza', geo: 'us' } })).status).toBe(422);
    expect((await svc.call('/v1/trends/interest', { key, body: { keyword: 'pizza', time_range: '2021-02-01 2021-01-01' } })).status).toBe(400);
  });
});
