/**
 * search_hotels as an agent gets it: one line of facts per property (what it needs to choose one
 * and the property_token to call the next tool with), prices as amounts in one currency, no photo
 * list unless asked, no per-price provenance (the page's collection and time stay). The full record
 * of a property is one get_hotel_details call away; more properties: next_page_token.
 */
import { z } from 'zod';
import type { McpView } from '../../src/core/define-tool.js';
import type { SearchResult } from '../../src/sources/metasearch/hotels/search.js';

const amount = z.number().nullable();

const CompactProperty = z.object({
  property_token: z.string().nullable(),
  name: z.string(),
  type: z.enum(['hotel', 'vacation_rental']).nullable(),
  stars: z.int().nullable(),
  rating: z.number().nullable().describe('guest rating out of 5'),
  reviews: z.int().nullable(),
  location_rating: z.number().nullable(),
  city: z.string().nullable(),
  gps: z.array(z.number()).nullable().describe('[latitude, longitude]'),
  amenities: z.array(z.string()),
  description: z.string().nullable(),
  link: z.string().nullable().describe("the property's own site"),
  price: z
    .object({
      currency: z.string().nullable(),
      nightly: amount,
      total: amount,
      total_before_taxes: amount,
      display_basis: z.enum(['all_in', 'before_taxes']).nullable(),
      check_in: z.string().nullable(),
      check_out: z.string().nullable(),
    })
    .nullable(),
  sellers: z.array(z.object({ name: z.string(), price_text: z.string().nullable() })),
  images: z.array(z.string()).optional(),
});

export const HotelSearchView = z.object({
  query: z.string(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  total_results: z.int().nullable(),
  properties: z.array(CompactProperty),
  next_page_token: z.string().nullable(),
  collection_id: z.string().nullable(),
  observed_at: z.string().nullable(),
});

type Property = SearchResult['properties'][number];

function compact(p: Property): z.infer<typeof CompactProperty> {
  const pr = p.prices;
  return {
    property_token: p.property_token,
    name: p.name,
    type: p.type,
    stars: p.extracted_hotel_class,
    rating: p.rating,
    reviews: p.reviews,
    location_rating: p.location_rating,
    city: p.city,
    gps: p.gps_coordinates ? [p.gps_coordinates.latitude, p.gps_coordinates.longitude] : null,
    amenities: p.amenities,
    description: p.description,
    link: p.link,
    price: pr
      ? {
          currency: pr.currency,
          nightly: pr.nightly?.amount ?? null,
          total: pr.total?.amount ?? null,
          total_before_taxes: pr.total_before_taxes?.amount ?? null,
          display_basis: pr.display_basis,
          check_in: pr.check_in,
          check_out: pr.check_out,
        }
      : null,
    sellers: p.sellers,
    ...(p.images.length ? { images: p.images.map((i) => i.original ?? i.thumbnail) } : {}),
  };
}

export const hotelSearchView: McpView<unknown, SearchResult> = {
  output: HotelSearchView,
  shape: (o) => ({
    query: o.query,
    check_in: o.check_in,
    check_out: o.check_out,
    nights: o.nights,
    adults: o.adults,
    total_results: o.total_results,
    properties: o.properties.map(compact),
    next_page_token: o.pagination.next_page_token,
    collection_id: o.pages[0]?.collection_id ?? null,
    observed_at: o.pages[0]?.observed_at ?? null,
  }),
};

export function hotelSearchSummary(a: Record<string, unknown>): string {
  const v = a as z.infer<typeof HotelSearchView>;
  const priced = v.properties.map((p) => p.price?.nightly).filter((n): n is number => typeof n === 'number');
  const currency = v.properties.find((p) => p.price?.currency)?.price?.currency ?? '';
  const range = priced.length ? `, nightly ${Math.round(Math.min(...priced))}–${Math.round(Math.max(...priced))} ${currency}` : '';
  return `${v.properties.length} properties in ${v.query} for ${v.check_in} → ${v.check_out}${range}${v.next_page_token ? '; more with next_page_token' : ''}.`;
}

/**
 * The text block's lines: one per property with what a model chooses by and the token it calls
 * the next tool with; the long description, coordinates and photo links stay in the structured
 * result (the stay's dates, shared by every price, are said once).
 */
export function hotelSearchText(a: Record<string, unknown>): string[] {
  const v = a as z.infer<typeof HotelSearchView>;
  const head = {
    query: v.query,
    check_in: v.check_in,
    check_out: v.check_out,
    nights: v.nights,
    adults: v.adults,
    total_results: v.total_results,
    next_page_token: v.next_page_token,
  };
  return [
    JSON.stringify(head),
    `properties (${v.properties.length}), prices in ${v.properties.find((p) => p.price?.currency)?.price?.currency ?? 'the currency stated'} for the whole stay and per night:`,
    ...v.properties.map((p) => {
      const price = p.price
        ? { nightly: p.price.nightly, total: p.price.total, ...(p.price.display_basis === 'before_taxes' ? { before_taxes: true } : {}) }
        : null;
      const line = {
        name: p.name,
        property_token: p.property_token,
        ...(p.type === 'vacation_rental' ? { type: p.type } : {}),
        stars: p.stars,
        rating: p.rating,
        reviews: p.reviews,
        city: p.city,
        price,
        ...(p.sellers.length ? { sellers: p.sellers.map((s) => `${s.name}${s.price_text ? ` ${s.price_text}` : ''}`) } : {}),
        amenities: p.amenities,
        ...(p.link ? { link: p.link } : {}),
      };
      return `- ${JSON.stringify(Object.fromEntries(Object.entries(line).filter(([, x]) => x !== null)))}`;
    }),
  ];
}
