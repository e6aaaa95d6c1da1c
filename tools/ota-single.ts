import { z } from 'zod';
import { CURRENCIES } from '../src/domain/codes.js';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchHostelAvailability, fetchHostelSearch } from '../src/sources/hostel/fetch.js';
import { fetchRentaloneQuote } from '../src/sources/rentalone/fetch.js';
import { OtaHeadlineSchema, OtaOfferSchema } from '../src/sources/shared/ota-schemas.js';
import { GROUP_MARKET_CURRENCY, servedMarkets, type PosContexts } from '../src/sources/shared/group-graphql.js';
import { digits, futureDate, nightsField, nullableProvenance, provenance, stayFields } from '../src/sources/shared/tool-fields.js';
import { fetchTravelreviewSearch } from '../src/sources/travelreview/fetch.js';
import { checkListingPlatform, listingFromUrl } from '../src/sources/rentalone/listing-url.js';
import { sourcesStatus } from './sources-status.js';
import { SUMMARIES } from './views/summaries.js';

const stamp = { collection_id: z.string(), observed_at: z.string() };

// ------------------------------------------------------------------ rentalone

const rentalone = defineTool({
  name: 'get_rental_quote',
  title: 'Vacation rental: stay quote',
  description:
    "Quote for one vacation-rental stay on Vrbo (the rentalone alias): its own total (fees and taxes not itemised), nightly price and the payment models offered. Identify the listing by one of: its public Vrbo URL (url), the number in it (listing_id, e.g. 321456ha) or Vrbo's internal property_id. Airbnb listings (search_rentals ids) are not Vrbo's: price those with get_rental_calendar. Charged also for a stay it will not sell as asked (with the reason).",
  method: 'POST',
  path: '/v1/ota/rentalone',
  tags: ['rentals'],
  input: z
    .strictObject({
      property_id: digits().nullable().optional().describe("Vrbo's internal property id (its search route), not an Airbnb id"),
      listing_id: z
        .string()
        .regex(/^\d+(ha)?$/, 'digits, optionally followed by ha')
        .max(30)
        .nullable()
        .optional()
        .describe('number in the public listing URL, e.g. 321456ha'),
      url: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .nullable()
        .optional()
        .describe('public Vrbo listing URL, e.g. https://www.vrbo.com/321456ha'),
      ...stayFields(28, 16),
      market: z.enum(['US']).default('US').describe('point of sale'),
      ...CACHE_FIELD,
    })
    .superRefine(checkListingPlatform)
    .transform(listingFromUrl),
  output: z.object({
    search_parameters: z.object({
      engine: z.string(),
      property_id: z.string(),
      listing_id: z.string().optional(),
      check_in_date: z.string(),
      check_out_date: z.string(),
      adults: z.int(),
      market: z.string(),
      currency: z.string(),
    }),
    property: OtaHeadlineSchema,
    offers: z.array(OtaOfferSchema),
    meta: z.object({
      source: z.literal('rentalone'),
      nights: z.int(),
      wire_bytes: z.int(),
      listing_resolved: z.boolean(),
      elapsed_s: z.number(),
      egress_mode: z.string(),
      ...stamp,
    }),
  }),
  credits: 8,
  free: 'the reply is empty',
  cache: 'prices',
  isEmpty: (o) => !o.property.available && o.property.unavailable_reason == null && o.offers.length === 0,
  mcp: {
    expose: true,
    title: 'Get a vacation-rental stay quote',
    summary: SUMMARIES.get_rental_quote,
  },
  handler: (input, { deps }) => fetchRentaloneQuote(deps, input),
});

// ------------------------------------------------------------------ travel-review metasearch

const travelreviewSearch = defineTool({
  name: 'search_travelreview',
  title: 'Travel-review metasearch: hotels with their cheapest advertiser',
  description:
    'Hotels of a destination (or a hotel name) for one stay from a travel-review metasearch: cheapest price per night and per stay and the advertiser offering it, ratings, amenities, deep link. Costs 8 credits; no result is free.',
  method: 'POST',
  path: '/v1/ota/travelreview/search',
  tags: ['ota'],
  input: z.strictObject({
    query: z.string().min(1).max(200).describe('Place to search, as typed on the site.'),
    ...stayFields(30, 8),
    rooms: z.int().min(1).max(8).default(1).describe('Rooms wanted.'),
    currency: z.enum(CURRENCIES).nullable().optional().describe('Currency of the prices asked for; the site’s default when absent.'),
    limit: z.int().min(1).max(50).default(20).describe('Most results returned.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    query: z.string(),
    check_in: z.string(),
    check_out: z.string(),
    nights: z.int(),
    adults: z.int(),
    ...stamp,
    wire_bytes: z.int(),
    results: z.array(
      z.object({
        position: z.int(),
        accommodation_id: z.string(),
        name: z.string(),
        check_in: z.string().nullable(),
        check_out: z.string().nullable(),
        currency: z.string().nullable(),
        price_per_night: z.number().nullable(),
        price_per_night_text: z.string(),
        price_per_stay: z.number().nullable(),
        price_per_stay_text: z.string(),
        advertiser: z.string(),
        hotel_class: z.number().nullable(),
        location: z.string(),
        review_score: z.number().nullable(),
        review_count: z.number().nullable(),
        amenities: z.array(z.string()),
        url: z.string(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
        distance: z.string(),
        image: z.string(),
        provenance: nullableProvenance,
      }),
    ),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => o.results.length === 0,
  handler: (input, { deps }) => fetchTravelreviewSearch(deps, input),
});

// ------------------------------------------------------------------ hostel site

const HostelOffer = z.object({
  rate_plan_id: z.string(),
  payment_procedure: z.string(),
  payment_label: z.string(),
  is_default: z.boolean(),
  refundable: z.boolean().nullable(),
  currency: z.string().nullable(),
  total: z.number().nullable(),
  original_total: z.number().nullable(),
  average_per_night: z.number().nullable(),
  original_average_per_night: z.number().nullable(),
  nights: z.array(z.object({ date: z.string(), price: z.number().nullable() })),
  promotion_discount: z.string().nullable(),
  provenance,
});

const hostelRates = defineTool({
  name: 'get_hostel_rates',
  title: 'Hostel site: dorm beds and private rooms for one stay',
  description:
    'Availability and prices of one property on the hostel site for one stay: dorms priced per bed, private rooms per room, each rate plan with stay total, average per night and per-date prices. Costs 8 credits, also when the rooms listed have nothing left for the stay or the stay breaks a rule of the property (stay_rule_violations, e.g. minimum nights); a reply listing no room and no rule is free. Get the property id from POST /v1/ota/hostel/search.',
  method: 'POST',
  path: '/v1/ota/hostel',
  tags: ['ota'],
  input: z.strictObject({
    property_id: digits().describe('The site’s numeric property id (from its property URL, or its search route).'),
    check_in: futureDate.describe('First night of the stay, YYYY-MM-DD.'),
    nights: nightsField(30),
    guests: z.int().min(1).max(8).default(1).describe('Guests staying.'),
    currency: z.enum(CURRENCIES).default('USD').describe('Currency of the prices asked for.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    property_id: z.string(),
    check_in: z.string(),
    check_out: z.string(),
    nights: z.int(),
    guests: z.int(),
    currency: z.string().nullable(),
    deposit_percentage: z.number().nullable(),
    free_cancellation_until: z.string().nullable(),
    stay_rule_violations: z.array(z.unknown()),
    ...stamp,
    wire_bytes: z.int(),
    elapsed_s: z.number(),
    rooms: z.array(
      z.object({
        room_id: z.string(),
        name: z.string(),
        kind: z.enum(['dorm', 'private']),
        capacity: z.number().nullable(),
        beds_available: z.number().nullable(),
        rooms_available: z.number().nullable(),
        guests_per_room: z.number().nullable(),
        offers: z.array(HostelOffer),
      }),
    ),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => o.rooms.length === 0 && o.stay_rule_violations.length === 0,
  handler: (input, { deps }) => fetchHostelAvailability(deps, input),
});

const hostelSearch = defineTool({
  name: 'search_hostels',
  title: 'Hostel site: properties of a destination',
  description:
    'Properties of a destination on the hostel site for the dates, with the lowest dorm and private prices per night, ratings and free cancellation. Costs 8 credits; no result is free. Feeds POST /v1/ota/hostel.',
  method: 'POST',
  path: '/v1/ota/hostel/search',
  tags: ['ota'],
  input: z.strictObject({
    query: z.string().min(1).max(200).describe('City or place to search hostels in.'),
    check_in: futureDate.describe('First night of the stay, YYYY-MM-DD.'),
    nights: nightsField(30),
    limit: z.int().min(1).max(100).default(30).describe('Most results returned.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    query: z.string(),
    matched_place: z.string(),
    city_id: z.string(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    check_in: z.string(),
    check_out: z.string(),
    nights: z.int(),
    total_results: z.number().nullable(),
    ...stamp,
    wire_bytes: z.int(),
    properties: z.array(
      z.object({
        position: z.number().nullable(),
        property_id: z.string(),
        name: z.string(),
        type: z.string(),
        rating: z.number().nullable(),
        review_count: z.number().nullable(),
        star_rating: z.number().nullable(),
        currency: z.string().nullable(),
        lowest_price_per_night: z.number().nullable(),
        lowest_dorm_price_per_night: z.number().nullable(),
        lowest_private_price_per_night: z.number().nullable(),
        lowest_average_price_per_night: z.number().nullable(),
        lowest_average_original_price_per_night: z.number().nullable(),
        free_cancellation: z.boolean().nullable(),
        free_cancellation_until: z.string().nullable(),
        address: z.string(),
        district: z.string(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
        distance: z.object({ value: z.number(), units: z.string() }).nullable(),
        images: z.array(z.string()),
        provenance: nullableProvenance,
      }),
    ),
  }),
  credits: 8,
  cache: 'prices',
  isEmpty: (o) => o.properties.length === 0,
  handler: (input, { deps }) => fetchHostelSearch(deps, input),
});

// ------------------------------------------------------------------ sources read

interface SourceFact {
  source: string;
  kind: string;
  markets: string[];
  status: 'served' | 'partial';
  notes: string[];
}

/** The group brands serve the markets whose point-of-sale context is built in or configured. */
function withMarkets(fact: SourceFact, configured: PosContexts): SourceFact {
  if (fact.source !== 'otatwo' && fact.source !== 'otathree') return fact;
  const served = servedMarkets(fact.source, configured);
  const missing = Object.keys(GROUP_MARKET_CURRENCY[fact.source]).filter((m) => !served.includes(m));
  if (missing.length === 0) return { ...fact, markets: served };
  const notes = [`${missing.join(', ')} answer 503: no public point-of-sale context is known (an operator can supply it in GROUP_POS_CONTEXTS)`];
  return { ...fact, markets: served, status: 'partial', notes };
}

const SOURCE_FACTS: SourceFact[] = [
  {
    source: 'otaone',
    kind: 'ota',
    markets: ['any (country of the page)'],
    status: 'served',
    notes: ['rooms from the server-rendered property page; room size and occupancy enrichment are not fetched'],
  },
  { source: 'otatwo', kind: 'ota', markets: [], status: 'served', notes: [] },
  { source: 'otathree', kind: 'ota', markets: [], status: 'served', notes: [] },
  { source: 'otafour', kind: 'ota', markets: ['23 display currencies'], status: 'served', notes: ['search reads the search-box suggestions; hotels only'] },
  { source: 'rentalone', kind: 'vacation_rental', markets: ['US'], status: 'served', notes: [] },
  {
    source: 'rentaltwo',
    kind: 'vacation_rental',
    markets: ['94 regional hosts'],
    status: 'served',
    notes: ['per-night prices come from one quote request per priced date'],
  },
  { source: 'travelreview', kind: 'metasearch', markets: ['any'], status: 'served', notes: ['the cheapest advertiser per hotel only'] },
  { source: 'hostel', kind: 'ota', markets: ['any'], status: 'served', notes: [] },
];

export const otaSources = defineTool({
  name: 'list_ota_sources',
  title: 'OTA and rental sources',
  description:
    'The OTA, metasearch and vacation-rental sources this service reads, their routes and credit cost, the markets served and known gaps; status_url is the live health of every source (GET /v1/sources/status). Free.',
  method: 'GET',
  path: '/v1/ota/sources',
  tags: ['ota'],
  input: z.strictObject({}),
  output: z.object({
    sources: z.array(
      z.object({
        source: z.string(),
        kind: z.string(),
        markets: z.array(z.string()),
        status: z.enum(['served', 'partial']),
        notes: z.array(z.string()),
        routes: z.array(z.object({ method: z.string(), path: z.string(), credits: z.int() })),
      }),
    ),
    /** Where each source's current state is (ok, degraded, failing, unknown). */
    status_url: z.string(),
  }),
  credits: 0,
  handler(_input, { deps }) {
    const routesOf = (alias: string) =>
      deps.tools
        .filter((t) => t.path.startsWith(`/v1/ota/${alias}`) || t.path.startsWith(`/v1/serp/${alias}`) || t.path.startsWith(`/v1/${alias}/`))
        .map((t) => ({ method: t.method, path: t.path, credits: t.credits.base }));
    return Promise.resolve({
      sources: SOURCE_FACTS.map((f) => ({ ...withMarkets(f, deps.config.GROUP_POS_CONTEXTS), routes: routesOf(f.source) })),
      status_url: `${deps.config.PUBLIC_BASE_URL ?? ''}${sourcesStatus.path}`,
    });
  },
});

export const RENTALONE_TOOLS: Tool[] = [rentalone];
export const TRAVELREVIEW_TOOLS: Tool[] = [travelreviewSearch];
export const HOSTEL_TOOLS: Tool[] = [hostelRates, hostelSearch];
