/** One call of the travel group's GraphQL gateway, made the same way by `otatwo`, `otathree` and `rentalone`. */
import type { AppDeps } from '../../deps.js';
import { need } from '../../deps.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { GRAPHQL_HEADERS, GRAPHQL_PATH, PARENT_BRAND, graphqlData, type GroupAlias } from './group-graphql.js';
import { checkStatus, observe, type Observation } from './observation.js';

type Json = any;

export interface GroupGraphqlCall {
  body: object[];
  /** Market the upstream request goes out for (EU is served through IE). */
  market: string;
  /** Root field the first operation's `data` must carry, and the detail of the 404 when an error says not found. */
  root: string;
  notFound: string;
  /** The point of sale's own base URL, when the operator configured one. */
  baseUrl?: string;
}

/** `POST /graphql`: status checked, the reply observed, its first operation parsed under the contract guard. */
export async function callGroupGraphql<T>(
  deps: AppDeps,
  alias: GroupAlias,
  call: GroupGraphqlCall,
  parse: (entry: Json) => T,
): Promise<{ parsed: T; obs: Observation }> {
  const response = await need(deps, 'upstream').fetch({
    source: alias,
    method: 'POST',
    path: GRAPHQL_PATH,
    headers: PARENT_BRAND[alias] ? { ...GRAPHQL_HEADERS, 'x-parent-brand-id': PARENT_BRAND[alias] } : GRAPHQL_HEADERS,
    body: call.body,
    market: call.market,
    expect: 'json',
    baseUrl: call.baseUrl,
  });
  checkStatus(alias, response, { endpoint: GRAPHQL_PATH });
  const obs = observe(alias, response);
  const parsed = await withContractGuard(alias, response, (r) => parse(graphqlData(alias, r, call.root, call.notFound)));
  return { parsed, obs };
}
