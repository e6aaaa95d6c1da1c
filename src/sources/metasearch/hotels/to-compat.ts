/**
 * Parsed search records → the compatible search API's `google_hotels` reply (field names and
 * nesting of its recorded responses). search_metadata / search_parameters belong to the route.
 * A field the page does not carry is omitted, never filled in.
 */
import { type AmenityRecord, type PropertyRecord, type RateRecord } from './parse-property.js';
import type { BrandRecord, SearchPageRecord } from './parse-search.js';

interface CompatPrice {
  price?: string;
  extracted_price?: number;
  /** Derived: the stay's before-taxes amount (given by the page) divided by its nights. */
  extracted_price_before_taxes?: number;
}

export type CompatProperty = Record<string, unknown>;

export interface CompatSearchResult {
  search_information?: { total_results?: number; corrected_query?: string; original_query?: string };
  pagination?: { records_from?: number; records_to?: number; next_page_token?: string };
  brands?: BrandRecord[];
  properties: CompatProperty[];
}

function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value) && value.length === 0) return;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return;
  obj[key] = value;
}

function nightlyPrice(rate: RateRecord): CompatPrice {
  const out: CompatPrice = {};
  if (rate.nightly_text) out.price = rate.nightly_text;
  if (rate.nightly !== null) out.extracted_price = rate.nightly;
  if (rate.before_taxes_total !== null && rate.nights) {
    out.extracted_price_before_taxes = Math.round(rate.before_taxes_total / rate.nights);
  }
  return out;
}

function totalPrice(rate: RateRecord): CompatPrice {
  const out: CompatPrice = {};
  if (rate.total_text) out.price = rate.total_text;
  if (rate.total !== null) out.extracted_price = rate.total;
  if (rate.before_taxes_total !== null) out.extracted_price_before_taxes = Math.round(rate.before_taxes_total);
  return out;
}

function absoluteUrl(url: string | null): string | null {
  return url && url.startsWith('//') ? `https:${url}` : url;
}

function amenityNames(list: AmenityRecord[], available: boolean): string[] {
  return list.flatMap((a) => (a.available === available && a.name ? [a.name] : []));
}

export function toCompatProperty(p: PropertyRecord): CompatProperty {
  const out: CompatProperty = {};
  put(out, 'type', p.kind);
  put(out, 'property_token', p.property_token);
  put(out, 'data_id', p.data_id);
  put(out, 'name', p.name);
  put(out, 'link', p.link);
  put(out, 'description', p.description);
  put(out, 'gps_coordinates', p.gps_coordinates);
  put(out, 'city', p.city);
  put(out, 'country', p.country);
  put(out, 'check_in_time', p.check_in_time);
  put(out, 'check_out_time', p.check_out_time);
  if (p.rate) {
    put(out, 'price_per_night', nightlyPrice(p.rate));
    put(out, 'total_price', totalPrice(p.rate));
  }
  put(
    out,
    'nearby_places',
    p.nearby_places.map((np) => ({
      name: np.name,
      transportations: np.transportations.map((t) => ({ duration: t.duration })),
    })),
  );
  if (p.kind === 'vacation_rental' && p.rate) {
    put(
      out,
      'offers',
      p.rate.sellers.map((s) => {
        const offer: Record<string, unknown> = { source: s.name };
        put(offer, 'logo', absoluteUrl(s.logo));
        if (s.price_text) offer.price_per_night = { price: s.price_text };
        return offer;
      }),
    );
  }
  put(out, 'hotel_class', p.hotel_class_text);
  put(out, 'extracted_hotel_class', p.hotel_class);
  put(out, 'rating', p.rating);
  put(out, 'reviews', p.reviews);
  put(out, 'reviews_histogram', p.reviews_histogram);
  put(out, 'location_rating', p.location_rating);
  put(
    out,
    'reviews_breakdown',
    p.review_topics.map((t) => {
      const row: Record<string, unknown> = { name: t.name };
      put(row, 'description', t.description);
      put(row, 'total', t.total);
      put(row, 'positive', t.positive);
      // The page gives total, positive and negative; neutral is the remainder, as in the compatible API's rows.
      if (t.total !== null && t.positive !== null && t.negative !== null) row.neutral = t.total - t.positive - t.negative;
      put(row, 'negative', t.negative);
      return row;
    }),
  );
  if (p.eco_certified) out.eco_certified = true;
  put(out, 'amenities', amenityNames(p.amenities, true));
  // The compatible API lists unavailable amenities on rentals only ("No kitchen"); a hotel's
  // struck-through card amenity stays in the parsed record.
  if (p.kind === 'vacation_rental') put(out, 'excluded_amenities', amenityNames(p.amenities, false));
  put(out, 'essential_info', p.essential_info);
  put(
    out,
    'images',
    p.images.map((i) => (i.original ? { thumbnail: i.thumbnail, original: i.original } : { thumbnail: i.thumbnail })),
  );
  return out;
}

/**
 * The query the page says it answered (its request echo), when it is not the one asked: a spelling
 * corrected or a place renamed by the engine. null when the page answered the query asked.
 */
export function correctedQuery(page: Pick<SearchPageRecord, 'query'>, asked: string): string | null {
  const answered = page.query?.trim();
  const norm = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
  return answered && norm(answered) !== norm(asked) ? answered : null;
}

export function toCompatSearch(page: SearchPageRecord, asked: string): CompatSearchResult {
  const result: CompatSearchResult = { properties: page.properties.map(toCompatProperty) };
  const info: NonNullable<CompatSearchResult['search_information']> = {};
  if (page.total_results !== null) info.total_results = page.total_results;
  const corrected = correctedQuery(page, asked);
  if (corrected) Object.assign(info, { corrected_query: corrected, original_query: asked });
  if (Object.keys(info).length) result.search_information = info;
  const { records_from, records_to, next_page_token } = page.pagination;
  const pagination: NonNullable<CompatSearchResult['pagination']> = {};
  if (records_from !== null) pagination.records_from = records_from;
  if (records_to !== null) pagination.records_to = records_to;
  if (next_page_token) pagination.next_page_token = next_page_token;
  if (Object.keys(pagination).length) result.pagination = pagination;
  if (page.brands.length) result.brands = page.brands;
  return result;
}
