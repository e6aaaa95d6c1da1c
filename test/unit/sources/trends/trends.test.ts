import { describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../../helpers/fixtures.js';
import { UpstreamFailed } from '../../../../src/domain/errors.js';
import { parseTrendsExplore, parseTrendsJson, parseTrendsTimeline, timeseriesWidget } from '../../../../src/sources/trends/parse-trends.js';
import { trendsExploreRequest, trendsTimelineRequest } from '../../../../src/sources/trends/requests.js';
import { cassette } from '../../../helpers/recorded.js';

const DAILY = 'google_trends/cassette-interest-over-time-pizza-bagel-daily.vcr.yaml';
const WEEKLY = 'google_trends/cassette-interest-over-time-5y-weekly-partial.vcr.yaml';
const MULTI = 'google_trends/cassette-multirange-interest-over-time.vcr.yaml';
const REGION = 'google_trends/cassette-interest-by-region.vcr.yaml';

const daily = fixtureSuite('trends daily interest', DAILY);
describe(daily.title, () => {
  it('takes the TIMESERIES token from explore and reads the daily series', () => {
    const [warmup, explore, data] = cassette(DAILY);
    expect(warmup.status).toBe(404);
    expect(() => parseTrendsJson(warmup.body)).toThrow(UpstreamFailed);
    const widget = timeseriesWidget(parseTrendsExplore(explore.body));
    expect(widget).toMatchObject({ token: 'APP6_UEAAAAAZCFPLHz6xkRipufcZZNE92hnrJrQM4XT', type: 'fe_line_chart', keywords: ['pizza', 'bagel'] });
    expect(widget.request.resolution).toBe('DAY');
    const series = parseTrendsTimeline(data.body, widget);
    expect(series).toEqual([
      {
        keyword: 'pizza',
        points: [
          { date: '2021-01-01', value: 100 },
          { date: '2021-01-02', value: 83 },
          { date: '2021-01-03', value: 78 },
          { date: '2021-01-04', value: 49 },
          { date: '2021-01-05', value: 50 },
        ],
      },
      {
        keyword: 'bagel',
        points: [
          { date: '2021-01-01', value: 2 },
          { date: '2021-01-02', value: 2 },
          { date: '2021-01-03', value: 2 },
          { date: '2021-01-04', value: 1 },
          { date: '2021-01-05', value: 1 },
        ],
      },
    ]);
    const req = trendsTimelineRequest(widget);
    expect(req.path.startsWith('/trends/api/widgetdata/multiline?hl=en-US&tz=0&req=')).toBe(true);
    expect(new URLSearchParams(req.path.split('?')[1]).get('token')).toBe('APP6_UEAAAAAZCFPLHz6xkRipufcZZNE92hnrJrQM4XT');
  });
});

const weekly = fixtureSuite('trends weekly interest with a partial last week', WEEKLY);
describe(weekly.title, () => {
  it('reads 260 weeks and flags the partial one', () => {
    const [, explore, data] = cassette(WEEKLY);
    const widget = timeseriesWidget(parseTrendsExplore(explore.body));
    const [pizza, bagel] = parseTrendsTimeline(data.body, widget);
    expect(pizza.points).toHaveLength(260);
    expect(pizza.points[0]).toEqual({ date: '2018-04-01', value: 81 });
    expect(pizza.points.at(-1)).toEqual({ date: '2023-03-19', value: 58, partial: true });
    expect(bagel.points.at(-1)).toEqual({ date: '2023-03-19', value: 2, partial: true });
    expect(pizza.points.filter((p) => p.partial)).toHaveLength(1);
  });
});

const multi = fixtureSuite('trends multi-range interest', MULTI);
describe(multi.title, () => {
  it('reads one series per range from columnData', () => {
    const [, explore, data] = cassette(MULTI);
    const widget = timeseriesWidget(parseTrendsExplore(explore.body));
    expect(widget.type).toBe('fe_multi_range_chart');
    expect(trendsTimelineRequest(widget).path.startsWith('/trends/api/widgetdata/multirange?')).toBe(true);
    const [pizza, bagel] = parseTrendsTimeline(data.body, widget);
    expect(pizza.points.map((p) => [p.date, p.value])).toEqual([
      ['2021-01-01', 100],
      ['2021-01-02', 83],
      ['2021-01-03', 78],
      ['2021-01-04', 49],
      ['2021-01-05', 50],
    ]);
    expect(bagel.points.map((p) => [p.date, p.value])).toEqual([
      ['2021-01-06', 1],
      ['2021-01-07', 1],
      ['2021-01-08', 1],
      ['2021-01-09', 2],
      ['2021-01-10', 2],
    ]);
  });
});

const region = fixtureSuite('trends interest by region', REGION);
describe(region.title, () => {
  it('lists the widgets of a region comparison', () => {
    const [, explore] = cassette(REGION);
    expect(parseTrendsExplore(explore.body).map((w) => w.id)).toEqual([
      'TIMESERIES',
      'GEO_MAP',
      'GEO_MAP_0',
      'RELATED_QUERIES_0',
      'GEO_MAP_1',
      'RELATED_QUERIES_1',
    ]);
  });
});

describe('trends requests', () => {
  it('builds the explore request with the contract defaults', () => {
    const path = trendsExploreRequest({ keyword: 'pizza' }).path;
    const req = JSON.parse(new URLSearchParams(path.split('?')[1]).get('req')!);
    expect(req).toEqual({ comparisonItem: [{ keyword: 'pizza', time: 'today 1-m', geo: 'US' }], category: 0, property: '' });
  });
});
