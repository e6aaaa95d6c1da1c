/**
 * One result entry of the hotel search data (the `397419284` extension payload of a list item),
 * and the sponsored entries (`300000000`). Raw records: no provenance, missing values are null.
 */
import { arr, at, num, str } from '../../../domain/json.js';
import { ymd } from './af-init-data.js';
import { amenityName } from './amenities.js';

/** JSON index paths inside one property payload. */
export const PROPERTY_PATHS = {
  name: [1],
  latitude: [2, 0, 0],
  longitude: [2, 0, 1],
  locationScores: [2, 12, 5], // [[code, "4.6"], …]; code 4 is the overall location score shown on the card
  checkInTime: [2, 17, 0],
  checkOutTime: [2, 17, 1],
  nearbyGroups: [2, 19], // [[category, [category, null, [[name, null, [[mode, duration]], …]]]]]
  cityEntityId: [2, 26, 0],
  website: [2, 29, 2],
  categories: [2, 31, 0], // [["gcid:hotel", 0|1], …]
  country: [2, 36],
  hotelClassText: [3, 0],
  hotelClass: [3, 1],
  images: [5, 1], // [[null, [url, h, w, null, [1 external | 10 own photo, original-or-photo-id]]], …]
  searchContext: [6, 1], // echo of the request: [.., currency at 3, dates at 4, .., [entity id, name] at 18]
  rate: [6, 2],
  rating: [7, 0, 0],
  reviews: [7, 0, 1],
  histogram: [7, 1, 0], // [[stars, percent, count], …]
  reviewTopics: [7, 9], // [[0, score, total, null, description, shown, name, positive, negative, …], …]
  dataId: [9],
  hotelAmenities: [10, 8], // [[available 0|1, code], …]
  rentalAmenities: [10, 1, 1], // [[label, available 0|1, icon], …]
  rentalEssentials: [10, 3, 1], // [[label, 1, icon], …]
  ecoCertified: [10, 6, 3, 1],
  description: [11, 0],
  thumbnail: [12, 0],
  kind: [14], // 1 hotel, 2 vacation rental
  token: [20],
  sourceId: [25],
} as const;

/** JSON index paths inside a rate block (`[6][2]`; the price-calendar RPC answers with the same block). */
const RATE_PATHS = {
  nightlyText: [1, 0],
  nightlyExact: [1, 2],
  nightly: [1, 4],
  checkIn: [8, 0],
  checkOut: [8, 1],
  nights: [8, 2],
  totalText: [9, 0],
  currency: [15],
  sellers: [21], // vacation rentals: [[[name, id, "", [logo]], …, price block at 12], …]
  breakdown: [44], // [before taxes, taxes, fees, total] for the whole stay
} as const;

/** Sponsored entries are flat arrays. */
const AD_PATHS = {
  name: [0],
  link: [1],
  priceText: [2],
  thumbnail: [3, 0],
  reviews: [4],
  rating: [5],
  source: [6],
  sourceIcon: [7],
  amenityCodes: [9],
  hotelClass: [10],
  token: [13],
  latitude: [16, 0],
  longitude: [16, 1],
  totalText: [18, 2],
  checkIn: [19, 0],
  checkOut: [19, 1],
  nights: [19, 2],
} as const;

/**
 * Location score codes. 4 is the overall score the card prints ("4.6 Excellent location", three
 * recorded pages). Codes 1, 2, 3 and 5 are given no name: no recorded page shows a label for them
 * (reading them as proximity to sights, transit and the airport was a guess from the nearby-place
 * groups, so the ratings built on it were removed; test/fixtures/README.md, inferred meanings).
 */
const LOCATION_SCORE_CODES = { overall: 4 } as const;

interface GpsCoordinates {
  latitude: number;
  longitude: number;
}

export interface RateRecord {
  currency: string | null;
  nightly_text: string | null;
  /** Per-night price as the page rounds it. */
  nightly: number | null;
  nightly_exact: number | null;
  total_text: string | null;
  /** Stay total read from total_text. */
  total: number | null;
  /** Breakdown of the stay total, all-in total last. */
  total_exact: number | null;
  before_taxes_total: number | null;
  taxes: number | null;
  fees: number | null;
  check_in: string | null;
  check_out: string | null;
  nights: number | null;
  /** Vacation rentals name the seller of the shown price. */
  sellers: { name: string; logo: string | null; price_text: string | null }[];
}

export interface AmenityRecord {
  code: number | null;
  name: string | null;
  available: boolean;
}

interface NearbyPlaceRecord {
  name: string;
  category_code: number | null;
  /** The mode is a bare code the page never labels (Taxi, Walking… were matched against another API's reply), so no type name is given. */
  transportations: { mode_code: number | null; duration: string }[];
}

interface ReviewTopicRecord {
  name: string;
  description: string | null;
  total: number | null;
  positive: number | null;
  negative: number | null;
}

export interface PropertyRecord {
  position: number;
  kind: 'hotel' | 'vacation_rental' | null;
  name: string;
  property_token: string | null;
  data_id: string | null;
  source_id: string | null;
  link: string | null;
  description: string | null;
  gps_coordinates: GpsCoordinates | null;
  city_entity_id: string | null;
  /** Name of city_entity_id, known only when it is the searched place. */
  city: string | null;
  country: string | null;
  check_in_time: string | null;
  check_out_time: string | null;
  hotel_class_text: string | null;
  hotel_class: number | null;
  rating: number | null;
  reviews: number | null;
  reviews_histogram: Record<string, number> | null;
  location_rating: number | null;
  location_scores: { code: number; value: number }[];
  review_topics: ReviewTopicRecord[];
  rate: RateRecord | null;
  amenities: AmenityRecord[];
  essential_info: string[];
  images: { thumbnail: string; original: string | null }[];
  thumbnail: string | null;
  categories: string[];
  eco_certified: boolean | null;
  nearby_places: NearbyPlaceRecord[];
  sponsored: false;
}

export interface AdRecord {
  position: number;
  sponsored: true;
  name: string;
  property_token: string | null;
  link: string | null;
  source: string | null;
  source_icon: string | null;
  price_text: string | null;
  total_text: string | null;
  rating: number | null;
  reviews: number | null;
  hotel_class: number | null;
  amenity_codes: number[];
  thumbnail: string | null;
  gps_coordinates: GpsCoordinates | null;
  check_in: string | null;
  check_out: string | null;
  nights: number | null;
}

/**
 * The number in a displayed price ("US$1,565", "€52", "1.234,50 €"). A lone separator followed by
 * exactly three digits is read as thousands grouping.
 */
export function extractAmount(text: string | null): number | null {
  if (!text) return null;
  const m = /\d[\d.,\s\u00a0\u202f']*/.exec(text);
  if (!m) return null;
  let s = m[0].replace(/[\s\u00a0\u202f']/g, '').replace(/[.,]$/, '');
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    s = s
      .split(dec === '.' ? ',' : '.')
      .join('')
      .replace(dec, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = s.split(sep);
    const grouping = parts.length > 2 || parts.at(-1)?.length === 3;
    s = grouping ? parts.join('') : parts.join('.');
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function gps(lat: number | null, lng: number | null): GpsCoordinates | null {
  return lat === null || lng === null ? null : { latitude: lat, longitude: lng };
}

function hotelAmenity(pair: unknown): AmenityRecord | null {
  const code = num(pair, 1);
  const flag = num(pair, 0);
  if (code === null || flag === null) return null;
  return { code, name: amenityName(code), available: flag === 1 };
}

export function parseRate(rate: unknown): RateRecord | null {
  if (!Array.isArray(rate)) return null;
  const breakdown = at(rate, ...RATE_PATHS.breakdown);
  const part = (i: number) => num(breakdown, i);
  const totalText = str(rate, ...RATE_PATHS.totalText);
  const nightlyText = str(rate, ...RATE_PATHS.nightlyText);
  const nightly = num(rate, ...RATE_PATHS.nightly);
  // Sold-out or unpriced entries keep only the echoed dates: no price at all is a null rate.
  if (nightlyText === null && nightly === null && totalText === null && !Array.isArray(breakdown)) return null;
  const sellers = arr(rate, ...RATE_PATHS.sellers).flatMap((s) => {
    const name = str(s, 0, 0);
    return name ? [{ name, logo: str(s, 0, 3, 0), price_text: str(s, 12, 4, 0) }] : [];
  });
  return {
    currency: str(rate, ...RATE_PATHS.currency),
    nightly_text: nightlyText,
    nightly,
    nightly_exact: num(rate, ...RATE_PATHS.nightlyExact),
    total_text: totalText,
    total: extractAmount(totalText),
    total_exact: part(3),
    before_taxes_total: part(0),
    taxes: part(1),
    fees: part(2),
    check_in: ymd(at(rate, ...RATE_PATHS.checkIn)),
    check_out: ymd(at(rate, ...RATE_PATHS.checkOut)),
    nights: num(rate, ...RATE_PATHS.nights),
    sellers,
  };
}

function nearbyPlaces(groups: unknown[]): NearbyPlaceRecord[] {
  const out: NearbyPlaceRecord[] = [];
  for (const group of groups) {
    const category = num(group, 0);
    for (const place of arr(group, 1, 2)) {
      const name = str(place, 0);
      if (!name) continue;
      const transportations = arr(place, 2).flatMap((t) => {
        const duration = str(t, 1);
        const mode = num(t, 0);
        return duration ? [{ mode_code: mode, duration }] : [];
      });
      out.push({ name, category_code: category, transportations });
    }
  }
  return out;
}

function reviewTopics(entries: unknown[]): ReviewTopicRecord[] {
  return entries.flatMap((e) => {
    const name = str(e, 6) ?? str(e, 4);
    if (!name) return [];
    return [
      {
        name,
        description: str(e, 4),
        total: num(e, 2),
        positive: num(e, 7),
        negative: num(e, 8),
      },
    ];
  });
}

function histogram(entries: unknown[]): Record<string, number> | null {
  const out: Record<string, number> = {};
  for (const e of entries) {
    const stars = num(e, 0);
    const count = num(e, 2);
    if (stars !== null && count !== null) out[String(stars)] = count;
  }
  return Object.keys(out).length ? out : null;
}

function locationScores(entries: unknown[]): { code: number; value: number }[] {
  return entries.flatMap((e) => {
    const code = num(e, 0);
    const value = Number(str(e, 1));
    return code !== null && Number.isFinite(value) ? [{ code, value }] : [];
  });
}

function images(entries: unknown[]): { thumbnail: string; original: string | null }[] {
  return entries.flatMap((e) => {
    const thumbnail = str(e, 1, 0);
    if (!thumbnail) return [];
    // Source 1 carries the partner's original image URL; source 10 (own photos) carries only an id.
    const original = num(e, 1, 4, 0) === 1 ? str(e, 1, 4, 1) : null;
    return [{ thumbnail, original }];
  });
}

export function parseProperty(p: unknown, position: number): PropertyRecord | null {
  const P = PROPERTY_PATHS;
  const name = str(p, ...P.name);
  if (!name) return null;
  const kindCode = num(p, ...P.kind);
  const scores = locationScores(arr(p, ...P.locationScores));
  const cityEntityId = str(p, ...P.cityEntityId);
  const searched = at(p, ...P.searchContext);
  const rentalAmenities = arr(p, ...P.rentalAmenities).flatMap((a) => {
    const label = str(a, 0);
    return label ? [{ code: null, name: label, available: num(a, 1) === 1 }] : [];
  });
  const eco = num(p, ...P.ecoCertified);
  return {
    position,
    kind: kindCode === 1 ? 'hotel' : kindCode === 2 ? 'vacation_rental' : null,
    name,
    property_token: str(p, ...P.token),
    data_id: str(p, ...P.dataId),
    source_id: str(p, ...P.sourceId),
    link: str(p, ...P.website),
    description: str(p, ...P.description),
    gps_coordinates: gps(num(p, ...P.latitude), num(p, ...P.longitude)),
    city_entity_id: cityEntityId,
    city: cityEntityId && str(searched, 18, 0) === cityEntityId ? str(searched, 18, 1) : null,
    country: str(p, ...P.country),
    check_in_time: str(p, ...P.checkInTime),
    check_out_time: str(p, ...P.checkOutTime),
    hotel_class_text: str(p, ...P.hotelClassText),
    hotel_class: num(p, ...P.hotelClass),
    rating: num(p, ...P.rating),
    reviews: num(p, ...P.reviews),
    reviews_histogram: histogram(arr(p, ...P.histogram)),
    location_rating: scores.find((s) => s.code === LOCATION_SCORE_CODES.overall)?.value ?? null,
    location_scores: scores,
    review_topics: reviewTopics(arr(p, ...P.reviewTopics)),
    rate: parseRate(at(p, ...P.rate)),
    amenities: [...arr(p, ...P.hotelAmenities).flatMap((a) => hotelAmenity(a) ?? []), ...rentalAmenities],
    essential_info: arr(p, ...P.rentalEssentials).flatMap((e) => str(e, 0) ?? []),
    images: images(arr(p, ...P.images)),
    thumbnail: str(p, ...P.thumbnail),
    categories: arr(p, ...P.categories).flatMap((c) => str(c, 0) ?? []),
    eco_certified: eco === null ? null : eco === 1,
    nearby_places: nearbyPlaces(arr(p, ...P.nearbyGroups)),
    sponsored: false,
  };
}

export function parseAd(a: unknown, position: number): AdRecord | null {
  const A = AD_PATHS;
  const name = str(a, ...A.name);
  if (!name) return null;
  return {
    position,
    sponsored: true,
    name,
    property_token: str(a, ...A.token),
    link: str(a, ...A.link),
    source: str(a, ...A.source),
    source_icon: str(a, ...A.sourceIcon),
    price_text: str(a, ...A.priceText),
    total_text: str(a, ...A.totalText),
    rating: num(a, ...A.rating),
    reviews: num(a, ...A.reviews),
    hotel_class: num(a, ...A.hotelClass),
    // Bare codes; whether they share the organic entries' code table is unverified, so no names.
    amenity_codes: arr(a, ...A.amenityCodes).filter((c): c is number => typeof c === 'number'),
    thumbnail: str(a, ...A.thumbnail),
    gps_coordinates: gps(num(a, ...A.latitude), num(a, ...A.longitude)),
    check_in: str(a, ...A.checkIn),
    check_out: str(a, ...A.checkOut),
    nights: num(a, ...A.nights),
  };
}
