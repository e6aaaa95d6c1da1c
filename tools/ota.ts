import { z } from 'zod';
import { CURRENCIES, countryLower } from '../src/domain/codes.js';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { OTATWO_MARKETS } from '../src/sources/shared/group-graphql.js';
import { OtaHeadlineSchema, OtaOfferSchema } from '../src/sources/shared/ota-schemas.js';
import { adultsField, digits, futureDate, nightsField, nullableProvenance, provenance, stayFields } from '../src/sources/shared/tool-fields.js';
import { fetchOtaoneRooms } from '../src/sources/otaone/fetch.js';
import { fetchOtatwoHeadline, fetchOtatwoRooms } from '../src/sources/otatwo/fetch.js';
import { fetchOtathreeReviews, fetchOtathreeStay } from '../src/sources/otathree/fetch.js';
import { OTAFOUR_CURRENCIES, fetchOtafour } from '../src/sources/otafour/fetch.js';
import { HOSTEL_TOOLS, RENTALONE_TOOLS, TRAVELREVIEW_TOOLS, otaSources } from './ota-single.js';
import { otafourSearch, otaoneSearch, otathreeSearch, otatwoSearch, rentaloneSearch } from './ota-search.js';

const stamp = { collection_id: z.string(), observed_at: z.string() };

// ------------------------------------------------------------------ otaone

const OtaoneRatePlan = z.object({
  block_id: z.string(),
  price: z.number().nullable(),
  currency: z.string().nullable(),
  guests: z.number().nullable(),
  free_cancellation: z.boolean().nullable(),
  no_prepayment: z.boolean().nullable(),
  breakfast_included: z.boolean().nullable(),
  provenance,
});

export const otaoneRooms = defineTool({
  name: 'get_otaone_rooms',
  title: 'First OTA: rooms and rate plans for one stay',
  description:
    'Room table of one property on the first OTA (block ids, prices, free cancellation, no prepayment, breakfast) for one stay. Costs 8 credits, also when the page says the stay is sold out or below a minimum stay (sold_out, unavailable_reason); a page with no room table is free. Get the page name and country from POST /v1/ota/otaone/search.',
  method: 'POST',
  path: '/v1/ota/otaone/rooms',
  tags: ['ota'],
  input: z.strictObject({
    pagename: z.string().min(2).max(200).describe('The property’s page name on the site: the part of its hotel URL before .html, e.g. adlon-kempinski-berlin.'),
    country: countryLower.default('us').describe('Two-letter country code of the property’s URL path, lower case (e.g. de for /hotel/de/…).'),
    ...stayFields(30, 8),
    rooms: z.int().min(1).max(8).default(1).describe('Rooms wanted.'),
    currency: z.enum(CURRENCIES).default('USD').describe('Currency of the prices asked for.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    pagename: z.string(),
    hotel_id: z.string().nullable(),
    property_name: z.string(),
    check_in: z.string(),
    check_out: z.string(),
    nights: z.int(),
    currency: z.string().nullable(),
    sold_out: z.boolean().nullable(),
    unavailable_reason: z.string().nullable(),
    rendered: z.boolean(),
    catalogue_from_graphql: z.boolean(),
    cheapest_rate: z.number().nullable(),
    wire_bytes: z.int(),
    ...stamp,
    rooms: z.array(
      z.object({
        name: z.string(),
        room_id: z.string().nullable(),
        beds: z.string(),
        room_size: z.number().nullable(),
        max_persons: z.number().nullable(),
        cheapest_rate: z.number().nullable(),
        rate_plans: z.array(OtaoneRatePlan),
      }),
    ),
  }),
  credits: 8,
  cache: 'prices',
  // A page that lists no room and says nothing is empty; a sold-out or minimum-stay page is an answer.
  isEmpty: (o) => o.rooms.length === 0 && o.unavailable_reason == null && o.sold_out !== true,
  handler: (input, { deps }) => fetchOtaoneRooms(deps, input),
});

// ------------------------------------------------------------------ otatwo

const otatwoStay = {
  property_id: digits().describe('The site’s numeric property id (from its property URL, or its search route).'),
  check_in: futureDate.describe('First night of the stay, YYYY-MM-DD.'),
  nights: nightsField(30),
  adults: adultsField(8),
  market: z.enum(OTATWO_MARKETS).default('US').describe('Point of sale: the country site asked; its currency follows.'),
  ...CACHE_FIELD,
};

const OtatwoRatePlan = z.object({
  plan_id: z.string(),
  price: z.number().nullable(),
  price_text: z.string(),
  currency: z.string().nullable(),
  refundable: z.boolean().nullable(),
  refundable_until: z.string(),
  pay_now: z.boolean(),
  provenance,
  room_type_id: z.string(),
  payment_model: z.string(),
  hotel_collect: z.boolean().nullable(),
  total: z.number().nullable(),
  nightly: z.number().nullable(),
  taxes_and_fees: z.number().nullable(),
  taxes_and_fees_provenance: provenance.optional(),
  total_text: z.string(),
  nightly_text: z.string(),
  taxes_and_fees_included: z.boolean().nullable(),
  cancellation_text: z.string(),
  extras_text: z.string(),
  member_only: z.boolean(),
  inventory_type: z.string(),
  business_model: z.string(),
});

const otatwoCommon = {
  property_id: z.string(),
  market: z.string(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  currency: z.string().nullable(),
  requested_currency: z.string(),
  currency_verified: z.boolean(),
  available: z.boolean(),
  sold_out: z.boolean().nullable(),
  cheapest_rate: z.number().nullable(),
  wire_bytes: z.int(),
  egress_mode: z.string(),
  ...stamp,
};

const OTATWO_POS_NOTE =
  'Points of sale with a known public context: US, GB, EU; the others answer 503 naming the missing context unless the operator supplies it (GROUP_POS_CONTEXTS; GET /v1/ota/sources lists the markets served).';

const otatwoRooms = defineTool({
  name: 'get_otatwo_rooms',
  title: 'Second OTA: room grid for one stay',
  description: `Every room and rate plan of one property on the second OTA for one stay, pay-now and pay-at-property as separate rows, with refundability and the card's lead price. Costs 8 credits, also when every room is sold out; a grid with no room at all is free. Get the numeric property id from POST /v1/ota/otatwo/search. ${OTATWO_POS_NOTE}`,
  method: 'POST',
  path: '/v1/ota/otatwo/rooms',
  tags: ['ota'],
  input: z.strictObject(otatwoStay),
  output: z.object({
    ...otatwoCommon,
    rooms: z.array(z.object({ name: z.string(), unit_id: z.string(), cheapest_rate: z.number().nullable(), rate_plans: z.array(OtatwoRatePlan) })),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => o.rooms.length === 0 && !o.sold_out,
  handler: (input, { deps }) => fetchOtatwoRooms(deps, input),
});

const otatwoHeadline = defineTool({
  name: 'get_otatwo_rate',
  title: 'Second OTA: cheapest rate for one stay',
  description: `Cheapest rate plan of one property on the second OTA for one stay (the headline of the room grid). Costs 8 credits, also when the property is sold out (cheapest null); a grid with no room at all is free. Use POST /v1/ota/otatwo/rooms for every plan. ${OTATWO_POS_NOTE}`,
  method: 'POST',
  path: '/v1/ota/otatwo',
  tags: ['ota'],
  input: z.strictObject(otatwoStay),
  output: z.object({
    ...otatwoCommon,
    room_types: z.int(),
    rate_plans: z.int(),
    cheapest: OtatwoRatePlan.extend({ room_name: z.string() }).nullable(),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => o.cheapest == null && o.room_types === 0 && !o.sold_out,
  handler: (input, { deps }) => fetchOtatwoHeadline(deps, input),
});

// ------------------------------------------------------------------ otathree

const otathreeStay = defineTool({
  name: 'get_otathree_stay',
  title: 'Third OTA: rooms and rate plans for one stay',
  description:
    'Headline price and, with rooms=true, every room type and rate plan (payment model, refundability, member-only, derived taxes and fees) of one property on the third OTA for one stay, US or CA point of sale. Costs 8 credits; a stay the site will not sell (e.g. minimum stay) is billed, only an empty reply is free. Get the property id from POST /v1/ota/otathree/search. The CA point-of-sale context is not known publicly and answers 503 unless the operator supplies it (GROUP_POS_CONTEXTS).',
  method: 'POST',
  path: '/v1/ota/otathree',
  tags: ['ota'],
  input: z.strictObject({
    property_id: digits().describe('The site’s numeric property id (from its property URL, or its search route).'),
    ...stayFields(28, 8),
    market: z.enum(['US', 'CA']).default('US').describe('Point of sale: the country site asked.'),
    rooms: z.boolean().default(true).describe('Also list every room and rate plan, not only the cheapest.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({
      engine: z.string(),
      property_id: z.string(),
      check_in_date: z.string(),
      check_out_date: z.string(),
      adults: z.int(),
      market: z.string(),
      currency: z.string(),
      rooms: z.boolean(),
    }),
    property: OtaHeadlineSchema,
    rooms: z.array(z.object({ unit_id: z.string(), name: z.string(), cheapest_total: z.number().nullable(), offers: z.array(OtaOfferSchema) })),
    meta: z.object({
      source: z.literal('otathree'),
      nights: z.int(),
      wire_bytes: z.int(),
      elapsed_s: z.number(),
      room_types: z.int(),
      offers: z.int(),
      egress_mode: z.string(),
      comparable_across_markets: z.literal(false),
      ...stamp,
    }),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => !o.property.available && o.property.unavailable_reason == null && o.rooms.length === 0,
  handler: (input, { deps }) => fetchOtathreeStay(deps, input),
});

const Review = z.object({
  source: z.string(),
  review_id: z.string(),
  rating: z.number().nullable(),
  title: z.string(),
  text: z.string(),
  date: z.string(),
  author: z.string(),
  management_reply: z.string().optional(),
  language: z.string(),
  helpful_votes: z.int().optional(),
  labels: z.array(z.string()),
  stay_info: z.string(),
});

const otathreeReviews = defineTool({
  name: 'get_otathree_reviews',
  title: 'Third OTA: guest reviews',
  description:
    'Guest reviews of one property on the third OTA, newest first, rating 0-10. Page with start_index += size. Costs 2 credits; an empty page is free.',
  method: 'POST',
  path: '/v1/ota/otathree/reviews',
  tags: ['ota'],
  input: z.strictObject({
    property_id: digits().describe('The site’s numeric property id (from its property URL, or its search route).'),
    size: z.int().min(1).max(25).default(10).describe('Reviews per page.'),
    start_index: z.int().min(0).default(0).describe('Reviews to skip, for paging.'),
    market: z.enum(['US', 'CA']).default('US').describe('Point of sale: the country site asked.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    source: z.string(),
    property_id: z.string(),
    total: z.int().nullable(),
    offset: z.int(),
    limit: z.int(),
    rating_scale: z.literal(10),
    count: z.int(),
    reviews: z.array(Review),
    provenance,
    wire_bytes: z.int(),
    elapsed_s: z.number(),
    egress_mode: z.string(),
    ...stamp,
    warnings: z.array(z.string()),
  }),
  credits: 2,
  cache: 'reviews',
  isEmpty: (o) => o.count === 0,
  handler: (input, { deps }) => fetchOtathreeReviews(deps, input),
});

// ------------------------------------------------------------------ otafour

const OtafourOffer = z.object({
  price: z.number().nullable(),
  currency: z.string().nullable(),
  currency_code: z.string().nullable(),
  price_text: z.string().nullable(),
  tax_inclusive: z.boolean().nullable(),
  discount: z.string().nullable(),
  free_cancellation: z.boolean().nullable(),
  provenance,
});

const otafour = defineTool({
  name: 'get_otafour_rates',
  title: 'Fourth OTA: rooms and nightly prices for one stay',
  description:
    'Room types and per-night offers of one property on the fourth OTA for one stay, in one of 23 display currencies (genuine conversions of one rate, so comparable). Costs 8 credits, also when the grid lists room types but none fits or sells for the stay (sold_out); a grid with no room type is free. meta.room_types counts the room types listed. Find the property id with POST /v1/ota/otafour/search or take it from its URL.',
  method: 'POST',
  path: '/v1/ota/otafour',
  tags: ['ota'],
  input: z.strictObject({
    property_id: digits().describe('The site’s numeric property id (from its property URL, or its search route).'),
    ...stayFields(30, 8),
    rooms: z.int().min(1).max(8).default(1).describe('Rooms wanted.'),
    currency: z.enum(OTAFOUR_CURRENCIES).default('USD').describe('Currency of the prices asked for.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({
      engine: z.string(),
      property_id: z.string(),
      check_in_date: z.string(),
      check_out_date: z.string(),
      adults: z.int(),
      rooms: z.int(),
      currency: z.string(),
    }),
    property: z.object({
      property_id: z.string(),
      name: z.string(),
      price_per_night: z.number().nullable(),
      currency: z.string().nullable(),
      currency_display: z.string().nullable(),
      tax_inclusive: z.boolean().nullable(),
      sold_out: z.boolean().nullable(),
      provenance: nullableProvenance,
      rooms: z.array(z.object({ name: z.string(), offers: z.array(OtafourOffer) })),
    }),
    meta: z.object({
      source: z.literal('otafour'),
      ...stamp,
      nights: z.int(),
      wire_bytes: z.int(),
      elapsed_s: z.number(),
      room_types: z.int(),
      offers: z.int(),
      comparable_across_markets: z.literal(true),
    }),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => o.meta.room_types === 0,
  handler: (input, { deps }) => fetchOtafour(deps, input),
});

export const OTA_TOOLS: Tool[] = [
  otaoneRooms,
  otaoneSearch,
  otatwoHeadline,
  otatwoRooms,
  otatwoSearch,
  otathreeStay,
  otathreeReviews,
  otathreeSearch,
  otafour,
  otafourSearch,
  ...RENTALONE_TOOLS,
  rentaloneSearch,
  ...TRAVELREVIEW_TOOLS,
  ...HOSTEL_TOOLS,
  otaSources,
];
