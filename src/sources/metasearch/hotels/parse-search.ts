/**
 * The hotel search results page (/travel/search): its `AtySUc` data blob holds the result list,
 * the paging cursor, the brand filter and an echo of the request. The same JSON comes back from
 * the batchexecute `AtySUc` RPC, so parseSearchData serves both.
 */
import { UpstreamBlocked, UpstreamContractChanged } from '../../../domain/errors.js';
import { arr, at, num, str } from '../../../domain/json.js';
import { dataServiceRpcIds, extensionIn, extractInitData, ymd } from './af-init-data.js';
import { parseAd, parseProperty, type AdRecord, type PropertyRecord } from './parse-property.js';

const ALIAS = 'metasearch';
const SEARCH_RPC = 'AtySUc';

/** Paths from the root of the search data. Extension keys are the proto extension numbers. */
export const SEARCH_PATHS = {
  list: [0, 0, 0, 1], // [[type, {extension: payload}], …]
  pageInfo: [0, 0, 0, 3, '469845717'], // [next page token, "", total results, first record, last record]
  brandNames: [0, 1, 1, '399551381', 0, 3], // [[id, [name]], …]
  request: [1], // echo of the request; one entry holds the 404340221 extension
} as const;

export const EXTENSIONS = {
  property: '397419284',
  ads: '300000000',
  paging: '410579159',
  requestEcho: '404340221',
} as const;

/** Inside the request echo extension payload. */
const ECHO_PATHS = {
  currency: [3],
  checkIn: [4, 0],
  checkOut: [4, 1],
  nights: [4, 2],
  placeId: [18, 0],
  placeName: [18, 1],
  brandTree: [20], // [[[parent id, null, 0], [[child id, null, 0], …] | null, 0|1], …]
} as const;

export interface BrandRecord {
  id: number;
  title: string | null;
  children?: { id: number; title: string | null }[];
}

export interface SearchPageRecord {
  query: string | null;
  place_id: string | null;
  place_name: string | null;
  currency: string | null;
  check_in: string | null;
  check_out: string | null;
  nights: number | null;
  total_results: number | null;
  pagination: { records_from: number | null; records_to: number | null; next_page_token: string | null };
  properties: PropertyRecord[];
  ads: AdRecord[];
  brands: BrandRecord[];
}

function brands(data: unknown, echo: unknown): BrandRecord[] {
  const names = new Map<number, string>();
  for (const entry of arr(data, ...SEARCH_PATHS.brandNames)) {
    const id = num(entry, 0);
    const name = str(entry, 1, 0);
    if (id !== null && name) names.set(id, name);
  }
  return arr(echo, ...ECHO_PATHS.brandTree).flatMap((node) => {
    const id = num(node, 0, 0);
    if (id === null) return [];
    const children = arr(node, 1).flatMap((c) => {
      const cid = num(c, 0);
      return cid === null ? [] : [{ id: cid, title: names.get(cid) ?? null }];
    });
    const brand: BrandRecord = { id, title: names.get(id) ?? null };
    if (children.length) brand.children = children;
    return [brand];
  });
}

/** Parses the AtySUc data (ds blob or RPC answer). Throws UpstreamContractChanged without a result list. */
export function parseSearchData(data: unknown): SearchPageRecord {
  const list = at(data, ...SEARCH_PATHS.list);
  if (!Array.isArray(list)) throw new UpstreamContractChanged(ALIAS, 'hotel search data has no result list');

  const properties: PropertyRecord[] = [];
  const ads: AdRecord[] = [];
  let pagingItem: unknown;
  for (const item of list) {
    const payloads = at(item, 1);
    if (!payloads || typeof payloads !== 'object') continue;
    const ext = payloads as Record<string, unknown>;
    if (EXTENSIONS.property in ext) {
      const record = parseProperty(at(ext[EXTENSIONS.property], 0), properties.length);
      if (record) properties.push(record);
    } else if (EXTENSIONS.ads in ext) {
      for (const a of arr(ext[EXTENSIONS.ads], 2)) {
        const ad = parseAd(a, ads.length);
        if (ad) ads.push(ad);
      }
    } else if (EXTENSIONS.paging in ext) {
      pagingItem = ext[EXTENSIONS.paging];
    }
  }

  const pageInfo = at(data, ...SEARCH_PATHS.pageInfo) ?? pagingItem;
  const echo = at(extensionIn(arr(data, ...SEARCH_PATHS.request), EXTENSIONS.requestEcho), 0);
  const query = str(data, ...SEARCH_PATHS.request, 1);
  return {
    query,
    place_id: str(echo, ...ECHO_PATHS.placeId),
    place_name: str(echo, ...ECHO_PATHS.placeName),
    currency: str(echo, ...ECHO_PATHS.currency),
    check_in: ymd(at(echo, ...ECHO_PATHS.checkIn)),
    check_out: ymd(at(echo, ...ECHO_PATHS.checkOut)),
    nights: num(echo, ...ECHO_PATHS.nights),
    total_results: num(pageInfo, 2),
    pagination: {
      records_from: num(pageInfo, 3),
      records_to: num(pageInfo, 4),
      // An empty string is the engine's "no further page".
      next_page_token: str(pageInfo, 0) || null,
    },
    properties,
    ads,
    brands: brands(data, echo),
  };
}

/** Parses the server-rendered search page. */
export function parseSearchPage(html: string): SearchPageRecord {
  const blobs = extractInitData(html);
  if (!blobs.length) {
    if (html.includes('consent.google.com')) throw new UpstreamBlocked('ConsentWall', 'body:consent.google.com');
    throw new UpstreamContractChanged(ALIAS, 'search page carries no AF_initDataCallback data');
  }
  const rpcKeys = dataServiceRpcIds(html);
  const searchKey = [...rpcKeys].find(([, id]) => id === SEARCH_RPC)?.[0];
  const blob = blobs.find((b) => b.key === searchKey && b.data !== undefined) ?? blobs.find((b) => Array.isArray(at(b.data, ...SEARCH_PATHS.list)));
  if (!blob) throw new UpstreamContractChanged(ALIAS, `search page has no ${SEARCH_RPC} data blob`);
  return parseSearchData(blob.data);
}
