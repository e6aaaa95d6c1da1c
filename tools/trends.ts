import { z } from 'zod';
import { countryUpper } from '../src/domain/codes.js';
import { BadRequest } from '../src/domain/errors.js';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchTrendsInterest } from '../src/sources/trends/fetch.js';
import { elapsedSince, WebMeta } from './webdata-schemas.js';

/** `now 1-H`, `now 7-d`, `today 1-m`, `today 12-m`, `today 5-y`, `all`, or `YYYY-MM-DD YYYY-MM-DD`. */
const TIME_RANGE = /^(?:now \d{1,2}-[Hd]|today \d{1,2}-[my]|all|\d{4}-\d{2}-\d{2} \d{4}-\d{2}-\d{2})$/;

export const getTrendsInterest = defineTool({
  name: 'get_trends_interest',
  title: 'Search interest over time',
  description:
    "Search-interest time series of one keyword in a country over a window: points of {date, value} with values 0-100 relative to the keyword's own peak in the window (the last, still incomplete period carries partial: true). time_range: `today 1-m` (default), `now 7-d`, `today 12-m`, `all`, or two dates `YYYY-MM-DD YYYY-MM-DD`. Costs 1 credit; an empty series and failures are free.",
  method: 'POST',
  path: '/v1/trends/interest',
  tags: ['trends'],
  input: z.strictObject({
    keyword: z.string().min(1).max(200).describe('The search term whose interest over time is returned.'),
    geo: countryUpper.default('US').describe('Two-letter country the interest is measured in.'),
    time_range: z
      .string()
      .regex(TIME_RANGE, 'Input should be like `today 1-m`, `now 7-d`, `today 12-m`, `all` or two dates')
      .default('today 1-m')
      .describe('Time span, as the site writes it: today 1-m, now 7-d, today 12-m, all, or two dates YYYY-MM-DD YYYY-MM-DD.'),
    hl: z
      .string()
      .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,4})?$/, 'Input should be a language code such as en-US')
      .default('en-US')
      .describe('Language of the labels, e.g. en-US.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('trends_interest'), keyword: z.string(), geo: z.string(), time_range: z.string() }),
    series: z.array(z.object({ points: z.array(z.object({ date: z.string(), value: z.number(), partial: z.literal(true).optional() })) })),
    total: z.int(),
    meta: WebMeta,
  }),
  credits: 1,
  cache: 'listings',
  isEmpty: (o) => o.total === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const dates = /^(\d{4}-\d{2}-\d{2}) (\d{4}-\d{2}-\d{2})$/.exec(input.time_range);
    if (dates && (Number.isNaN(Date.parse(dates[1])) || Number.isNaN(Date.parse(dates[2])) || dates[1] > dates[2])) {
      throw new BadRequest('time_range: the first date must be a valid date on or before the second');
    }
    const answer = await fetchTrendsInterest(deps, { keyword: input.keyword, geo: input.geo, time_range: input.time_range, hl: input.hl });
    const series = answer.series.map((s) => ({ points: s.points }));
    return {
      search_parameters: { engine: 'trends_interest' as const, keyword: input.keyword, geo: input.geo, time_range: input.time_range },
      series,
      total: series.reduce((n, s) => n + s.points.length, 0),
      meta: { source: 'trends', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const TRENDS_TOOLS = [getTrendsInterest];
