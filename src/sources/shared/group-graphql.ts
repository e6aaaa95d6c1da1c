/**
 * The travel group's GraphQL gateway (`POST /graphql`), shared by `otatwo`, `otathree` and
 * `rentalone`. Request facts come from public clients of the sites (see the source READMEs):
 * the `context` of each point of sale, the persisted-query hashes of the operations, and the
 * headers the sites' own web client sends. A point of sale whose context is not known publicly is
 * absent here; callers answer 503 for it rather than guess, unless an operator supplies it
 * (`GROUP_POS_CONTEXTS`). Rotated persisted-query hashes can be replaced the same way (`GROUP_QUERY_HASHES`).
 */
import { randomUUID } from 'node:crypto';
import { NotFound, UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, text, textOrNull, type Json } from '../../domain/json.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { dateParts, type StayWindow } from './stay.js';
import {
  GROUP_MARKET_CURRENCY,
  type GroupAlias,
  type Operation,
  type OtathreeMarket,
  type OtatwoMarket,
  type PointOfSale,
  type PosContexts,
} from '../../config/group-settings.js';

// the facts the settings are checked against (markets, currencies, operations) live with them; the gateway's users import them from here
export {
  GROUP_MARKET_CURRENCY,
  OPERATIONS,
  OTATHREE_MARKET_CURRENCY,
  OTATWO_MARKET_CURRENCY,
  OTATWO_MARKETS,
  type GroupAlias,
  type Operation,
  type OtathreeMarket,
  type OtatwoMarket,
  type PointOfSale,
  type PosContexts,
} from '../../config/group-settings.js';

/** Contexts seen in public clients (US and GB web sites, the euro site); the rest are unknown. */
const OTATWO_POS: Partial<Record<OtatwoMarket, PointOfSale>> = {
  US: { siteId: 1, tpid: 1, eapid: 0, locale: 'en_US', currency: 'USD' },
  GB: { siteId: 3, tpid: 3, eapid: 0, locale: 'en_GB', currency: 'GBP' },
  EU: { siteId: 4400, tpid: 63, eapid: 400, locale: 'en_IE', currency: 'EUR' },
};

const OTATHREE_POS: Partial<Record<OtathreeMarket, PointOfSale>> = {
  US: { siteId: 300000001, tpid: 3001, eapid: 1, locale: 'en_US', currency: 'USD' },
};

const RENTALONE_POS: PointOfSale = { siteId: 9001001, tpid: 9001, eapid: 1, locale: 'en_US', currency: 'USD' };

const BUILT_IN_POS: Record<GroupAlias, Partial<Record<string, PointOfSale>>> = { otatwo: OTATWO_POS, otathree: OTATHREE_POS, rentalone: { US: RENTALONE_POS } };

export function pointOfSale(alias: GroupAlias, market: string, configured: PosContexts = {}): PointOfSale {
  const pos = configured[alias]?.[market] ?? BUILT_IN_POS[alias][market];
  if (!pos)
    throw new UpstreamContractChanged(
      alias,
      `point-of-sale context (siteId/tpid/eapid) for market ${market} is not known; an operator can supply it in GROUP_POS_CONTEXTS`,
    );
  return pos;
}

/** Markets with a context, built in or configured, in the order the spec lists them. */
export function servedMarkets(alias: GroupAlias, configured: PosContexts = {}): string[] {
  return Object.keys(GROUP_MARKET_CURRENCY[alias]).filter((m) => configured[alias]?.[m] ?? BUILT_IN_POS[alias][m]);
}

/** The operation with the operator's hash when one is configured. */
export function withHash(op: Operation, hashes: Record<string, string> = {}): Operation {
  return { name: op.name, sha256: hashes[op.name] ?? op.sha256 };
}

export const GRAPHQL_PATH = '/graphql';

/** `x-parent-brand-id` as a brand's own web client sends it (seen for the rental brand only). */
export const PARENT_BRAND: Partial<Record<GroupAlias, string>> = { rentalone: 'vrbo' };

/** Headers of the sites' own web client on the gateway. */
export const GRAPHQL_HEADERS: Record<string, string> = {
  'client-info': 'shopping-pwa,unknown,unknown',
  'x-page-id': 'page.Hotels.Infosite.Information,H,30',
  'x-product-line': 'lodging',
  'x-shopping-product-line': 'lodging',
};

export function graphqlContext(pos: PointOfSale): Record<string, unknown> {
  return {
    siteId: pos.siteId,
    locale: pos.locale,
    eapid: pos.eapid,
    ...(pos.tpid !== undefined ? { tpid: pos.tpid } : {}),
    currency: pos.currency,
    device: { type: 'DESKTOP' },
    identity: { duaid: randomUUID(), authState: 'ANONYMOUS' },
    privacyTrackingState: 'CAN_NOT_TRACK',
    debugContext: { abacusOverrides: [] },
  };
}

/** Body of a persisted `propertyOffers` operation for one stay (array form, as the site batches). */
export function propertyOffersBody(op: Operation, pos: PointOfSale, propertyId: string, stay: StayWindow, adults: number): object[] {
  return [
    {
      operationName: op.name,
      variables: {
        propertyId,
        searchCriteria: {
          primary: {
            dateRange: { checkInDate: dateParts(stay.checkIn), checkOutDate: dateParts(stay.checkOut) },
            destination: { regionName: null, regionId: null, coordinates: null, pinnedPropertyId: null, propertyIds: null, mapBounds: null },
            rooms: [{ adults, children: [] }],
          },
          secondary: {
            counts: [],
            booleans: [],
            selections: [
              { id: 'privacyTrackingState', value: 'CAN_NOT_TRACK' },
              { id: 'sort', value: 'RECOMMENDED' },
              { id: 'useRewards', value: 'SHOP_WITHOUT_POINTS' },
            ],
            ranges: [],
          },
        },
        shoppingContext: { multiItem: null },
        travelAdTrackingInfo: null,
        context: graphqlContext(pos),
      },
      extensions: { persistedQuery: { version: 1, sha256Hash: op.sha256 } },
    },
  ];
}

/** The gateway no longer knows the persisted query's hash: a site release rotated it (group-hash-repair.ts looks for the new one). */
export class PersistedQueryRotated extends UpstreamContractChanged {
  constructor(alias: GroupAlias, errors: string) {
    super(alias, `persisted query not found (hash rotated): ${errors}`);
  }
}

/**
 * The first operation's reply of a (possibly batched) GraphQL answer. GraphQL errors without the
 * expected data are a contract change (a stale persisted-query hash reads `PersistedQueryNotFound`),
 * except a not-found error, which is the caller's unknown id.
 */
export function graphqlData(alias: GroupAlias, response: UpstreamResponse, root: string, notFound: string): Json {
  const reply = response.json();
  const entry: unknown = Array.isArray(reply) ? reply[0] : reply;
  if (at(entry, 'data', root) != null) return entry;
  const messages = arr(entry, 'errors').map((e) => textOrNull(e, 'message') ?? text(e, 'extensions', 'code'));
  const joined = messages.join('; ');
  if (/persistedquerynotfound|persisted query not found/i.test(joined)) throw new PersistedQueryRotated(alias, joined);
  if (/not[ _]?found/i.test(joined)) throw new NotFound(notFound);
  throw new UpstreamContractChanged(alias, messages.length ? `GraphQL errors: ${joined.slice(0, 200)}` : `data.${root}`);
}
