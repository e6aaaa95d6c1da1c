/**
 * The `ts` parameter of the metasearch engine's hotel pages (/travel/search, /travel/hotels/entity/…):
 * a URL-safe base64 protobuf carrying guests, place, dates and filters. Field numbers were read off
 * 77 browser-captured vectors (shared fixture `google-hotels/ts-param-test-vectors.json`).
 *
 * Wire layout (field numbers):
 *   1 version (always 1)
 *   2 guests   { 1 repeated { 1 kind (3 adult, 2 child), 2 age }, 2 explicit selection (0/1, written even when 0) }
 *   3 search   { 1 place { 2 details { 1 entity id "/m/…", 6 feature id "0x…:0x…", 7 display name }, 3 {} },
 *                2 dates { 2 range { 1 {1 y, 2 m, 3 d}, 2 {…}, 3 nights }, 6 { 1 1 } } }
 *   5 filters  { 1 { 1 packed amenity codes, 2 packed hotel classes, 5 sort, 7 currency, 10 0 },
 *                3 {}, 4 price { 1 {2 min}, 2 {2 max}, 3 1 }, 5 guest-rating code }
 * The destination text itself travels in `q`, not in `ts`.
 */
import { nightsBetween } from '../../../domain/dates.js';
import { base64ToBytes, bytesToBase64, decodeFields, decodePacked, fieldString, ProtoWriter, type ProtoField } from '../protobuf.js';

export type HotelSort = 'relevance' | 'lowest_price' | 'highest_rating' | 'most_reviewed';

/** Sort codes at filters.1.5; relevance is the absence of the field. */
const SORT_CODES: Record<Exclude<HotelSort, 'relevance'>, number> = {
  lowest_price: 3,
  highest_rating: 8,
  most_reviewed: 13,
};

/** Amenity filter codes at filters.1.1 (the ones the vectors exercise). */
export const AMENITY_FILTER_CODES = {
  indoor_pool: 4,
  outdoor_pool: 5,
  pool: 6,
  spa: 10,
  kid_friendly: 12,
  air_conditioned: 40,
  ev_charger: 61,
} as const;
export type AmenityFilter = keyof typeof AMENITY_FILTER_CODES;

/** Guest-rating floor → code at filters.5 (rating × 2). */
const GUEST_RATING_CODES: Record<string, number> = { '3.5': 7, '4': 8, '4.5': 9 };

const ADULT = 3;
const CHILD = 2;

export interface TsPlace {
  /** Knowledge-graph entity id, e.g. "/m/04jpl". */
  id?: string;
  /** Map feature id, e.g. "0x47d8a00baf21de75:0x52963a5addd52a99". */
  coordinates?: string;
  name?: string;
}

export interface TsSearch {
  checkIn: string;
  checkOut: string;
  adults: number;
  childrenAges?: number[];
  currency?: string | null;
  place?: TsPlace | null;
  /** 'relevance' written explicitly marks the sort menu as used (see TsUiState.filtersTouched). */
  sort?: HotelSort | null;
  minGuestRating?: 3.5 | 4 | 4.5 | null;
  hotelClass?: number[];
  /** Amenity filter codes in selection order (the wire keeps click order). */
  amenities?: number[];
  minPrice?: number | null;
  maxPrice?: number | null;
}

/**
 * Bits the site writes from the browser session that do not change what is searched. They are
 * needed to reproduce a captured `ts` byte for byte; a fresh request leaves them at their defaults.
 */
export interface TsUiState {
  /** Default: 'implicit' for two adults without children, else 'explicit'. */
  guests?: 'explicit' | 'implicit' | 'omitted';
  /** Empty marker message at search.1.3. Default true. */
  placeMarker?: boolean;
  /** Whole filters block (field 5). Default true; one captured session sent none, currency included. */
  filterBlock?: boolean;
  /** price.3 = 1: set once the price or sort controls were used. Default: a price bound or a sort was given. */
  filtersTouched?: boolean;
  /** filters.1.10 = 0, written by some sessions. Default false. */
  filterField10?: boolean;
}

interface Ymd {
  y: number;
  m: number;
  d: number;
}

function parseDate(date: string): Ymd {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`ts: bad date ${date}`);
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
}

function dateMsg(v: Ymd): ProtoWriter {
  return new ProtoWriter().uint(1, v.y).uint(2, v.m).uint(3, v.d);
}

function defaultGuestsMode(s: TsSearch): 'explicit' | 'implicit' {
  return s.adults === 2 && !(s.childrenAges ?? []).length ? 'implicit' : 'explicit';
}

function encodeTsBytes(search: TsSearch, ui: TsUiState = {}): Uint8Array {
  const checkIn = parseDate(search.checkIn);
  const checkOut = parseDate(search.checkOut);
  const nights = nightsBetween(search.checkIn, search.checkOut);
  if (Number.isNaN(nights)) throw new Error(`ts: bad dates ${search.checkIn}, ${search.checkOut}`);
  if (nights < 1) throw new Error('ts: check-out must be after check-in');
  if (!Number.isInteger(search.adults) || search.adults < 1) throw new Error('ts: at least one adult');

  const root = new ProtoWriter().uint(1, 1);

  const guestsMode = ui.guests ?? defaultGuestsMode(search);
  if (guestsMode !== 'omitted') {
    const guests = new ProtoWriter();
    for (let i = 0; i < search.adults; i++) guests.message(1, new ProtoWriter().uint(1, ADULT));
    for (const age of search.childrenAges ?? []) guests.message(1, new ProtoWriter().uint(1, CHILD).uint(2, age));
    guests.uint(2, guestsMode === 'explicit' ? 1 : 0);
    root.message(2, guests);
  }

  const place = new ProtoWriter();
  if (search.place) {
    const details = new ProtoWriter();
    if (search.place.id) details.string(1, search.place.id);
    if (search.place.coordinates) details.string(6, search.place.coordinates);
    if (search.place.name) details.string(7, search.place.name);
    place.message(2, details);
  }
  if (ui.placeMarker ?? true) place.message(3, new ProtoWriter());
  const range = new ProtoWriter().message(1, dateMsg(checkIn)).message(2, dateMsg(checkOut)).uint(3, nights);
  const dates = new ProtoWriter().message(2, range).message(6, new ProtoWriter().uint(1, 1));
  root.message(3, new ProtoWriter().message(1, place).message(2, dates));

  if (ui.filterBlock ?? true) root.message(5, filterBlock(search, ui));
  return root.finish();
}

function filterBlock(search: TsSearch, ui: TsUiState): ProtoWriter {
  const filters = new ProtoWriter();
  if (search.amenities?.length) filters.packed(1, search.amenities);
  if (search.hotelClass?.length) filters.packed(2, search.hotelClass);
  if (search.sort && search.sort !== 'relevance') filters.uint(5, SORT_CODES[search.sort]);
  if (search.currency) filters.string(7, search.currency);
  if (ui.filterField10) filters.uint(10, 0);

  const block = new ProtoWriter().message(1, filters).message(3, new ProtoWriter());
  const hasPrice = search.minPrice != null || search.maxPrice != null;
  const touched = ui.filtersTouched ?? (hasPrice || search.sort != null);
  if (hasPrice || touched) {
    const price = new ProtoWriter();
    if (search.minPrice != null) price.message(1, new ProtoWriter().uint(2, Math.round(search.minPrice)));
    if (search.maxPrice != null) price.message(2, new ProtoWriter().uint(2, Math.round(search.maxPrice)));
    if (touched) price.uint(3, 1);
    block.message(4, price);
  }
  if (search.minGuestRating != null) {
    const code = GUEST_RATING_CODES[String(search.minGuestRating)];
    if (code === undefined) throw new Error(`ts: unsupported guest rating ${search.minGuestRating}`);
    block.uint(5, code);
  }
  return block;
}

export function encodeTs(search: TsSearch, ui: TsUiState = {}): string {
  return bytesToBase64(encodeTsBytes(search, ui), true);
}

// ---------------------------------------------------------------- decoding

function byField(fields: ProtoField[], n: number): ProtoField[] {
  return fields.filter((f) => f.field === n);
}

function msg(fields: ProtoField[], n: number): ProtoField[] | null {
  const v = fields.find((x) => x.field === n)?.value;
  return v?.wire === 2 ? decodeFields(v.bytes) : null;
}

function num(fields: ProtoField[] | null, n: number): number | null {
  const v = fields?.find((x) => x.field === n)?.value;
  return v?.wire === 0 ? Number(v.value) : null;
}

function str(fields: ProtoField[] | null, n: number): string | undefined {
  const v = fields?.find((x) => x.field === n)?.value;
  return v?.wire === 2 ? fieldString(v) : undefined;
}

function packed(fields: ProtoField[], n: number): number[] {
  const v = fields.find((x) => x.field === n)?.value;
  return v?.wire === 2 ? decodePacked(v.bytes).map(Number) : [];
}

function ymd(fields: ProtoField[] | null): string {
  const [y, m, d] = [num(fields, 1), num(fields, 2), num(fields, 3)];
  if (y == null || m == null || d == null) throw new Error('ts: incomplete date');
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const SORT_BY_CODE = new Map(Object.entries(SORT_CODES).map(([k, v]) => [v, k as HotelSort]));
const RATING_BY_CODE = new Map(Object.entries(GUEST_RATING_CODES).map(([k, v]) => [v, Number(k) as 3.5 | 4 | 4.5]));

/** Inverse of encodeTs: encodeTs(...decodeTs(x)) reproduces x for every known layout. */
export function decodeTs(ts: string): { search: TsSearch; ui: TsUiState } {
  const root = decodeFields(base64ToBytes(ts));
  if (num(root, 1) !== 1) throw new Error('ts: unknown version');
  const ui: TsUiState = {};
  const search: TsSearch = { checkIn: '', checkOut: '', adults: 2 };

  const guests = msg(root, 2);
  if (guests) {
    let adults = 0;
    const children: number[] = [];
    for (const e of byField(guests, 1)) {
      const entry = e.value.wire === 2 ? decodeFields(e.value.bytes) : [];
      if (num(entry, 1) === ADULT) adults++;
      else children.push(num(entry, 2) ?? 0);
    }
    search.adults = adults;
    if (children.length) search.childrenAges = children;
    ui.guests = num(guests, 2) === 1 ? 'explicit' : 'implicit';
  } else {
    ui.guests = 'omitted';
  }

  const searchMsg = msg(root, 3);
  const place = searchMsg && msg(searchMsg, 1);
  const details = place && msg(place, 2);
  if (details) search.place = { id: str(details, 1), coordinates: str(details, 6), name: str(details, 7) };
  ui.placeMarker = !!place && byField(place, 3).length > 0;
  const range = searchMsg && msg(msg(searchMsg, 2) ?? [], 2);
  if (!range) throw new Error('ts: no dates');
  search.checkIn = ymd(msg(range, 1));
  search.checkOut = ymd(msg(range, 2));

  const block = msg(root, 5);
  ui.filterBlock = !!block;
  if (block) {
    const filters = msg(block, 1) ?? [];
    const amenities = packed(filters, 1);
    const stars = packed(filters, 2);
    if (amenities.length) search.amenities = amenities;
    if (stars.length) search.hotelClass = stars;
    const sort = num(filters, 5);
    if (sort != null) search.sort = SORT_BY_CODE.get(sort) ?? null;
    search.currency = str(filters, 7) ?? null;
    ui.filterField10 = num(filters, 10) != null;
    const price = msg(block, 4);
    if (price) {
      const min = num(msg(price, 1), 2);
      const max = num(msg(price, 2), 2);
      if (min != null) search.minPrice = min;
      if (max != null) search.maxPrice = max;
    }
    ui.filtersTouched = num(price, 3) === 1;
    const rating = num(block, 5);
    if (rating != null) search.minGuestRating = RATING_BY_CODE.get(rating) ?? null;
  }
  return { search, ui };
}
