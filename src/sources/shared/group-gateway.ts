/** One call of the travel group's GraphQL gateway, made the same way by `otatwo`, `otathree` and `rentalone`. */
import { withContractGuard, type DriftCheck } from '../../upstream/diagnostics.js';
import type { DriftRule } from '../../config/drift-rules.js';
import {
  GRAPHQL_HEADERS,
  GRAPHQL_PATH,
  PARENT_BRAND,
  graphqlData,
  pointOfSale,
  propertyOffersBody,
  withHash,
  type GroupAlias,
  type Operation,
  type PointOfSale,
} from './group-graphql.js';
import { checkStatus, observe, type Observation } from './observation.js';
import type { StayWindow } from './stay.js';
import type { Json } from '../../domain/json.js';
import type { SourceUses } from '../context.js';
import { withCurrentHash } from './group-hash-repair.js';

/** What the group's brands use: the upstream client and the operator's points of sale and operation hashes. */
export type GroupContext = SourceUses<'upstream', 'GROUP_POS_CONTEXTS' | 'GROUP_QUERY_HASHES'>;

export interface GroupGraphqlCall {
  body: object[];
  /** Market the upstream request goes out for (EU is served through IE). */
  market: string;
  /** Root field the first operation's `data` must carry, and the detail of the 404 when an error says not found. */
  root: string;
  /** The source's drift rule for this reply kind. */
  drift?: DriftCheck;
  notFound: string;
  /** The point of sale's own base URL, when the operator configured one. */
  baseUrl?: string;
}

/** `POST /graphql`: status checked, the reply observed, its first operation parsed under the contract guard. */
export async function callGroupGraphql<T>(
  deps: SourceUses<'upstream'>,
  alias: GroupAlias,
  call: GroupGraphqlCall,
  parse: (entry: Json) => T,
): Promise<{ parsed: T; obs: Observation }> {
  const response = await deps.upstream.fetch({
    source: alias,
    method: 'POST',
    path: GRAPHQL_PATH,
    headers: PARENT_BRAND[alias] ? { ...GRAPHQL_HEADERS, 'x-parent-brand-id': PARENT_BRAND[alias] } : GRAPHQL_HEADERS,
    body: call.body,
    market: call.market,
    expect: 'json',
    baseUrl: call.baseUrl,
    notFound: call.notFound,
  });
  checkStatus(response);
  const obs = observe(alias, response);
  const parsed = await withContractGuard(alias, response, (r) => parse(graphqlData(alias, r, call.root, call.notFound)), call.drift);
  return { parsed, obs };
}

/** Market a request goes out for: the euro site is served through IE. */
export const egressMarket = (market: string): string => (market === 'EU' ? 'IE' : market);

/**
 * A persisted `propertyOffers` operation for one stay: the market's point of sale (built in or
 * configured), the operation's current hash, and the point of sale's own site when it has one.
 */
export async function callPropertyOffers<T>(
  deps: GroupContext,
  alias: GroupAlias,
  /** The brand's drift rule for its offers reply (its guards.ts). */
  offersDrift: DriftRule,
  op: Operation,
  stay: { market: string; propertyId: string; window: StayWindow; adults: number },
  parse: (entry: Json, pos: PointOfSale) => T,
): Promise<{ parsed: T; obs: Observation; pos: PointOfSale }> {
  const pos = pointOfSale(alias, stay.market, deps.config.GROUP_POS_CONTEXTS);
  const { parsed, obs } = await withCurrentHash(deps.upstream, alias, withHash(op, deps.config.GROUP_QUERY_HASHES), (current) =>
    callGroupGraphql(
      deps,
      alias,
      {
        body: propertyOffersBody(current, pos, stay.propertyId, stay.window, stay.adults),
        market: egressMarket(stay.market),
        root: 'propertyOffers',
        drift: { rule: offersDrift },
        baseUrl: pos.baseUrl,
        notFound: `${alias} property ${stay.propertyId} not found`,
      },
      (entry) => parse(entry, pos),
    ),
  );
  return { parsed, obs, pos };
}
