import type { SourceUses } from '../context.js';
import { guards } from './guards.js';
import { NotFound } from '../../domain/errors.js';
import { checkStatus } from '../shared/observation.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { parseNetworkJob, type NetworkJob } from './parse-job.js';
import { parseNetworkSearch, type NetworkJobCard } from './parse-search.js';
import { NETWORK_SEARCH_PAGE_SIZE, networkJobPageRequest, networkSearchRequest, type NetworkSearchParams } from './requests.js';

export interface Fetched<T> {
  value: T;
  wire_bytes: number;
}

/**
 * One posting from the logged-out `/jobs/view/<id>` page. An unknown or deleted id is a 404
 * upstream, or a redirect away from the posting page (the network sends expired links to search).
 */
export async function fetchNetworkJob(deps: SourceUses<'upstream'>, jobId: string): Promise<Fetched<NetworkJob>> {
  const req = networkJobPageRequest(jobId);
  const res = await deps.upstream.fetch({ source: 'network', path: req.path, expect: 'html', notFound: 'job not found' });
  checkStatus(res);
  const finalPath = safePath(res.url);
  if (finalPath !== null && !finalPath.includes('/jobs/view/') && !/authwall|checkpoint|login|signup/.test(finalPath)) {
    throw new NotFound('job not found');
  }
  const job = await withContractGuard('network', res, (r) => parseNetworkJob(r.text(), { job_id: jobId }));
  return { value: job, wire_bytes: res.wireBytes };
}

/** One page of ten guest search cards; an empty fragment (past the last result) is an empty page. */
export async function fetchNetworkSearch(deps: SourceUses<'upstream'>, params: NetworkSearchParams): Promise<Fetched<NetworkJobCard[]>> {
  const req = networkSearchRequest(params);
  // The guest endpoint answers 400 (or 404) for a start offset past its window: no more results.
  const res = await deps.upstream.fetch({ source: 'network', path: req.path, expect: 'any', statuses: [400, 404] });
  if (res.status === 400 || res.status === 404) return { value: [], wire_bytes: res.wireBytes };
  checkStatus(res);
  const cards = await withContractGuard('network', res, (r) => parseNetworkSearch(r.text(), { start: params.start ?? 0 }), {
    rule: guards.drift.job_search,
  });
  return { value: cards, wire_bytes: res.wireBytes };
}

export { NETWORK_SEARCH_PAGE_SIZE };

function safePath(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}
