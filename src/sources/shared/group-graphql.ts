/**
 * The travel group's GraphQL gateway (`POST /graphql`), shared by `otatwo`, `otathree` and
 * `rentalone`. Request facts come from public clients of the sites (see the source READMEs):
 * the `context` of each point of sale, the persisted-query hashes of the operations, and the
 * headers the sites' own web client sends. A point of sale whose context is not known publicly is
 * absent here; callers answer 503 for it rather than guess, unless an operator supplies it
 * (`GROUP_POS_CONTEXTS`). Rotated persisted-query hashes can be replaced the same way (`GROUP_QUERY_HASHES`).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { NotFound, UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, type Json } from '../../domain/json.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { dateParts, type StayWindow } from './stay.js';

export type GroupAlias = 'otatwo' | 'otathree' | 'rentalone';

export interface PointOfSale {
  siteId: number;
  tpid?: number;
  eapid: number;
  locale: string;
  currency: string;
  /** The point of sale's own site (e.g. its country domain), when configured; else the brand's host. */
  baseUrl?: string;
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

/** The markets each brand's routes accept, with the currency its site shows there. */
export const GROUP_MARKET_CURRENCY: Record<GroupAlias, Record<string, string>> = {
  otatwo: OTATWO_MARKET_CURRENCY,
  otathree: OTATHREE_MARKET_CURRENCY,
  rentalone: { US: 'USD' },
};

const BUILT_IN_POS: Record<GroupAlias, Partial<Record<string, PointOfSale>>> = { otatwo: OTATWO_POS, otathree: OTATHREE_POS, rentalone: { US: RENTALONE_POS } };

/** Contexts an operator supplies (`GROUP_POS_CONTEXTS`) for markets whose context is not public, or to replace one. */
export type PosContexts = Partial<Record<GroupAlias, Record<string, PointOfSale>>>;

const ConfiguredContext = z.strictObject({
  siteId: z.int().positive(),
  tpid: z.int().positive().optional(),
  eapid: z.int().min(0),
  locale: z.string().regex(/^[a-z]{2}_[A-Z]{2}$/, 'a locale such as en_CA'),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
});

/**
 * `GROUP_POS_CONTEXTS`: `{"otatwo": {"CA": {"siteId": …, "tpid": …, "eapid": …, "locale": "en_CA", "baseUrl": "https://…"}}}`;
 * the currency follows the market; `baseUrl` (optional) sends that market's calls to its own site.
 */
export function parsePosContexts(json: string): PosContexts {
  const raw: unknown = JSON.parse(json);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('not a JSON object of brand to markets');
  const out: PosContexts = {};
  for (const [alias, markets] of Object.entries(raw)) {
    const currencies = GROUP_MARKET_CURRENCY[alias as GroupAlias];
    if (!currencies) throw new Error(`unknown brand ${alias} (otatwo, otathree, rentalone)`);
    if (!markets || typeof markets !== 'object' || Array.isArray(markets)) throw new Error(`${alias}: not an object of market to context`);
    const entries: Record<string, PointOfSale> = {};
    for (const [market, given] of Object.entries(markets)) {
      const currency = currencies[market];
      if (!currency) throw new Error(`${alias}: unknown market ${market} (${Object.keys(currencies).join(', ')})`);
      const parsed = ConfiguredContext.safeParse(given);
      if (!parsed.success) throw new Error(`${alias}.${market}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'context'} ${i.message}`).join('; ')}`);
      const { baseUrl, ...context } = parsed.data;
      entries[market] = { ...context, currency, ...(baseUrl ? { baseUrl: baseUrl.replace(/\/+$/, '') } : {}) };
    }
    out[alias as GroupAlias] = entries;
  }
  return out;
}

export function pointOfSale(alias: GroupAlias, market: string, configured: PosContexts = {}): PointOfSale {
  const pos = configured[alias]?.[market] ?? BUILT_IN_POS[alias][market];
  if (!pos) throw new UpstreamContractChanged(alias, `point-of-sale context (siteId/tpid/eapid) for market ${market} is not known; an operator can supply it in GROUP_POS_CONTEXTS`);
  return pos;
}

/** Markets with a context, built in or configured, in the order the spec lists them. */
export function servedMarkets(alias: GroupAlias, configured: PosContexts = {}): string[] {
  return Object.keys(GROUP_MARKET_CURRENCY[alias]).filter((m) => configured[alias]?.[m] ?? BUILT_IN_POS[alias][m]);
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

/** `GROUP_QUERY_HASHES`: `{"<operationName>": "<sha256>"}`, for when a site release rotates a hash. */
export function parseQueryHashes(json: string): Record<string, string> {
  const raw: unknown = JSON.parse(json);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('not a JSON object of operation name to hash');
  const known = Object.values(OPERATIONS).map((o) => o.name as string);
  for (const [name, hash] of Object.entries(raw)) {
    if (!known.includes(name)) throw new Error(`unknown operation ${name} (${known.join(', ')})`);
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new Error(`${name}: not a 64-hex sha256`);
  }
  return raw as Record<string, string>;
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

/**
 * The first operation's reply of a (possibly batched) GraphQL answer. GraphQL errors without the
 * expected data are a contract change (a stale persisted-query hash reads `PersistedQueryNotFound`),
 * except a not-found error, which is the caller's unknown id.
 */
export function graphqlData(alias: GroupAlias, response: UpstreamResponse, root: string, notFound: string): Json {
  const reply = response.json();
  const entry: unknown = Array.isArray(reply) ? reply[0] : reply;
  if (at(entry, 'data', root) != null) return entry;
  const messages = arr(entry, 'errors').map((e) => String(at(e, 'message') ?? at(e, 'extensions', 'code') ?? ''));
  const joined = messages.join('; ');
  if (/persistedquerynotfound|persisted query not found/i.test(joined)) {
    throw new UpstreamContractChanged(alias, `persisted query not found (hash rotated): ${joined}`);
  }
  if (/not[ _]?found/i.test(joined)) throw new NotFound(notFound);
  throw new UpstreamContractChanged(alias, messages.length ? `GraphQL errors: ${joined.slice(0, 200)}` : `data.${root}`);
}
