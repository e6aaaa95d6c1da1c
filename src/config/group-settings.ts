/**
 * The travel group's settings (GROUP_POS_CONTEXTS, GROUP_QUERY_HASHES), parsed and checked at start,
 * with the facts they are checked against: the markets each brand serves (and its currency there)
 * and the persisted operations whose hashes an operator may replace. The gateway calls themselves
 * are in sources/shared/group-graphql.ts.
 */
import { z } from 'zod';
import { isObject } from '../domain/json.js';

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
  AU: 'AUD',
  CA: 'CAD',
  DE: 'EUR',
  EU: 'EUR',
  FR: 'EUR',
  GB: 'GBP',
  IE: 'EUR',
  IT: 'EUR',
  NL: 'EUR',
  NZ: 'NZD',
  US: 'USD',
} as const;
export type OtatwoMarket = keyof typeof OTATWO_MARKET_CURRENCY;
export const OTATWO_MARKETS = Object.keys(OTATWO_MARKET_CURRENCY) as [OtatwoMarket, ...OtatwoMarket[]];

export const OTATHREE_MARKET_CURRENCY = { US: 'USD', CA: 'CAD' } as const;
export type OtathreeMarket = keyof typeof OTATHREE_MARKET_CURRENCY;

/** The markets each brand's routes accept, with the currency its site shows there. */
export const GROUP_MARKET_CURRENCY: Record<GroupAlias, Record<string, string>> = {
  otatwo: OTATWO_MARKET_CURRENCY,
  otathree: OTATHREE_MARKET_CURRENCY,
  rentalone: { US: 'USD' },
};

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
  if (!isObject(raw)) throw new Error('not a JSON object of brand to markets');
  const out: PosContexts = {};
  for (const [alias, markets] of Object.entries(raw)) {
    const currencies = GROUP_MARKET_CURRENCY[alias as GroupAlias];
    if (!currencies) throw new Error(`unknown brand ${alias} (otatwo, otathree, rentalone)`);
    if (!isObject(markets)) throw new Error(`${alias}: not an object of market to context`);
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
