import type { SourceUses } from '../context.js';
import { guards } from './guards.js';
import { checkStatus } from '../shared/observation.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { parseTrendsExplore, parseTrendsTimeline, timeseriesWidget, type TrendsSeries } from './parse-trends.js';
import { trendsExploreRequest, trendsTimelineRequest, type TrendsQuery, type TrendsRequest } from './requests.js';

/** The explore page a browser opens first; it sets the NID session cookie the API expects. */
const WARMUP_PATH = '/trends/explore';

export interface TrendsAnswer {
  series: TrendsSeries[];
  wire_bytes: number;
}

/** Explore (widget token) → the interest-over-time widget's data; anti-JSON prefixes stripped. */
export async function fetchTrendsInterest(deps: SourceUses<'upstream'>, q: TrendsQuery): Promise<TrendsAnswer> {
  const upstream = deps.upstream;
  let wire = 0;
  const send = async (req: TrendsRequest | { method: 'GET'; path: string }, expect: 'json' | 'any', statuses?: number[]): Promise<UpstreamResponse> => {
    const res = await upstream.fetch({ source: 'trends', method: req.method, path: req.path, market: q.geo || undefined, expect, statuses });
    wire += res.wireBytes;
    return res;
  };
  // Every call warms up: the cookie lives in this call's upstream session only, never another caller's.
  // Its status does not matter (the recorded warm-up answers 404); only its cookie does: its client
  // errors are read (ignored) here, a block or a server error is the call's failure.
  await send({ method: 'GET', path: `${WARMUP_PATH}?geo=${encodeURIComponent(q.geo ?? 'US')}` }, 'any', [400, 404, 410]);
  const explore = await send(trendsExploreRequest(q), 'json');
  checkStatus(explore);
  const widget = await withContractGuard('trends', explore, (r) => timeseriesWidget(parseTrendsExplore(r.text())));
  const data = await send(trendsTimelineRequest(widget, { hl: q.hl, tz: q.tz }), 'json');
  checkStatus(data);
  const series = await withContractGuard('trends', data, (r) => parseTrendsTimeline(r.text(), widget), { rule: guards.drift.timeline });
  return { series, wire_bytes: wire };
}
