import { z } from 'zod';
import { defineTool, type CreditRule, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { queryBool, queryInt } from '../src/domain/query-params.js';
import { COMPAT_COMMON_FIELDS } from '../src/core/compat/engine.js';
import { PRICE_STATUSES } from '../src/sources/rentaltwo/calendar-pricing.js';
import { DEFAULT_DOMAIN, isRentaltwoDomain } from '../src/sources/rentaltwo/domains.js';
import { fetchRentaltwoCalendar, fetchRentaltwoSearch } from '../src/sources/rentaltwo/fetch.js';
import { SearchMetadataSchema } from '../src/sources/shared/search-metadata.js';
import { futureDate, provenance } from '../src/sources/shared/tool-fields.js';
import { SUMMARIES } from './views/summaries.js';

/** The 51 currencies of the rental destination search. */
const RENTAL_CURRENCIES = [
  'AED',
  'AUD',
  'BAM',
  'BGN',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CRC',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'GHS',
  'GTQ',
  'HKD',
  'HNL',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'JPY',
  'KES',
  'KRW',
  'KZT',
  'MAD',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PEN',
  'PHP',
  'PLN',
  'QAR',
  'RON',
  'RUB',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'UAH',
  'UGX',
  'USD',
  'UYU',
  'VND',
  'ZAR',
] as const;

/** An integer in bounds that may arrive as query-string digits. */
const qInt = (min: number, max: number) => queryInt.pipe(z.int().min(min).max(max));
const domain = z
  .string()
  .refine(isRentaltwoDomain, { message: 'Input should be one of the rental platform’s regional hosts' })
  .default(DEFAULT_DOMAIN)
  .describe('regional site of the platform');
const currencyCode = z.enum(RENTAL_CURRENCIES).optional().describe('ISO 4217 code, e.g. EUR');
const zeroRetention = queryBool.default(false).describe('true: nothing of this call is stored');

// ------------------------------------------------------------------ destination search

const RentalSearchInput = z.strictObject({
  engine: z.literal('rentaltwo').default('rentaltwo'),
  q: z.string().min(1).max(500).optional().describe('destination'),
  bounding_box: z.string().min(5).max(200).optional().describe('instead of q: [[ne_lat,ne_lng],[sw_lat,sw_lng]]'),
  rentaltwo_domain: domain,
  currency: currencyCode,
  include_taxes: queryBool.default(false).describe('prices with taxes'),
  check_in_date: futureDate.optional().describe('arrival date'),
  check_out_date: futureDate.optional().describe('departure date'),
  time_period: z.enum(['weekend_trip', 'one_week', 'one_month']).optional().describe('flexible stay instead of dates'),
  adults: qInt(0, 16).optional().describe('adult guests'),
  children: qInt(0, 15).optional().describe('children'),
  infants: qInt(0, 5).optional().describe('infants'),
  pets: qInt(0, 5).optional().describe('pets'),
  price_min: qInt(0, 10_000_000).optional().describe('lowest price'),
  price_max: qInt(0, 10_000_000).optional().describe('highest price'),
  type_of_place: z.enum(['any', 'room', 'entire_home']).default('any').describe('room or entire home'),
  property_types: z.string().max(200).optional().describe('comma list: house, guesthouse, apartment, hotel'),
  bedrooms: qInt(0, 8).optional().describe('fewest bedrooms'),
  beds: qInt(0, 8).optional().describe('fewest beds'),
  bathrooms: qInt(0, 8).optional().describe('fewest bathrooms'),
  amenities: z.string().max(500).optional().describe('comma list, e.g. wifi,pool,kitchen'),
  next_page_token: z.string().min(1).max(2000).optional().describe('pagination.next_page_token of a previous answer'),
  ...COMPAT_COMMON_FIELDS,
  zero_retention: zeroRetention,
  ...CACHE_FIELD,
});

const Breakdown = z.array(
  z.object({
    description: z.string(),
    price: z.string(),
    extracted_price: z.number().nullable(),
    original_price: z.string().optional(),
    extracted_original_price: z.number().optional(),
  }),
);

const RentalPrice = z.object({
  total_price: z.string(),
  extracted_total_price: z.number().nullable(),
  qualifier: z.string().optional(),
  extracted_qualifier: z.number().optional(),
  price_per_qualifier: z.string().optional(),
  extracted_price_per_qualifier: z.number().optional(),
  original_price: z.string().optional(),
  extracted_original_price: z.number().optional(),
  discount: z.string().optional(),
  extracted_discount: z.number().optional(),
  breakdown: Breakdown,
  notes: z.array(z.string()).optional(),
  total_with_taxes: z.string().optional(),
  extracted_total_with_taxes: z.number().optional(),
  provenance,
});

const RentalSearchOutput = z.object({
  search_metadata: SearchMetadataSchema,
  search_parameters: z.record(z.string(), z.string()),
  search_information: z.object({
    query_displayed: z.string(),
    results: z.int(),
    check_in_date: z.string().nullable(),
    check_out_date: z.string().nullable(),
    time_period: z.string().nullable(),
    adults: z.int(),
    children: z.int(),
    infants: z.int(),
    pets: z.int(),
    guests: z.string(),
  }),
  properties: z.array(
    z.object({
      position: z.int(),
      id: z.string(),
      title: z.string(),
      description: z.string(),
      link: z.string(),
      booking_link: z.string(),
      booking_token: z.string(),
      rating: z.number().optional(),
      reviews: z.number().optional(),
      price: RentalPrice.nullable(),
      check_in_date: z.string().optional(),
      check_out_date: z.string().optional(),
      time_period: z.string().optional(),
      accommodations: z.array(z.string()),
      gps_coordinates: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
      has_free_cancellation: z.literal(true).optional(),
      badges: z.array(z.string()),
      images: z.array(z.string()),
      distance: z.string().optional(),
      extracted_distance: z.number().optional(),
    }),
  ),
  pagination: z.object({ next_page_token: z.string() }).optional(),
});

export const searchRentals = defineTool({
  name: 'search_rentals',
  title: 'Search vacation rentals',
  description:
    'Vacation rentals of a destination on Airbnb (the rentaltwo alias): give q, or a bounding_box instead. Stay price and breakdown with provenance, rating, photos, coordinates; exact dates or a flexible time_period, guests, filters. properties[].id is an Airbnb listing id: the property_id of get_rental_calendar (not of get_rental_quote, which quotes Vrbo listings). More with next_page_token, one page per call.',
  method: 'POST',
  path: '/v1/serp/rentaltwo',
  tags: ['rentals'],
  input: RentalSearchInput,
  output: RentalSearchOutput,
  credits: 8,
  free: 'the page is empty',
  cache: 'prices',
  isEmpty: (o) => o.properties.length === 0,
  mcp: {
    expose: true,
    title: 'Search vacation rentals',
    summary: SUMMARIES.search_rentals,
  },
  handler: (input, { deps, requestId }) => fetchRentaltwoSearch(deps, input, requestId),
});

// ------------------------------------------------------------------ availability calendar

const RentalCalendarInput = z.strictObject({
  property_id: z
    .string()
    .regex(/^\d+$/, 'digits only: an Airbnb listing id (a number ending in ha is a Vrbo listing, quoted by get_rental_quote)')
    .min(1)
    .max(25)
    .describe("an Airbnb listing's id: search_rentals properties[].id, or the number in its airbnb.com/rooms/ URL"),
  currency: currencyCode,
  adults: qInt(1, 16).default(1).describe('adult guests'),
  children: qInt(0, 15).default(0).describe('children'),
  infants: qInt(0, 5).default(0).describe('infants'),
  pets: qInt(0, 5).default(0).describe('pets'),
  max_price_quotes: qInt(1, 92).optional().describe('most check-in dates priced'),
  stay_nights: qInt(1, 28).optional().describe("nights of each priced stay; default the date's minimum"),
  engine: z.literal('rentaltwo_property_availability_calendar').default('rentaltwo_property_availability_calendar'),
  start_month: qInt(1, 12).optional().describe('first month; default this one'),
  start_year: qInt(2020, 2100).optional().describe('year of start_month'),
  months: qInt(1, 12).default(12).describe('months covered'),
  rentaltwo_domain: domain,
  price_nights: z.enum(['none', 'sample', 'all']).default('none').describe('price no, some or all check-in dates'),
  ...COMPAT_COMMON_FIELDS,
  zero_retention: zeroRetention,
  ...CACHE_FIELD,
});

/** One check-in's quote: the listing's price figures as the booking section states them, with its dates. */
const DayPrice = z
  .object({
    check_in_date: z.string(),
    check_out_date: z.string(),
    currency: z.string().nullable(),
    price_per_night: z.string().optional(),
    extracted_price_per_night: z.number().optional(),
  })
  .extend(RentalPrice.shape);

const RentalCalendarOutput = z.object({
  search_metadata: SearchMetadataSchema.extend({ upstream_requests: z.int() }),
  search_parameters: z.record(z.string(), z.string()),
  months: z.array(
    z.object({
      year: z.int(),
      month: z.int(),
      days: z.array(
        z.object({
          date: z.string(),
          is_available: z.boolean(),
          is_available_for_checkin: z.boolean(),
          is_available_for_checkout: z.boolean(),
          is_bookable: z.boolean(),
          min_nights: z.int().optional(),
          max_nights: z.int().optional(),
          price_status: z.enum(PRICE_STATUSES).optional(),
          price: DayPrice.optional(),
        }),
      ),
    }),
  ),
  price_summary: z
    .object({
      days: z.int(),
      available: z.int(),
      available_for_checkin: z.int(),
      bookable: z.int(),
      priced: z.int(),
      min_price_per_night: z.number().optional(),
      max_price_per_night: z.number().optional(),
      median_price_per_night: z.number().optional(),
      price_status: z.record(z.string(), z.int()),
    })
    .optional(),
});

type CalIn = z.output<typeof RentalCalendarInput>;
type CalOut = z.output<typeof RentalCalendarOutput>;

/** 8, plus 1 per night actually priced; the reservation holds 8 + the quote cap. */
const calendarCredits: CreditRule<CalIn, CalOut> = {
  base: 8,
  note: '+1 per night priced when price_nights is sample or all (at most 92)',
  growth: [{ credits: 1, per: 'night priced', when: 'price_nights is sample or all (max_price_quotes caps it, at most 92)' }],
  free: 'the calendar is empty',
  max: (input) => (input.price_nights === 'none' ? 8 : 8 + (input.max_price_quotes ?? 92)),
  actual: (_input, output) => (output.months.every((m) => m.days.length === 0) ? 0 : 8 + (output.price_summary?.priced ?? 0)),
};

const CALENDAR_DESCRIPTION =
  'Availability of one Airbnb listing (the rentaltwo alias) for up to 12 months (check-in/out allowed, bookable, min and max nights); with price_nights sample or all, a quote for chosen check-in dates, a price_status per day and a price_summary. property_id from search_rentals.';

export const rentalCalendarSerp = defineTool({
  name: 'rentaltwo_property_availability_calendar',
  title: 'Vacation-rental availability calendar (compatible route)',
  description: CALENDAR_DESCRIPTION,
  method: 'POST',
  path: '/v1/serp/rentaltwo_property_availability_calendar',
  tags: ['rentals'],
  input: RentalCalendarInput,
  output: RentalCalendarOutput,
  credits: calendarCredits,
  cache: 'prices',
  handler: (input, { deps, requestId }) => fetchRentaltwoCalendar(deps, input, requestId),
});

const getRentalCalendar = defineTool({
  name: 'get_rental_calendar',
  title: 'Vacation-rental availability calendar',
  description: CALENDAR_DESCRIPTION,
  method: 'POST',
  path: '/v1/rentaltwo/calendar',
  tags: ['rentals'],
  input: RentalCalendarInput,
  output: RentalCalendarOutput,
  credits: calendarCredits,
  cache: 'prices',
  mcp: { expose: true, title: 'Get a vacation-rental availability calendar', summary: SUMMARIES.get_rental_calendar },
  handler: (input, { deps, requestId }) => fetchRentaltwoCalendar(deps, input, requestId),
});

export const RENTAL_TOOLS: Tool[] = [searchRentals, rentalCalendarSerp, getRentalCalendar];
