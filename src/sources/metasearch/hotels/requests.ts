/**
 * Requests for the engine's hotel pages, relative to the metasearch base URL, and the property
 * token format. URL shapes are those the recorded result pages link to themselves:
 *   /travel/search?q=<text>&ts=<ts>&hl=…&gl=…
 *   /travel/hotels/entity/<token>[/prices|/reviews|/location]?q=…&ts=…
 * and the compatible API's own property request: /travel/search?qs=<qs>.
 */
import { base64ToBytes, bytesToBase64, decodeFields, fieldString, ProtoWriter } from '../protobuf.js';
import { AMENITY_FILTER_CODES, encodeTs, type AmenityFilter, type HotelSort, type TsPlace, type TsUiState } from './ts-param.js';

export interface MetasearchHotelsRequest {
  method: 'GET';
  path: string;
}

export interface HotelSearchUrlInput {
  /** Destination or hotel name, sent as `q`. */
  q: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  /** Ages of the children, one entry per child. */
  children?: number[];
  currency: string;
  gl: string;
  hl: string;
  sort?: HotelSort;
  minGuestRating?: 3.5 | 4 | 4.5;
  hotelClass?: number[];
  amenities?: AmenityFilter[];
  minPrice?: number;
  maxPrice?: number;
  /** Resolved place (entity id, feature id, name) when known; the text in `q` is enough otherwise. */
  place?: TsPlace;
  ui?: TsUiState;
  /**
   * Offset of the first result (from a page token). Sent as `start`, the offset parameter a public
   * client (trvl) pages the result page with; no recorded page confirms it.
   */
  start?: number;
}

function tsFor(input: HotelSearchUrlInput): string {
  return encodeTs(
    {
      checkIn: input.checkIn,
      checkOut: input.checkOut,
      adults: input.adults,
      childrenAges: input.children,
      currency: input.currency,
      place: input.place ?? null,
      sort: input.sort ?? null,
      minGuestRating: input.minGuestRating ?? null,
      hotelClass: input.hotelClass,
      amenities: input.amenities?.map((a) => AMENITY_FILTER_CODES[a]),
      minPrice: input.minPrice ?? null,
      maxPrice: input.maxPrice ?? null,
    },
    input.ui,
  );
}

/** The currency travels inside `ts` (filters.1.7); the page links carry no separate currency parameter. */
function commonParams(input: HotelSearchUrlInput): URLSearchParams {
  const params = new URLSearchParams({ q: input.q, ts: tsFor(input), hl: input.hl, gl: input.gl });
  if (input.start) params.set('start', String(input.start));
  return params;
}

export function buildHotelSearchUrl(input: HotelSearchUrlInput): MetasearchHotelsRequest {
  return { method: 'GET', path: `/travel/search?${commonParams(input).toString()}` };
}

/**
 * The `qs` parameter that opens one property on /travel/search: {1: 1, 6: token, 7: 13, 9: 0}.
 * Layout read off the compatible API's own request URL for a property lookup.
 */
export function encodePropertyQs(token: string): string {
  return bytesToBase64(new ProtoWriter().uint(1, 1).string(6, token).uint(7, 13).uint(9, 0).finish(), true);
}

/**
 * One property on the search page: `qs` (the property meta) with the stay in `ts`. The compatible
 * API's own property request is `/travel/search?qs=…`; the page's AtySUc request then carries the
 * meta and answers that property alone.
 */
export function buildHotelPropertyUrl(token: string, input: Omit<HotelSearchUrlInput, 'q' | 'start'>): MetasearchHotelsRequest {
  if (!/^[A-Za-z0-9_-]{8,200}$/.test(token)) throw new Error('property token: unexpected characters');
  const params = new URLSearchParams({ qs: encodePropertyQs(token), ts: tsFor({ ...input, q: '' }), hl: input.hl, gl: input.gl });
  return { method: 'GET', path: `/travel/search?${params.toString()}` };
}

/** The result offset a page token stands for: the engine's token is protobuf {1: offset} ("CBI=" = 18). */
export function pageTokenOffset(token: string): number | null {
  try {
    const v = decodeFields(base64ToBytes(token)).find((x) => x.field === 1)?.value;
    return v?.wire === 0 ? Number(v.value) : null;
  } catch {
    return null;
  }
}

export interface PropertyTokenParts {
  kind: 'hotel' | 'vacation_rental' | null;
  /** Decimal id: the map feature's cid for hotels (second half of data_id, in hex), the rental's id otherwise. */
  id: string;
  /** Knowledge-graph entity id ("/g/…", "/m/…") when the token carries one. */
  entity_id: string | null;
}

/** A property token is base64 protobuf {1: {1 cid | 2 rental id, 3 entity id}, 2: 1 hotel | 2 rental}. */
export function decodePropertyToken(token: string): PropertyTokenParts | null {
  try {
    const root = decodeFields(base64ToBytes(token));
    const inner = root.find((f) => f.field === 1)?.value;
    const kindValue = root.find((f) => f.field === 2)?.value;
    if (inner?.wire !== 2) return null;
    const fields = decodeFields(inner.bytes);
    const id = fields.find((f) => (f.field === 1 || f.field === 2) && f.value.wire === 0)?.value;
    if (id?.wire !== 0) return null;
    const entity = fields.find((f) => f.field === 3)?.value;
    const kind = kindValue?.wire === 0 ? Number(kindValue.value) : null;
    return {
      kind: kind === 1 ? 'hotel' : kind === 2 ? 'vacation_rental' : null,
      id: id.value.toString(),
      entity_id: entity?.wire === 2 ? fieldString(entity) : null,
    };
  } catch {
    return null;
  }
}
