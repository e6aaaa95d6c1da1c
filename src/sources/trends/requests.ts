import type { TrendsWidget } from './parse-trends.js';

/** A request relative to the trends base URL. */
export interface TrendsRequest {
  method: 'GET' | 'POST';
  path: string;
}

export interface TrendsQuery {
  keyword: string;
  /** Uppercase country code; '' is worldwide. */
  geo?: string;
  /** `today 1-m`, `now 7-d`, `today 12-m`, `all`, or `YYYY-MM-DD YYYY-MM-DD`. */
  time_range?: string;
  hl?: string;
  /** Minutes from UTC of the times in the answer; 0 keeps dates in UTC. */
  tz?: number;
}

function common(q: TrendsQuery): URLSearchParams {
  return new URLSearchParams({ hl: q.hl ?? 'en-US', tz: String(q.tz ?? 0) });
}

/** Explore: returns the widgets and their tokens. */
export function trendsExploreRequest(q: TrendsQuery): TrendsRequest {
  const params = common(q);
  params.set(
    'req',
    JSON.stringify({ comparisonItem: [{ keyword: q.keyword, time: q.time_range ?? 'today 1-m', geo: q.geo ?? 'US' }], category: 0, property: '' }),
  );
  return { method: 'POST', path: `/trends/api/explore?${params.toString()}` };
}

/** A widget's data: TIMESERIES (multiline, or multirange for a multi-range chart) or GEO_MAP (comparedgeo). */
export function trendsTimelineRequest(widget: TrendsWidget, q: Pick<TrendsQuery, 'hl' | 'tz'> = {}): TrendsRequest {
  const params = common({ keyword: '', ...q });
  params.set('req', JSON.stringify(widget.request));
  params.set('token', widget.token);
  const kind = widget.id === 'GEO_MAP' ? 'comparedgeo' : widget.type === 'fe_multi_range_chart' ? 'multirange' : 'multiline';
  return { method: 'GET', path: `/trends/api/widgetdata/${kind}?${params.toString()}` };
}
