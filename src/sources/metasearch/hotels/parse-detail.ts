/**
 * One property's own AtySUc answer: the search page opened on a property (`/travel/search?qs=…`,
 * the compatible API's own request) or the batchexecute RPC asked with the property meta
 * `[1,null,null,null,null,<token>,13,null,0]`. The property sits in the request-echo object at
 * `[1]`, beside the `404340221` echo, under extension `441552390`, in the same layout as a search
 * result entry plus address, phone and every seller. Recorded reply: travel-ops
 * `tests/fixtures/googlehotels/santa-sophia-detail.txt`; slots confirmed by the `stays` library.
 */
import { UpstreamBlocked, UpstreamContractChanged } from '../../../domain/errors.js';
import { arr, at, num, str } from '../../../domain/json.js';
import { dataServiceRpcIds, extensionIn, extractInitData, truthy } from './af-init-data.js';
import { amenityName } from './amenities.js';
import { parseProperty, type AmenityRecord, type PropertyRecord, type RateRecord } from './parse-property.js';
import { EXTENSIONS } from './parse-search.js';
import { parseSellers, type SellerRecord } from './parse-sellers.js';

const ALIAS = 'metasearch';
const SEARCH_RPC = 'AtySUc';

export const DETAIL_EXTENSION = '441552390';

/** Inside the property payload (the search entry's PROPERTY_PATHS hold for the rest). */
const DETAIL_PATHS = {
  address: [2, 1, 0, 0, 0],
  phone: [2, 2, 0],
  phoneLink: [2, 2, 1],
  amenityPairs: [10, 8], // [[available, code], …] as on the search page
  amenityGroups: [10, 6, 0], // [[group, [[available, code, …], …]], …] in a property's own reply
  rentalAmenities: [10, 1, 1], // [[label, available, icon], …]
  rate: [6, 2],
  /** In the rate block: [[kind, …, 16: [lowest, typical low, typical high, position, level code]], …]. */
  insights: [7, 1],
} as const;

const INSIGHT_KIND = 15;
const INSIGHT_SLOT = 16;

interface PriceInsightsRecord {
  lowest_price: string | null;
  typical_low: string | null;
  typical_high: string | null;
  price_level_code: number | null;
}

/** Whether the displayed prices include taxes and fees, judged against the reply's own breakdown. */
export type DisplayBasis = 'all_in' | 'before_taxes' | null;

export interface DetailRecord {
  property: PropertyRecord;
  address: string | null;
  phone: string | null;
  phone_link: string | null;
  /** [available 0|1, code] pairs, as the spec's amenity_codes. */
  amenity_codes: [number, number][];
  sellers: SellerRecord[];
  price_insights: PriceInsightsRecord | null;
  display_basis: DisplayBasis;
}

function amenityPairs(p: unknown): [number, number][] {
  const pairs = new Map<number, number>();
  for (const pair of arr(p, ...DETAIL_PATHS.amenityPairs)) {
    const code = num(pair, 1);
    if (code !== null && !pairs.has(code)) pairs.set(code, truthy(at(pair, 0)) ? 1 : 0);
  }
  for (const group of arr(p, ...DETAIL_PATHS.amenityGroups)) {
    for (const entry of arr(group, 1)) {
      const code = num(entry, 1);
      if (code !== null && !pairs.has(code)) pairs.set(code, truthy(at(entry, 0)) ? 1 : 0);
    }
  }
  return [...pairs].map(([code, flag]) => [flag, code]);
}

function amenities(p: unknown, codes: [number, number][]): AmenityRecord[] {
  const hotel = codes.map(([flag, code]) => ({ code, name: amenityName(code), available: flag === 1 }));
  const rental = arr(p, ...DETAIL_PATHS.rentalAmenities).flatMap((a) => {
    const label = str(a, 0);
    return label ? [{ code: null, name: label, available: truthy(at(a, 1)) }] : [];
  });
  return [...hotel, ...rental];
}

function priceInsights(rate: unknown): PriceInsightsRecord | null {
  const entry = arr(rate, ...DETAIL_PATHS.insights).find((e) => num(e, 0) === INSIGHT_KIND);
  const slot = at(entry, INSIGHT_SLOT);
  if (!Array.isArray(slot)) return null;
  return {
    lowest_price: str(slot, 0),
    typical_low: str(slot, 1),
    typical_high: str(slot, 2),
    price_level_code: num(slot, 4),
  };
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(1, Math.abs(b) * 0.01);
}

/**
 * The displayed stay total against the breakdown `[44]`: equal to the all-in total → the page shows
 * prices with taxes and fees; equal to the amount before taxes → without; otherwise unknown.
 */
export function displayBasis(rate: RateRecord | null): DisplayBasis {
  if (!rate || rate.total === null) return null;
  if (rate.total_exact !== null && close(rate.total, rate.total_exact)) return 'all_in';
  if (rate.before_taxes_total !== null && close(rate.total, rate.before_taxes_total)) return 'before_taxes';
  return null;
}

/**
 * The property of a property lookup, or null when the answer carries none (the token is unknown
 * to the engine). A reply without the request echo is a contract change.
 */
export function parsePropertyData(data: unknown): DetailRecord | null {
  const echo = arr(data, 1);
  if (!echo.length || extensionIn(echo, EXTENSIONS.requestEcho) === undefined) {
    throw new UpstreamContractChanged(ALIAS, 'property data has no request echo');
  }
  const payload = extensionIn(echo, DETAIL_EXTENSION);
  if (payload === undefined || payload === null) return null;
  const property = parseProperty(payload, 0);
  if (!property) throw new UpstreamContractChanged(ALIAS, 'property payload has no name');
  const codes = amenityPairs(payload);
  property.amenities = amenities(payload, codes);
  const rate = at(payload, ...DETAIL_PATHS.rate);
  return {
    property,
    address: str(payload, ...DETAIL_PATHS.address),
    phone: str(payload, ...DETAIL_PATHS.phone),
    phone_link: str(payload, ...DETAIL_PATHS.phoneLink),
    amenity_codes: codes,
    sellers: parseSellers(rate),
    price_insights: priceInsights(rate),
    display_basis: displayBasis(property.rate),
  };
}

/** The AtySUc blob of a server-rendered travel page (the same JSON the RPC answers). */
function searchBlobOf(html: string): unknown {
  const blobs = extractInitData(html);
  if (!blobs.length) {
    if (html.includes('consent.google.com')) throw new UpstreamBlocked('ConsentWall', 'body:consent.google.com');
    throw new UpstreamContractChanged(ALIAS, 'page carries no AF_initDataCallback data');
  }
  const key = [...dataServiceRpcIds(html)].find(([, id]) => id === SEARCH_RPC)?.[0];
  const blob = blobs.find((b) => b.key === key && b.data !== undefined) ?? blobs.find((b) => Array.isArray(at(b.data, 1)));
  if (!blob) throw new UpstreamContractChanged(ALIAS, `page has no ${SEARCH_RPC} data blob`);
  return blob.data;
}

/** A property page (`/travel/search?qs=…`). */
export function parsePropertyPage(html: string): DetailRecord | null {
  return parsePropertyData(searchBlobOf(html));
}
