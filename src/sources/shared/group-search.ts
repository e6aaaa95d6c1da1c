/** Property search (name to numeric id) through the group's suggestion service, for its three brands. */
import type { SourceUses } from '../context.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { egressMarket } from './group-gateway.js';
import { pointOfSale } from './group-graphql.js';
import { checkStatus } from './observation.js';
import { parseTypeahead, typeaheadPath, type TypeaheadHit } from './typeahead.js';

export async function searchGroupTypeahead(
  deps: SourceUses<'upstream', 'GROUP_POS_CONTEXTS'>,
  alias: 'otatwo' | 'otathree' | 'rentalone',
  market: string,
  query: string,
  limit: number,
): Promise<{ results: TypeaheadHit[]; market: string }> {
  const pos = pointOfSale(alias, market, deps.config.GROUP_POS_CONTEXTS);
  const req = typeaheadPath(query, pos, limit);
  const response = await deps.upstream.fetch({
    source: alias,
    path: req.path,
    query: req.query,
    market: egressMarket(market),
    expect: 'json',
    baseUrl: pos.baseUrl,
  });
  checkStatus(response);
  const results = await withContractGuard(alias, response, (r) => parseTypeahead(alias, r.json()));
  return { results: results.slice(0, limit), market };
}
