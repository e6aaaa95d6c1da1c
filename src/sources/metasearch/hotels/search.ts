/**
 * Destination search (POST /v1/hotels/search, /v1/serp/metasearch_hotels): result pages fetched
 * one after the other, each following the previous page's token, stopping at the last page or the
 * first empty one. Our own clean shape is built here; the compatible shape comes from to-compat.
 */
import { z } from 'zod';
import type { SourceUses } from '../../context.js';
import { BadRequest } from '../../../domain/errors.js';
import type { SearchTimer } from '../../shared/search-metadata.js';
import { fetchSearchPage, type Fetched } from './fetch.js';
import { displayBasis } from './parse-detail.js';
import type { PropertyRecord } from './parse-property.js';
import type { SearchPageRecord } from './parse-search.js';
import { stayPrices, StayPricesSchema, type PriceContext } from './prices.js';
import { pageTokenOffset, type HotelSearchUrlInput } from './requests.js';
import { correctedQuery } from './to-compat.js';

export interface SearchRequest extends Omit<HotelSearchUrlInput, 'start'> {
  pages: number;
  nextPageToken?: string | null;
  /** Client-side filter on the result type, as the compatible API's property_type. */
  propertyType?: 'hotel' | 'vacation_rental' | null;
  timer?: SearchTimer;
}

export interface SearchPageFetch extends Fetched<SearchPageRecord> {
  /** The page token this page was asked with; null for the first page. */
  token: string | null;
}

function urlInput(r: SearchRequest, start: number | undefined): HotelSearchUrlInput {
  const { q, checkIn, checkOut, adults, children, currency, gl, hl, sort, minGuestRating, hotelClass, amenities, minPrice, maxPrice } = r;
  return { q, checkIn, checkOut, adults, children, currency, gl, hl, sort, minGuestRating, hotelClass, amenities, minPrice, maxPrice, start };
}

export async function fetchSearchPages(deps: SourceUses<'upstream'>, r: SearchRequest): Promise<SearchPageFetch[]> {
  const out: SearchPageFetch[] = [];
  let token = r.nextPageToken ?? null;
  for (let i = 0; i < r.pages; i++) {
    const start = token === null ? undefined : pageTokenOffset(token);
    if (start === null) throw new BadRequest('invalid next_page_token');
    const page = await fetchSearchPage(deps, urlInput(r, start), { market: r.gl, timer: r.timer });
    if (r.propertyType) page.data.properties = page.data.properties.filter((p) => p.kind === r.propertyType);
    out.push({ ...page, token });
    token = page.data.pagination.next_page_token;
    if (!token || page.data.properties.length === 0) break;
  }
  return out;
}

const Gps = z.object({ latitude: z.number(), longitude: z.number() });

const SearchPropertySchema = z.object({
  position: z.int(),
  page: z.int(),
  type: z.enum(['hotel', 'vacation_rental']).nullable(),
  property_token: z.string().nullable(),
  name: z.string(),
  data_id: z.string().nullable(),
  link: z.string().nullable(),
  description: z.string().nullable(),
  gps_coordinates: Gps.nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  rating: z.number().nullable(),
  reviews: z.int().nullable(),
  hotel_class: z.string().nullable(),
  extracted_hotel_class: z.int().nullable(),
  location_rating: z.number().nullable(),
  check_in_time: z.string().nullable(),
  check_out_time: z.string().nullable(),
  amenities: z.array(z.string()),
  amenity_codes: z.array(z.tuple([z.int(), z.int()])),
  eco_certified: z.boolean().nullable(),
  thumbnail: z.string().nullable(),
  images: z.array(z.object({ thumbnail: z.string(), original: z.string().nullable() })),
  prices: StayPricesSchema.nullable(),
  /** Vacation rentals name the seller of the shown price. */
  sellers: z.array(z.object({ name: z.string(), price_text: z.string().nullable() })),
});

export const SearchOutput = z.object({
  query: z.string(),
  // present only when the page answered another query than `query` (its request echo); the MCP listing is at its byte budget, hence no description
  query_used: z.string().optional(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  currency: z.string(),
  gl: z.string(),
  hl: z.string(),
  total_results: z.int().nullable(),
  pages: z.array(
    z.object({
      page: z.int(),
      page_token: z.string().nullable(),
      records_from: z.int().nullable(),
      records_to: z.int().nullable(),
      properties: z.int(),
      collection_id: z.string(),
      observed_at: z.string(),
    }),
  ),
  properties: z.array(SearchPropertySchema),
  pagination: z.object({ next_page_token: z.string().nullable() }),
});
export type SearchResult = z.infer<typeof SearchOutput>;

function searchProperty(p: PropertyRecord, page: number, position: number, f: Fetched<unknown>, r: SearchRequest): z.infer<typeof SearchPropertySchema> {
  const ctx: PriceContext = {
    token: p.property_token ?? p.data_id ?? p.name,
    checkIn: r.checkIn,
    checkOut: r.checkOut,
    adults: r.adults,
    collectionId: f.collectionId,
    observedAt: f.observedAt,
    requestedMarket: r.gl.toUpperCase(),
    requestedCurrency: r.currency,
    egressMode: f.egressMode,
  };
  return {
    position,
    page,
    type: p.kind,
    property_token: p.property_token,
    name: p.name,
    data_id: p.data_id,
    link: p.link,
    description: p.description,
    gps_coordinates: p.gps_coordinates,
    city: p.city,
    country: p.country,
    rating: p.rating,
    reviews: p.reviews,
    hotel_class: p.hotel_class_text,
    extracted_hotel_class: p.hotel_class,
    location_rating: p.location_rating,
    check_in_time: p.check_in_time,
    check_out_time: p.check_out_time,
    amenities: p.amenities.flatMap((a) => (a.available && a.name ? [a.name] : [])),
    amenity_codes: p.amenities.flatMap((a): [number, number][] => (a.code === null ? [] : [[a.available ? 1 : 0, a.code]])),
    eco_certified: p.eco_certified,
    thumbnail: p.thumbnail,
    images: p.images,
    prices: stayPrices(p.rate, displayBasis(p.rate), ctx),
    sellers: (p.rate?.sellers ?? []).map((s) => ({ name: s.name, price_text: s.price_text })),
  };
}

/** `query_used` when the first page says it answered another query than asked; nothing otherwise. */
function answeredFor(page: SearchPageFetch | undefined, asked: string): { query_used?: string } {
  const used = page ? correctedQuery(page.data, asked) : null;
  return used ? { query_used: used } : {};
}

export function searchResult(pages: SearchPageFetch[], r: SearchRequest, nights: number): SearchResult {
  let position = 0;
  const last = pages[pages.length - 1];
  return {
    query: r.q,
    ...answeredFor(pages[0], r.q),
    check_in: r.checkIn,
    check_out: r.checkOut,
    nights,
    adults: r.adults,
    currency: r.currency,
    gl: r.gl,
    hl: r.hl,
    total_results: pages[0]?.data.total_results ?? null,
    pages: pages.map((f, i) => ({
      page: i + 1,
      page_token: f.token,
      records_from: f.data.pagination.records_from,
      records_to: f.data.pagination.records_to,
      properties: f.data.properties.length,
      collection_id: f.collectionId,
      observed_at: f.observedAt.toISOString(),
    })),
    properties: pages.flatMap((f, i) => f.data.properties.map((p) => searchProperty(p, i + 1, position++, f, r))),
    pagination: { next_page_token: last && last.data.properties.length ? last.data.pagination.next_page_token : null },
  };
}
