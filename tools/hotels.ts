import { z } from 'zod';
import { countryLower, countryUpper, currency, isoDate } from '../src/domain/codes.js';
import { PRICING_MARKET_CODES } from '../src/domain/markets.js';
import type { Tool } from '../src/registry/define-tool.js';
import { defineTool } from '../src/registry/define-tool.js';
import { queryInt } from '../src/registry/query.js';
import { SearchMetadataSchema, SearchTimer, echoParameters } from '../src/sources/shared/search-metadata.js';
import { OffersOutput, RoomsOutput, runOffers, runRooms, runStay, StayOutput } from '../src/sources/metasearch/hotels/offers-run.js';
import { loadProperty, priceContext, propertyDetails, PropertyDetailsSchema, toCompatPropertyDetail } from '../src/sources/metasearch/hotels/property.js';
import { ResolveOutput, runResolve } from '../src/sources/metasearch/hotels/resolve.js';
import { runSearch, SearchOutput, searchResult } from '../src/sources/metasearch/hotels/search.js';
import { stayDates, transportStay } from '../src/sources/metasearch/hotels/stay.js';
import { toCompatSearch } from '../src/sources/metasearch/hotels/to-compat.js';
import { AMENITY_FILTER_CODES, type AmenityFilter } from '../src/sources/metasearch/hotels/ts-param.js';

const hl = z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,4})?$/, 'Input should be a language code such as en or en-GB');
const token = z.string().min(8).max(200).regex(/^[A-Za-z0-9_-]+$/, 'Input should be a property token');
const sortBy = z.enum(['relevance', 'lowest_price', 'highest_rating', 'most_reviewed']);
const propertyType = z.enum(['hotel', 'vacation_rental']);
const amenityNames = Object.keys(AMENITY_FILTER_CODES) as [AmenityFilter, ...AmenityFilter[]];
const device = z.enum(['android', 'desktop', 'iphone']);
const adults = z.int().min(1).max(8).default(2);
const Compat = z.record(z.string(), z.unknown());
const BrandChild = z.object({ id: z.int(), title: z.string().nullable() });
const Brand = BrandChild.extend({ children: z.array(BrandChild).optional() });
/** The compatible API's rating filter: 3.5/4/4.5, or its 7/8/9 (twice the rating). */
const RATING_BY_CODE: Record<string, 3.5 | 4 | 4.5> = { '3.5': 3.5, '4': 4, '4.5': 4.5, '7': 3.5, '8': 4, '9': 4.5 };
const queryRating = z.preprocess((v) => (v === undefined ? v : (RATING_BY_CODE[String(v)] ?? v)), z.union([z.literal(3.5), z.literal(4), z.literal(4.5)]));
const csvInts = (max: number) => z.string().regex(new RegExp(`^\\d{1,2}(,\\d{1,2}){0,${max - 1}}$`), 'Input should be comma-separated integers');
const csvList = (s: string | undefined) => (s ? s.split(',').map(Number) : undefined);
/** The compatible API takes gl and currency in either case. */
const anyCaseGl = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), countryLower);
const anyCaseCurrency = z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), currency);

// ------------------------------------------------------------------ resolve

export const resolveHotel = defineTool({
  name: 'resolve_hotel',
  title: 'Resolve a hotel name to property tokens',
  description:
    'Turns a hotel name (plus city, strongly recommended) into metasearch property tokens, best match first. Use it first: every other hotel tool (get_hotel_details, get_hotel_offers, get_hotel_rooms, get_stay_price, get_hotel_calendar) takes the token it returns. ' +
    'The market is searched first; fallback_markets (default [US]) are tried in order only when a market returns no candidate. With verify (default on, no extra credits) each candidate is opened to confirm its token prices and to read back its real name; matches are ordered verified first, then by name_score (word overlap with the requested name), then upstream rank. ' +
    'search_status is not_found and external_fallback_recommended true when nothing matches. Tokens are stable: resolve once and store. Costs 1 credit; a result without candidates is free.',
  method: 'POST',
  path: '/v1/search',
  tags: ['hotels'],
  input: z.strictObject({
    name: z.string().trim().min(1).max(200),
    city: z.string().max(200).default(''),
    market: countryUpper.nullable().optional(),
    fallback_markets: z.array(countryUpper).max(5).default(['US']),
    currency: currency.nullable().optional(),
    limit: z.int().min(1).max(10).default(5),
    verify: z.boolean().default(true),
  }),
  output: ResolveOutput,
  credits: 1,
  isEmpty: (o) => o.matches.length === 0,
  mcp: { expose: true, title: 'Resolve hotel' },
  handler: (input, { deps }) => runResolve(deps, input),
});

// ------------------------------------------------------------------ search

const searchFilters = {
  sort_by: sortBy.default('relevance'),
  min_price: z.int().min(0).optional(),
  max_price: z.int().min(1).optional(),
  rating: z.union([z.literal(3.5), z.literal(4), z.literal(4.5)]).optional(),
  hotel_class: z.array(z.int().min(1).max(5)).max(5).optional(),
  amenities: z.array(z.enum(amenityNames)).max(7).optional(),
  property_type: propertyType.optional(),
};

export const searchHotels = defineTool({
  name: 'search_hotels',
  title: 'Search hotels in a destination',
  description:
    'Hotels and vacation rentals of a destination for one stay, as the metasearch engine ranks them: property token, name, rating, class, GPS, amenities and the headline price (nightly, stay total, before-taxes amount, taxes and fees when the engine gives them, each with provenance). ' +
    'Fetches `pages` result pages (about 18 properties each) in a row, or continues from next_page_token. Pass a property_token to get_hotel_details, get_hotel_offers or get_stay_price; for a known hotel name use resolve_hotel instead. ' +
    'Costs 3 credits per page fetched; an empty page is free.',
  method: 'POST',
  path: '/v1/hotels/search',
  tags: ['hotels'],
  input: z.strictObject({
    q: z.string().trim().min(1).max(300),
    check_in: isoDate,
    check_out: isoDate.nullable().optional(),
    nights: z.int().min(1).max(30).default(1),
    adults,
    children_ages: z.array(z.int().min(0).max(17)).max(6).default([]),
    currency: currency.default('USD'),
    gl: countryLower.default('us'),
    hl: hl.default('en'),
    ...searchFilters,
    pages: z.int().min(1).max(5).default(1),
    next_page_token: z.string().min(1).max(100).optional(),
  }),
  output: SearchOutput,
  credits: {
    base: 3,
    note: 'per page fetched; an empty page is free',
    max: (i) => 3 * i.pages,
    actual: (_i, o) => 3 * o.pages.filter((p) => p.properties > 0).length,
  },
  mcp: { expose: true, title: 'Search hotels' },
  async handler(i, { deps }) {
    const stay = stayDates(i.check_in, i.check_out, i.nights);
    const request = {
      q: i.q,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      adults: i.adults,
      children: i.children_ages,
      currency: i.currency,
      gl: i.gl,
      hl: i.hl,
      sort: i.sort_by,
      minPrice: i.min_price,
      maxPrice: i.max_price,
      minGuestRating: i.rating,
      hotelClass: i.hotel_class,
      amenities: i.amenities,
      pages: i.pages,
      nextPageToken: i.next_page_token,
      propertyType: i.property_type,
    };
    return searchResult(await runSearch(deps, request), request, stay.nights);
  },
});

export const serpHotels = defineTool({
  name: 'serp_metasearch_hotels',
  title: 'Hotel search (compatible shape)',
  description:
    'The destination search in the compatible search API\'s google_hotels shape (search_metadata, search_parameters, search_information, properties, pagination, brands), one page per call; follow pagination.next_page_token. property_type keeps only results of that type on the fetched page. Also GET /api/v1/search?engine=metasearch_hotels. Costs 3 credits per page; an empty page is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_hotels',
  tags: ['compatible'],
  input: z.strictObject({
    engine: z.literal('metasearch_hotels').optional().describe('This engine’s name (the compatible API sends it).'),
    q: z.string().trim().min(1).max(300).describe('What to search, as typed on the site: a destination or a hotel name, e.g. hotels in Lisbon.'),
    check_in_date: isoDate.describe('Check-in, YYYY-MM-DD.'),
    check_out_date: isoDate.describe('Check-out, YYYY-MM-DD.'),
    adults: queryInt.pipe(z.int().min(1).max(8)).default(2).describe('Adults staying.'),
    children_ages: csvInts(6).optional().describe('Ages of the children staying, comma-separated (e.g. 5,9).'),
    currency: anyCaseCurrency.default('USD').describe('Currency of the prices (ISO 4217).'),
    gl: anyCaseGl.default('us').describe('Two-letter country the search is made from.'),
    hl: hl.default('en').describe('Language of the texts, e.g. en.'),
    sort_by: sortBy.optional().describe('Order of the results; the site’s relevance when absent.'),
    min_price: queryInt.pipe(z.int().min(0)).optional().describe('Lowest nightly price, in currency.'),
    max_price: queryInt.pipe(z.int().min(1)).optional().describe('Highest nightly price, in currency.'),
    rating: queryRating.optional().describe('Lowest guest rating: 3.5, 4 or 4.5 (the compatible API’s codes 7, 8 and 9 are accepted).'),
    hotel_class: csvInts(5).optional().describe('Hotel classes (stars) to keep, comma-separated (e.g. 4,5).'),
    property_type: propertyType.optional().describe('Kind of property to keep.'),
    next_page_token: z.string().min(1).max(100).optional().describe('next_page_token of the previous page, for the next page.'),
  }),
  output: z.object({
    search_metadata: SearchMetadataSchema,
    search_parameters: z.record(z.string(), z.string()),
    search_information: z.object({ total_results: z.int() }).optional(),
    pagination: z.object({ records_from: z.int().optional(), records_to: z.int().optional(), next_page_token: z.string().optional() }).optional(),
    brands: z.array(Brand).optional(),
    properties: z.array(Compat),
  }),
  credits: 3,
  isEmpty: (o) => o.properties.length === 0,
  async handler(i, { deps, requestId }) {
    const stay = stayDates(i.check_in_date, i.check_out_date, 1);
    const timer = new SearchTimer();
    const [page] = await runSearch(deps, {
      q: i.q,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      adults: i.adults,
      children: csvList(i.children_ages),
      currency: i.currency,
      gl: i.gl,
      hl: i.hl,
      sort: i.sort_by,
      minPrice: i.min_price,
      maxPrice: i.max_price,
      minGuestRating: i.rating,
      hotelClass: csvList(i.hotel_class),
      pages: 1,
      nextPageToken: i.next_page_token,
      propertyType: i.property_type,
      timer,
    });
    return {
      search_metadata: timer.metadata(requestId, page.requestUrl, { collection_id: page.collectionId, observed_at: page.observedAt.toISOString(), wire_bytes: page.wireBytes }),
      search_parameters: echoParameters({ engine: 'metasearch_hotels', ...i }),
      ...toCompatSearch(page.data),
    };
  },
});

// ---------------------------------------------------------------- property

export const getHotelDetails = defineTool({
  name: 'get_hotel_details',
  title: 'Hotel details',
  description:
    "One property's address-bearing details from its own metasearch page: name, address, phone, GPS, class, rating and review histogram, amenities (names and [available, code] pairs), images, nearby places, check-in/out times and the headline price of a one-night stay 14 days ahead (the dates only carry the request; use get_stay_price for a real stay). " +
    'Use it to confirm a property before targeting it. Needs a property_token from resolve_hotel or search_hotels. Costs 3 credits; unknown token → 404.',
  method: 'POST',
  path: '/v1/hotels/property',
  tags: ['hotels'],
  input: z.strictObject({
    property_token: z.string().min(10).max(200),
    currency: currency.default('USD'),
    gl: countryLower.default('us'),
    hl: hl.default('en'),
  }),
  output: PropertyDetailsSchema,
  credits: 3,
  mcp: { expose: true, title: 'Get hotel details' },
  async handler(i, { deps }) {
    const stay = transportStay();
    const f = await loadProperty(deps, { token: i.property_token, stay, adults: 2, currency: i.currency, gl: i.gl, hl: i.hl });
    return propertyDetails(f.data, i.property_token, priceContext(f, { token: i.property_token, stay, adults: 2, market: i.gl.toUpperCase(), currency: i.currency }));
  },
});

export const serpHotelsProperty = defineTool({
  name: 'serp_metasearch_hotels_property',
  title: 'Hotel property (compatible shape)',
  description:
    "One property in the compatible search API's google_hotels_property shape (property with address, phone, prices, featured_offers, all_offers with rooms, price_insights). Also GET /api/v1/search?engine=metasearch_hotels_property. Without dates a one-night stay 14 days ahead is priced. Costs 3 credits.",
  method: 'POST',
  path: '/v1/serp/metasearch_hotels_property',
  tags: ['compatible'],
  input: z.strictObject({
    engine: z.literal('metasearch_hotels_property').optional().describe('This engine’s name (the compatible API sends it).'),
    property_token: z.string().min(10).max(200).describe('Property token of a search result (or of resolve_hotel).'),
    check_in_date: isoDate.optional().describe('Check-in, YYYY-MM-DD; without dates a one-night stay 14 days ahead is priced.'),
    check_out_date: isoDate.optional().describe('Check-out, YYYY-MM-DD.'),
    adults: queryInt.pipe(z.int().min(1).max(8)).default(2).describe('Adults staying.'),
    children_ages: csvInts(6).optional().describe('Ages of the children staying, comma-separated (e.g. 5,9).'),
    currency: anyCaseCurrency.default('USD').describe('Currency of the prices (ISO 4217).'),
    gl: anyCaseGl.default('us').describe('Two-letter country the search is made from.'),
    hl: hl.default('en').describe('Language of the texts, e.g. en.'),
  }),
  output: z.object({ search_metadata: SearchMetadataSchema, search_parameters: z.record(z.string(), z.string()), property: Compat }),
  credits: 3,
  async handler(i, { deps, requestId }) {
    const stay = i.check_in_date ? stayDates(i.check_in_date, i.check_out_date, 1) : transportStay();
    const timer = new SearchTimer();
    const f = await loadProperty(deps, { token: i.property_token, stay, adults: i.adults, childrenAges: csvList(i.children_ages), currency: i.currency, gl: i.gl, hl: i.hl, timer });
    return {
      search_metadata: timer.metadata(requestId, f.requestUrl, { collection_id: f.collectionId, observed_at: f.observedAt.toISOString(), wire_bytes: f.wireBytes }),
      search_parameters: echoParameters({ engine: 'metasearch_hotels_property', ...i, check_in_date: stay.checkIn, check_out_date: stay.checkOut }),
      property: toCompatPropertyDetail(f.data),
    };
  },
});

// ------------------------------------------------------- offers, rooms, stay

const stayInput = {
  token,
  check_in: isoDate,
  check_out: isoDate.nullable().optional(),
  nights: z.int().min(1).max(30).default(1),
  market: z.enum(PRICING_MARKET_CODES).nullable().optional(),
  currency: currency.nullable().optional(),
  adults,
  device: device.default('iphone'),
};

export const getHotelOffers = defineTool({
  name: 'get_hotel_offers',
  title: 'Offers per seller for a stay',
  description:
    "Every seller's price for one stay of one property (official site, OTAs, optionally metasearch sites), from the property's own metasearch page: per-seller nightly and total price on the page's display basis, free-cancellation deadline, rooms where the seller names them, provenance per offer, plus the headline, price insights and which required sources are missing. " +
    'Heavy: use for dates that matter (get_hotel_calendar for many dates). Needs a token from resolve_hotel. coverage fetches 1-3 device profiles and merges them; a render missing a required source is retried once. has_deal, has_member_rate and discount_remarks are not read from this source and are null. Costs 3 credits; no offer is free.',
  method: 'POST',
  path: '/v1/offers',
  tags: ['hotels'],
  input: z.strictObject({
    ...stayInput,
    rates_include_tax: z.boolean().nullable().optional(),
    property_name: z.string().max(300).default(''),
    include_metasearch: z.boolean().default(false),
    free_cancellation_only: z.boolean().default(false),
    coverage: z.int().min(1).max(3).default(1),
    require_sources: z.array(z.string().min(1).max(60)).max(10).nullable().optional(),
  }),
  output: OffersOutput,
  credits: 3,
  isEmpty: (o) => o.offers.length === 0,
  mcp: { expose: true, title: 'Get hotel offers' },
  handler: (i, { deps }) => runOffers(deps, { ...i, hl: 'en' }),
});

export const getHotelRooms = defineTool({
  name: 'get_hotel_rooms',
  title: 'Rooms per seller for a stay',
  description:
    "The rooms each seller lists for one stay of one property, read from the property's own metasearch page. Design: one entry per seller that names rooms; each room rate is a Room (name, link, price_total when the page shows prices with taxes or price_before_taxes when without, price_text as displayed, suite flag from the name, free-cancellation deadline, provenance). Sellers that show a price without naming a room are left out (see get_hotel_offers). " +
    'Needs a token from resolve_hotel. Costs 3 credits; no room listed is free.',
  method: 'POST',
  path: '/v1/rooms',
  tags: ['hotels'],
  input: z.strictObject(stayInput),
  output: RoomsOutput,
  credits: 3,
  isEmpty: (o) => o.rooms_total === 0,
  mcp: { expose: true, title: 'Get hotel rooms' },
  handler: (i, { deps }) => runRooms(deps, { ...i, hl: 'en' }),
});

export const getStayPrice = defineTool({
  name: 'get_stay_price',
  title: 'Headline price of a stay',
  description:
    "The metasearch engine's headline price for one stay of one property and its split, each figure with provenance: total with taxes and fees, amount before taxes, taxes, fees (as the engine breaks them down), the nightly price as displayed and which basis the page displays; plus the cheapest seller (name, total, link). Design: read from the property's own page; available is false and price null when nothing is bookable. " +
    'Lighter to read than get_hotel_offers. Needs a token from resolve_hotel. Costs 3 credits; an unpriced stay is free.',
  method: 'POST',
  path: '/v1/stay',
  tags: ['hotels'],
  input: z.strictObject(stayInput),
  output: StayOutput,
  credits: 3,
  isEmpty: (o) => !o.available,
  mcp: { expose: true, title: 'Get stay price' },
  handler: (i, { deps }) => runStay(deps, { ...i, hl: 'en' }),
});

export const HOTEL_TOOLS: Tool[] = [resolveHotel, searchHotels, serpHotels, getHotelDetails, serpHotelsProperty, getHotelOffers, getHotelRooms, getStayPrice];

/** Engines of GET /api/v1/search served by these tools (their inputs accept query-string values). */
export const HOTEL_ENGINES: Record<string, Tool> = {
  metasearch_hotels: serpHotels,
  metasearch_hotels_property: serpHotelsProperty,
};
