import { z } from 'zod';
import { countryLower, countryUpper, currency, futureDate } from '../src/domain/codes.js';
import { PRICING_MARKET_CODES } from '../src/domain/markets.js';
import type { Tool } from '../src/core/define-tool.js';
import { defineTool } from '../src/core/define-tool.js';
import { queryInt } from '../src/domain/query-params.js';
import { COMPAT_COMMON_FIELDS } from '../src/core/compat/engine.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { BadRequest } from '../src/domain/errors.js';
import { SearchMetadataSchema, SearchTimer, echoParameters } from '../src/sources/shared/search-metadata.js';
import { asToken, propertyTokenFields } from '../src/sources/metasearch/hotels/property-token.js';
import { OffersOutput, RoomsOutput, runOffers, runRooms, runStay, StayOutput } from '../src/sources/metasearch/hotels/offers-run.js';
import { loadProperty, priceContext, propertyDetails, PropertyDetailsSchema, toCompatPropertyDetail } from '../src/sources/metasearch/hotels/property.js';
import { ResolveOutput, runResolve } from '../src/sources/metasearch/hotels/resolve.js';
import { fetchSearchPages, SearchOutput, searchResult } from '../src/sources/metasearch/hotels/search.js';
import { stayDates, transportStay } from '../src/sources/metasearch/hotels/stay.js';
import { toCompatSearch } from '../src/sources/metasearch/hotels/to-compat.js';
import { AMENITY_FILTER_CODES, type AmenityFilter } from '../src/sources/metasearch/hotels/ts-param.js';
import { hotelSearchSummary, hotelSearchText, hotelSearchView } from './views/hotel-search.js';
import { SUMMARIES } from './views/summaries.js';

const hl = z
  .string()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,4})?$/, 'Input should be a language code such as en or en-GB')
  .describe('language, e.g. en');
const token = z
  .string()
  .min(8)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'Input should be a property token');
const gl = countryLower.describe('market country, lowercase, e.g. us');
const sortBy = z.enum(['relevance', 'lowest_price', 'highest_rating', 'most_reviewed']);
const propertyType = z.enum(['hotel', 'vacation_rental']);
const amenityNames = Object.keys(AMENITY_FILTER_CODES) as [AmenityFilter, ...AmenityFilter[]];
const device = z.enum(['android', 'desktop', 'iphone']).describe('device profile of the page');
const adults = z.int().min(1).max(8).default(2).describe('adult guests');
const Compat = z.record(z.string(), z.unknown());
const BrandChild = z.object({ id: z.int(), title: z.string().nullable() });
const Brand = BrandChild.extend({ children: z.array(BrandChild).optional() });
/** The compatible API's rating filter: 3.5/4/4.5, or its 7/8/9 (twice the rating). */
const RATING_BY_CODE: Record<string, 3.5 | 4 | 4.5> = { '3.5': 3.5, '4': 4, '4.5': 4.5, '7': 3.5, '8': 4, '9': 4.5 };
const queryRating = z.preprocess(
  (v) => (typeof v === 'string' || typeof v === 'number' ? (RATING_BY_CODE[String(v)] ?? v) : v),
  z.union([z.literal(3.5), z.literal(4), z.literal(4.5)]),
);
const csvInts = (max: number) => z.string().regex(new RegExp(`^\\d{1,2}(,\\d{1,2}){0,${max - 1}}$`), 'Input should be comma-separated integers');
const csvList = (s: string | undefined) => (s ? s.split(',').map(Number) : undefined);
const AMENITY_BY_CODE = new Map(Object.entries(AMENITY_FILTER_CODES).map(([name, code]) => [code as number, name as AmenityFilter]));
/** The compatible API's amenity filter codes (the engine's own numbers) to our names; unknown codes are refused. */
function amenitiesByCode(codes: number[] | undefined): AmenityFilter[] | undefined {
  if (!codes) return undefined;
  const unknown = codes.filter((c) => !AMENITY_BY_CODE.has(c));
  if (unknown.length) throw new BadRequest(`amenities: code(s) ${unknown.join(',')} cannot be applied; supported: ${[...AMENITY_BY_CODE.keys()].join(',')}`);
  return codes.map((c) => AMENITY_BY_CODE.get(c)!);
}
/** The compatible API takes gl and currency in either case. */
const anyCaseGl = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), countryLower);
const anyCaseCurrency = z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), currency);

// ------------------------------------------------------------------ resolve

const resolveHotel = defineTool({
  name: 'resolve_hotel',
  title: 'Resolve a hotel name to property tokens',
  description:
    "Finds a hotel's property token from its name (add the city), best match first: start here, the other hotel tools take each match's token as property_token. market, then fallback_markets, are searched until one has candidates; verify (free) opens each candidate to confirm it prices and read its real name. search_status not_found when nothing matches. Tokens are stable: store them. Hotels are found on Google Hotels (the metasearch alias).",
  method: 'POST',
  path: '/v1/search',
  tags: ['hotels'],
  input: z.strictObject({
    name: z.string().trim().min(1).max(200).describe('hotel name'),
    city: z.string().max(200).default('').describe('city; strongly recommended'),
    market: countryUpper.nullable().optional().describe('country searched first, uppercase, e.g. GB'),
    fallback_markets: z.array(countryUpper).max(5).default(['US']).describe('countries tried next, in order'),
    currency: currency.nullable().optional(),
    limit: z.int().min(1).max(10).default(5).describe('most matches returned'),
    verify: z.boolean().default(true).describe('open each candidate to confirm it'),
    ...CACHE_FIELD,
  }),
  output: ResolveOutput,
  credits: 1,
  free: 'nothing matches',
  cache: 'details',
  isEmpty: (o) => o.matches.length === 0,
  mcp: { expose: true, title: 'Resolve hotel', summary: SUMMARIES.resolve_hotel },
  handler: (input, { deps }) => runResolve(deps, input),
});

// ------------------------------------------------------------------ search

const searchFilters = {
  sort_by: sortBy.default('relevance').describe('result order'),
  min_price: z.int().min(0).optional().describe('lowest nightly price'),
  max_price: z.int().min(1).optional().describe('highest nightly price'),
  rating: z
    .union([z.literal(3.5), z.literal(4), z.literal(4.5)])
    .optional()
    .describe('lowest guest rating'),
  hotel_class: z.array(z.int().min(1).max(5)).max(5).optional().describe('star classes, e.g. [4, 5]'),
  amenities: z.array(z.enum(amenityNames)).max(7).optional().describe('amenities every result has'),
  property_type: propertyType.optional().describe('only hotels or only vacation rentals'),
};

export const searchHotels = defineTool({
  name: 'search_hotels',
  title: 'Search hotels in a destination',
  description:
    'Hotels and rentals of a destination for one stay as Google Hotels (the metasearch alias) ranks them: property_token, name, rating, stars, GPS, amenities, price (nightly and stay total, one currency) and sellers. About 18 per page: more with pages or next_page_token. Filters: min_price/max_price (nightly), hotel_class (stars), rating (guest rating), amenities. Pass a property_token to get_hotel_details (the full record), get_hotel_offers, get_stay_price or get_hotel_calendar; for a known name use resolve_hotel. Photos on request (images_per_property).',
  method: 'POST',
  path: '/v1/hotels/search',
  tags: ['hotels'],
  input: z.strictObject({
    q: z.string().trim().min(1).max(300).describe('destination, e.g. Lisbon'),
    check_in: futureDate.describe('arrival date'),
    check_out: futureDate.nullable().optional().describe('departure date; wins over nights'),
    nights: z.int().min(1).max(30).default(1).describe('nights of the stay'),
    adults,
    children_ages: z.array(z.int().min(0).max(17)).max(6).default([]).describe('age of each child'),
    currency: currency.default('USD'),
    gl: gl.default('us'),
    hl: hl.default('en'),
    ...searchFilters,
    pages: z.int().min(1).max(5).default(1).describe('result pages fetched in a row'),
    next_page_token: z.string().min(1).max(100).optional().describe('pagination.next_page_token of a previous answer'),
    images_per_property: z.int().min(0).max(100).optional().describe('photo URLs kept per property; all when absent'),
    ...CACHE_FIELD,
  }),
  output: SearchOutput,
  credits: {
    base: 3,
    note: 'per page fetched; an empty page is free',
    per: 'page',
    free: 'a page is empty',
    max: (i) => 3 * i.pages,
    actual: (_i, o) => 3 * o.pages.filter((p) => p.properties > 0).length,
  },
  cache: 'prices',
  // an agent gets the thumbnail and no photo list unless it asks: photos are most of a page's size
  mcp: {
    expose: true,
    title: 'Search hotels',
    defaults: { images_per_property: 0 },
    maximums: { pages: 2, images_per_property: 3 },
    view: hotelSearchView,
    app: 'hotel-search',
    summary: hotelSearchSummary,
    text: hotelSearchText,
  },
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
    const result = searchResult(await fetchSearchPages(deps, request), request, stay.nights);
    const keep = i.images_per_property;
    return keep === undefined ? result : { ...result, properties: result.properties.map((p) => ({ ...p, images: p.images.slice(0, keep) })) };
  },
});

export const serpHotels = defineTool({
  name: 'serp_metasearch_hotels',
  title: 'Hotel search (compatible shape)',
  description:
    "The destination search in the compatible search API's google_hotels shape (search_metadata, search_parameters, search_information, properties, pagination, brands), one page per call; follow pagination.next_page_token. property_type keeps only results of that type on the fetched page. Also GET /api/v1/search?engine=metasearch_hotels. Costs 3 credits per page; an empty page is free.",
  method: 'POST',
  path: '/v1/serp/metasearch_hotels',
  tags: ['compatible'],
  input: z.strictObject({
    engine: z.literal('metasearch_hotels').optional().describe('This engine’s name (the compatible API sends it).'),
    q: z.string().trim().min(1).max(300).describe('What to search, as typed on the site: a destination or a hotel name, e.g. hotels in Lisbon.'),
    check_in_date: futureDate.describe('Check-in, YYYY-MM-DD.'),
    check_out_date: futureDate.describe('Check-out, YYYY-MM-DD.'),
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
    amenities: csvInts(7)
      .optional()
      .describe(
        `Amenity codes of the engine, comma-separated: ${Object.entries(AMENITY_FILTER_CODES)
          .map(([n, c]) => `${c} ${n}`)
          .join(', ')}.`,
      ),
    property_type: propertyType.optional().describe('Kind of property to keep.'),
    next_page_token: z.string().min(1).max(100).optional().describe('next_page_token of the previous page, for the next page.'),
    ...COMPAT_COMMON_FIELDS,
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_metadata: SearchMetadataSchema,
    search_parameters: z.record(z.string(), z.string()),
    search_information: z
      .object({
        total_results: z.int().optional(),
        corrected_query: z.string().optional().describe('the query the page says it answered, when not the one asked'),
        original_query: z.string().optional().describe('the query asked, beside corrected_query'),
      })
      .optional(),
    pagination: z.object({ records_from: z.int().optional(), records_to: z.int().optional(), next_page_token: z.string().optional() }).optional(),
    brands: z.array(Brand).optional(),
    properties: z.array(Compat),
  }),
  credits: 3,
  isEmpty: (o) => o.properties.length === 0,
  cache: 'prices',
  async handler(i, { deps, requestId }) {
    const stay = stayDates(i.check_in_date, i.check_out_date, 1);
    const timer = new SearchTimer();
    const [page] = await fetchSearchPages(deps, {
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
      amenities: amenitiesByCode(csvList(i.amenities)),
      pages: 1,
      nextPageToken: i.next_page_token,
      propertyType: i.property_type,
      timer,
    });
    return {
      search_metadata: timer.metadata(requestId, page.requestUrl, {
        collection_id: page.collectionId,
        observed_at: page.observedAt.toISOString(),
        wire_bytes: page.wireBytes,
      }),
      search_parameters: echoParameters({ engine: 'metasearch_hotels', ...i }),
      ...toCompatSearch(page.data, i.q),
    };
  },
});

// ---------------------------------------------------------------- property

const getHotelDetails = defineTool({
  name: 'get_hotel_details',
  title: 'Hotel details',
  description:
    "One property's details from its metasearch page: name, address, phone, GPS, class, ratings and reviews, amenities, images, nearby places, check-in/out times, link (often the hotel's own site, for get_official_rate) and a one-night price 14 days ahead (get_stay_price prices a real stay), from its Google Hotels page. Needs a property_token from resolve_hotel or search_hotels; an unknown token is a 404.",
  method: 'POST',
  path: '/v1/hotels/property',
  tags: ['hotels'],
  input: z.strictObject({
    property_token: z.string().min(10).max(200).describe('from resolve_hotel or search_hotels'),
    currency: currency.default('USD'),
    gl: gl.default('us'),
    hl: hl.default('en'),
    ...CACHE_FIELD,
  }),
  output: PropertyDetailsSchema,
  credits: 3,
  cache: 'details',
  mcp: { expose: true, title: 'Get hotel details', summary: SUMMARIES.get_hotel_details },
  async handler(i, { deps }) {
    const stay = transportStay();
    const f = await loadProperty(deps, { token: i.property_token, stay, adults: 2, currency: i.currency, gl: i.gl, hl: i.hl });
    return propertyDetails(
      f.data,
      i.property_token,
      priceContext(f, { token: i.property_token, stay, adults: 2, market: i.gl.toUpperCase(), currency: i.currency }),
    );
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
    check_in_date: futureDate.optional().describe('Check-in, YYYY-MM-DD; without dates a one-night stay 14 days ahead is priced.'),
    check_out_date: futureDate.optional().describe('Check-out, YYYY-MM-DD.'),
    adults: queryInt.pipe(z.int().min(1).max(8)).default(2).describe('Adults staying.'),
    children_ages: csvInts(6).optional().describe('Ages of the children staying, comma-separated (e.g. 5,9).'),
    currency: anyCaseCurrency.default('USD').describe('Currency of the prices (ISO 4217).'),
    gl: anyCaseGl.default('us').describe('Two-letter country the search is made from.'),
    hl: hl.default('en').describe('Language of the texts, e.g. en.'),
    ...COMPAT_COMMON_FIELDS,
    ...CACHE_FIELD,
  }),
  output: z.object({ search_metadata: SearchMetadataSchema, search_parameters: z.record(z.string(), z.string()), property: Compat }),
  credits: 3,
  cache: 'prices',
  async handler(i, { deps, requestId }) {
    const stay = i.check_in_date ? stayDates(i.check_in_date, i.check_out_date, 1) : transportStay();
    const timer = new SearchTimer();
    const f = await loadProperty(deps, {
      token: i.property_token,
      stay,
      adults: i.adults,
      childrenAges: csvList(i.children_ages),
      currency: i.currency,
      gl: i.gl,
      hl: i.hl,
      timer,
    });
    return {
      search_metadata: timer.metadata(requestId, f.requestUrl, {
        collection_id: f.collectionId,
        observed_at: f.observedAt.toISOString(),
        wire_bytes: f.wireBytes,
      }),
      search_parameters: echoParameters({ engine: 'metasearch_hotels_property', ...i, check_in_date: stay.checkIn, check_out_date: stay.checkOut }),
      property: toCompatPropertyDetail(f.data),
    };
  },
});

// ------------------------------------------------------- offers, rooms, stay

const stayInput = {
  ...propertyTokenFields(token),
  check_in: futureDate.describe('arrival date'),
  check_out: futureDate.nullable().optional().describe('departure date; wins over nights'),
  nights: z.int().min(1).max(30).default(1).describe('nights of the stay'),
  market: z.enum(PRICING_MARKET_CODES).nullable().optional().describe('pricing market: country, currency and tax display'),
  currency: currency.nullable().optional(),
  adults,
  device: device.default('iphone'),
  ...CACHE_FIELD,
};

export const getHotelOffers = defineTool({
  name: 'get_hotel_offers',
  title: 'Offers per seller for a stay',
  description:
    "Every seller's price for one stay of one property as its Google Hotels page lists them (the hotel's official site, Booking.com, Expedia, Hotels.com, Agoda … by their own names; optionally metasearch sites): nightly and total per seller, official site flagged, free-cancellation deadline, rooms where named, price insights, required sources missing. Answers 'is Booking cheaper than the hotel's site?' for one stay. Heavy: for many dates use get_hotel_calendar. Needs a property_token (resolve_hotel, search_hotels).",
  method: 'POST',
  path: '/v1/offers',
  tags: ['hotels'],
  input: z
    .strictObject({
      ...stayInput,
      rates_include_tax: z.boolean().nullable().optional().describe('prices with taxes; default per market'),
      property_name: z.string().max(300).default('').describe("hotel's name, to recognise its official site"),
      include_metasearch: z.boolean().default(false).describe('also list metasearch sites'),
      free_cancellation_only: z.boolean().default(false).describe('only freely cancellable offers'),
      coverage: z.int().min(1).max(3).default(1).describe('device profiles fetched and merged'),
      require_sources: z.array(z.string().min(1).max(60)).max(10).nullable().optional().describe('sellers expected; a page missing one is fetched again once'),
    })
    .transform(asToken),
  output: OffersOutput,
  credits: 3,
  free: 'no seller offers the stay',
  cache: 'prices',
  partial: (o) => o.missing_sources.length > 0,
  isEmpty: (o) => o.offers.length === 0,
  // several device profiles: a ~3 MB page each, and a retry when a required source is missing
  mcp: {
    expose: true,
    title: 'Get hotel offers',
    task: { when: (i) => i.coverage > 1, seconds: (i) => 10 * i.coverage },
    requires: { required: ['property_token'] },
    summary: SUMMARIES.get_hotel_offers,
    app: 'hotel-offers',
  },
  handler: (i, { deps }) => runOffers(deps, { ...i, hl: 'en' }),
});

const getHotelRooms = defineTool({
  name: 'get_hotel_rooms',
  title: 'Rooms per seller for a stay',
  description:
    'The rooms each seller (Booking.com, the official site …, as Google Hotels lists them) offers for one stay of one property: per seller, each room with name, link, total (or before-tax) price as shown, free-cancellation deadline and provenance; sellers naming no room are left out (see get_hotel_offers). Needs a property_token (resolve_hotel, search_hotels).',
  method: 'POST',
  path: '/v1/rooms',
  tags: ['hotels'],
  input: z.strictObject(stayInput).transform(asToken),
  output: RoomsOutput,
  credits: 3,
  free: 'no room is listed',
  cache: 'prices',
  isEmpty: (o) => o.rooms_total === 0,
  mcp: { expose: true, title: 'Get hotel rooms', requires: { required: ['property_token'] }, summary: SUMMARIES.get_hotel_rooms },
  handler: (i, { deps }) => runRooms(deps, { ...i, hl: 'en' }),
});

const getStayPrice = defineTool({
  name: 'get_stay_price',
  title: 'Headline price of a stay',
  description:
    "Google Hotels' headline price of one stay and its split (total, before taxes, taxes, fees, nightly as shown, display basis), each with provenance, and the cheapest seller; available false and price null when nothing sells. Lighter than get_hotel_offers. Needs a property_token (resolve_hotel, search_hotels).",
  method: 'POST',
  path: '/v1/stay',
  tags: ['hotels'],
  input: z.strictObject(stayInput).transform(asToken),
  output: StayOutput,
  credits: 3,
  free: 'the stay is unpriced',
  cache: 'prices',
  isEmpty: (o) => !o.available,
  mcp: { expose: true, title: 'Get stay price', requires: { required: ['property_token'] }, summary: SUMMARIES.get_stay_price, app: 'hotel-offers' },
  handler: (i, { deps }) => runStay(deps, { ...i, hl: 'en' }),
});

export const HOTEL_TOOLS: Tool[] = [resolveHotel, searchHotels, serpHotels, getHotelDetails, serpHotelsProperty, getHotelOffers, getHotelRooms, getStayPrice];
