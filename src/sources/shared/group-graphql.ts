/**
 * The travel group's GraphQL gateway (`POST /graphql`), shared by `otatwo`, `otathree` and
 * `rentalone`. Request facts come from public clients of the sites (see the source READMEs):
 * the `context` of each point of sale, the persisted-query hashes of the operations, and the
 * headers the sites' own web client sends. A point of sale whose context is not known publicly is
 * absent here; callers answer 503 for it rather than guess.
 */
import { randomUUID } from 'node:crypto';
import { NotFound, UpstreamContractChanged } from '../../platform/errors.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { dateParts, type StayWindow } from './stay.js';

export type GroupAlias = 'otatwo' | 'otathree' | 'rentalone';

export interface PointOfSale {
  siteId: number;
  tpid?: number;
  eapid: number;
  locale: string;
  currency: string;
}

/** Currency of every point of sale the spec names, known context or not. */
export const OTATWO_MARKET_CURRENCY = {
  AU: 'AUD', CA: 'CAD', DE: 'EUR', EU: 'EUR', FR: 'EUR', GB: 'GBP', IE: 'EUR', IT: 'EUR', NL: 'EUR', NZ: 'NZD', US: 'USD',
} as const;
export type OtatwoMarket = keyof typeof OTATWO_MARKET_CURRENCY;
export const OTATWO_MARKETS = Object.keys(OTATWO_MARKET_CURRENCY) as [OtatwoMarket, ...OtatwoMarket[]];

/** Contexts seen in public clients (US and GB web sites, the euro site); the rest are unknown. */
const OTATWO_POS: Partial<Record<OtatwoMarket, PointOfSale>> = {
  US: { siteId: 1, tpid: 1, eapid: 0, locale: 'en_US', currency: 'USD' },
  GB: { siteId: 3, tpid: 3, eapid: 0, locale: 'en_GB', currency: 'GBP' },
  EU: { siteId: 4400, tpid: 63, eapid: 400, locale: 'en_IE', currency: 'EUR' },
};

export const OTATHREE_MARKET_CURRENCY = { US: 'USD', CA: 'CAD' } as const;
export type OtathreeMarket = keyof typeof OTATHREE_MARKET_CURRENCY;
const OTATHREE_POS: Partial<Record<OtathreeMarket, PointOfSale>> = {
  US: { siteId: 300000001, tpid: 3001, eapid: 1, locale: 'en_US', currency: 'USD' },
};

const RENTALONE_POS: PointOfSale = { siteId: 9001001, tpid: 9001, eapid: 1, locale: 'en_US', currency: 'USD' };

export function pointOfSale(alias: GroupAlias, market: string): PointOfSale {
  const pos =
    alias === 'otatwo'
      ? OTATWO_POS[market as OtatwoMarket]
      : alias === 'otathree'
        ? OTATHREE_POS[market as OtathreeMarket]
        : market === 'US'
          ? RENTALONE_POS
          : undefined;
  if (!pos) throw new UpstreamContractChanged(alias, `point-of-sale context (siteId/tpid/eapid) for market ${market} is not known`);
  return pos;
}

export interface Operation {
  name: string;
  sha256: string;
}

/** Persisted operations as public clients send them; the hashes rotate with site releases. */
export const OPERATIONS = {
  roomsAndRates: { name: 'RoomsAndRatesPropertyOffersQuery', sha256: '0c29b592f89c56e3ca69b787f406b01163a6fcb19c014cd71d7559fd72139704' },
  ancillaryOffers: { name: 'AncillaryPropertyOffersQuery', sha256: '342098639bb044c70b290892d183a8987ee1c33fbee0bf7140384af70bbe2b70' },
} as const satisfies Record<string, Operation>;

export const GRAPHQL_PATH = '/graphql';

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

type Json = any;

/**
 * The first operation's reply of a (possibly batched) GraphQL answer. GraphQL errors without the
 * expected data are a contract change (a stale persisted-query hash reads `PersistedQueryNotFound`),
 * except a not-found error, which is the caller's unknown id.
 */
export function graphqlData(alias: GroupAlias, response: UpstreamResponse, root: string, notFound: string): Json {
  const reply = response.json<Json>();
  const entry = Array.isArray(reply) ? reply[0] : reply;
  const data = entry?.data;
  if (data && data[root] != null) return entry;
  const messages: string[] = (Array.isArray(entry?.errors) ? entry.errors : []).map((e: Json) => String(e?.message ?? e?.extensions?.code ?? ''));
  const joined = messages.join('; ');
  if (/persistedquerynotfound|persisted query not found/i.test(joined)) {
    throw new UpstreamContractChanged(alias, `persisted query not found (hash rotated): ${joined}`);
  }
  if (/not[ _]?found/i.test(joined)) throw new NotFound(notFound);
  throw new UpstreamContractChanged(alias, messages.length ? `GraphQL errors: ${joined.slice(0, 200)}` : `data.${root}`);
}
