import { UpstreamBlocked, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { arr, arrOrNull, at, isObject, str, text, type JsonObject } from '../../domain/json.js';

export interface TrendsWidget {
  id: string;
  type: string | null;
  token: string;
  /** The widget's own request object, sent back verbatim as `req`. */
  request: JsonObject;
  keywords: string[];
}

interface TrendsPoint {
  /** YYYY-MM-DD for daily and coarser data, an ISO timestamp for hourly and finer. */
  date: string;
  value: number;
  /** Present (true) on the last, still incomplete period. */
  partial?: true;
}

export interface TrendsSeries {
  keyword: string | null;
  points: TrendsPoint[];
}

/** Anti-JSON prefixes: `)]}'` then a newline (explore) or a comma and a newline (widget data). */
const XSSI = /^\)\]\}'[,]?\s*/;
const DATE_RESOLUTIONS = new Set(['DAY', 'WEEK', 'MONTH', 'YEAR']);

/** Parses a trends API body after stripping its anti-JSON prefix; an HTML answer is a block page. */
export function parseTrendsJson(body: string): object {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('<')) {
    if (/sorry|unusual traffic|captcha/i.test(trimmed)) throw new UpstreamBlocked('RateLimitPage', 'body:unusual traffic');
    throw new UpstreamFailed('HtmlInsteadOfJson', 'unusable');
  }
  try {
    const v: unknown = JSON.parse(trimmed.replace(XSSI, ''));
    if (v && typeof v === 'object') return v;
  } catch {
    // reported below
  }
  throw new UpstreamContractChanged('trends', 'JSON body after the anti-JSON prefix');
}

function widgetKeywords(request: JsonObject): string[] {
  return arr(request, 'comparisonItem').flatMap((c) => arr(c, 'complexKeywordsRestriction', 'keyword').map((k) => text(k, 'value')));
}

interface WidgetEntry {
  id: string;
  type: unknown;
  token: string;
  request: JsonObject;
}

/** A widget entry carrying what a data request needs: string id and token, and a request object. */
function isWidgetEntry(w: unknown): w is WidgetEntry {
  return isObject(w) && typeof w.token === 'string' && typeof w.id === 'string' && isObject(w.request);
}

/** `POST /trends/api/explore`: the widgets and the tokens their data requests need. */
export function parseTrendsExplore(body: string): TrendsWidget[] {
  const root = parseTrendsJson(body);
  const widgets = arrOrNull(root, 'widgets');
  if (!widgets) throw new UpstreamContractChanged('trends', 'explore widgets');
  return widgets
    .filter(isWidgetEntry)
    .map((w) => ({ id: w.id, type: typeof w.type === 'string' ? w.type : null, token: w.token, request: w.request, keywords: widgetKeywords(w.request) }));
}

/** The interest-over-time widget (id TIMESERIES); a multi-range explore answers it as fe_multi_range_chart. */
export function timeseriesWidget(widgets: TrendsWidget[]): TrendsWidget {
  const w = widgets.find((x) => x.id === 'TIMESERIES');
  if (!w) throw new UpstreamContractChanged('trends', 'TIMESERIES widget');
  return w;
}

function pointDate(epochSeconds: unknown, resolution: string | null): string | null {
  const n = typeof epochSeconds === 'string' ? Number(epochSeconds) : typeof epochSeconds === 'number' ? epochSeconds : NaN;
  if (!Number.isFinite(n)) return null;
  const iso = new Date(n * 1000).toISOString().replace('.000Z', 'Z');
  return resolution && !DATE_RESOLUTIONS.has(resolution) ? iso : iso.slice(0, 10);
}

function point(date: string | null, value: unknown, partial: unknown): TrendsPoint | null {
  if (!date || typeof value !== 'number') return null;
  return partial === true ? { date, value, partial: true } : { date, value };
}

/**
 * `widgetdata/multiline` (timelineData rows with one value per keyword) or `widgetdata/multirange`
 * (rows of columnData, one column per keyword and range) → one series per keyword.
 */
export function parseTrendsTimeline(body: string, widget: Pick<TrendsWidget, 'request' | 'keywords'>): TrendsSeries[] {
  const root = parseTrendsJson(body);
  const rows = arrOrNull(root, 'default', 'timelineData');
  if (!rows) throw new UpstreamContractChanged('trends', 'default.timelineData');
  const resolution = str(widget.request, 'resolution');
  const width = Math.max(widget.keywords.length, ...rows.map((r) => (arrOrNull(r, 'columnData') ?? arrOrNull(r, 'value') ?? []).length));
  const series: TrendsSeries[] = Array.from({ length: width }, (_, i) => ({ keyword: widget.keywords[i] ?? null, points: [] }));
  for (const row of rows) {
    const columns = arrOrNull(row, 'columnData');
    const values = arrOrNull(row, 'value');
    if (columns) {
      columns.forEach((c, i) => {
        const p = point(pointDate(at(c, 'time'), resolution), at(c, 'value'), at(c, 'isPartial'));
        if (p) series[i]!.points.push(p);
      });
    } else if (values) {
      const date = pointDate(at(row, 'time'), resolution);
      values.forEach((v, i) => {
        const p = point(date, v, at(row, 'isPartial'));
        if (p) series[i]!.points.push(p);
      });
    }
  }
  return series;
}
