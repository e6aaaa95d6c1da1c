import { z } from 'zod';
import { addDays } from '../src/domain/dates.js';
import { BadRequest } from '../src/domain/errors.js';
import { defineTool, type Tool, type ToolContext } from '../src/core/define-tool.js';
import { COMPAT_COMMON_FIELDS } from '../src/core/compat/engine.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { SearchTimer } from '../src/sources/shared/search-metadata.js';
import { CALENDAR_MAX_DAYS } from '../src/sources/metasearch/flights/calendar.js';
import { pageCurrency, pricing, searchEcho, withLocale } from '../src/sources/metasearch/flights/echo.js';
import { fetchFlightBooking, fetchFlightCalendar, fetchFlightLocations, fetchFlightResults, type FetchMeta } from '../src/sources/metasearch/flights/fetch.js';
import { normalizeFlightSearch, type FlightSearch } from '../src/sources/metasearch/flights/params.js';
import { bookingCurrency, toCompatBookingOptions } from '../src/sources/metasearch/flights/parse-booking.js';
import {
  BookingOutput,
  CalendarOutput,
  FlightsOutput,
  LocationsOutput,
  localeFields,
  missingIssue,
  requireTripFields,
  searchFields,
} from '../src/sources/metasearch/flights/schemas.js';
import { toCompatFlights } from '../src/sources/metasearch/flights/to-compat.js';
import { decodeBookingToken, decodeDepartureToken } from '../src/sources/metasearch/flights/tokens.js';
import type { TfsSelectedFlight } from '../src/sources/metasearch/flights/tfs.js';
import { SUMMARIES } from './views/summaries.js';
import { flightsSummary, flightsText, flightsView } from './views/flights.js';
import { bookingOptionsSummary, bookingOptionsText, bookingOptionsView } from './views/booking-options.js';
import { withBookingLinks } from './booking-links.js';

const TAGS = ['flights'];
const token = z.string().min(1).max(8192);
const maxFlights = z.int().min(1).max(500).optional().describe('most itineraries returned, best first; all when absent');
/** Over MCP the view picks the cheapest itineraries (its own max_flights): a long page is mostly other_flights an agent would not read. */
const MCP_FLIGHTS = { view: flightsView, summary: flightsSummary, text: flightsText, app: 'flights' };

/** best_flights, then other_flights, cut at `max`; the count left out is reported. */
function capFlights<T extends { best_flights: unknown[]; other_flights: unknown[] }>(body: T, max: number | undefined): T & { omitted_flights?: number } {
  const total = body.best_flights.length + body.other_flights.length;
  if (max === undefined || total <= max) return body;
  const best = body.best_flights.slice(0, max);
  return { ...body, best_flights: best, other_flights: body.other_flights.slice(0, max - best.length), omitted_flights: total - max };
}

function metadata(timer: SearchTimer, ctx: ToolContext, meta: FetchMeta) {
  return timer.metadata(ctx.requestId, meta.requestUrl, { collection_id: meta.collectionId, observed_at: meta.observedAt, wire_bytes: meta.wireBytes });
}

/** Results page for the next leg, in the compatible shape, with the effective search echoed. */
async function flightsPage(
  engine: string,
  search: FlightSearch,
  selected: TfsSelectedFlight[][],
  echo: Record<string, string>,
  ctx: ToolContext,
  maxFlights?: number,
) {
  const timer = new SearchTimer();
  const { data: page, meta } = await fetchFlightResults(ctx.deps.upstream, timer, search, selected);
  const body = capFlights(
    timer.parse(() => toCompatFlights(page, { search, selected })),
    maxFlights,
  );
  return {
    search_metadata: metadata(timer, ctx, meta),
    search_parameters: { engine, ...searchEcho(search), ...echo },
    pricing: pricing(search, pageCurrency(page), meta.egressMode),
    ...body,
  };
}

const noItineraries = (o: { best_flights: unknown[]; other_flights: unknown[] }) => !o.best_flights.length && !o.other_flights.length;

export const searchFlights = defineTool({
  name: 'search_flights',
  title: 'Search flights',
  description:
    "Live flight search on Google Flights (the metasearch alias; the compatible google_flights parameters and shape): best_flights, other_flights, price_insights, airports. Needs departure_id, arrival_id and outbound_date, plus return_date for a round trip (the default flight_type); a multi_city trip gives its legs in multi_city_json instead. A round trip's outbound (or a multi-city leg) carries a departure_token for get_return_flights; a one-way or last leg a booking_token for get_booking_options. Airport codes or /m/ ids: search_flight_locations. Prices are for the whole trip and all passengers. max_flights caps the list (omitted_flights counts the rest); over MCP, itineraries come cheapest first, one line per leg.",
  method: 'POST',
  path: '/v1/serp/metasearch_flights',
  tags: TAGS,
  input: z
    .strictObject({ ...searchFields, ...localeFields, max_flights: maxFlights, ...COMPAT_COMMON_FIELDS, ...CACHE_FIELD })
    .superRefine((v, ctx) => requireTripFields(v, missingIssue(ctx))),
  output: FlightsOutput,
  credits: 3,
  free: 'no itinerary is found',
  cache: 'prices',
  isEmpty: noItineraries,
  mcp: {
    expose: true,
    title: 'Search flights',
    // what a trip type needs is said in the description and checked by requireTripFields (a 422 naming the field)
    ...MCP_FLIGHTS,
  },
  async handler({ max_flights, ...input }, ctx) {
    const search = normalizeFlightSearch(input);
    return flightsPage('metasearch_flights', search, [], {}, ctx, max_flights);
  },
});

export const getReturnFlights = defineTool({
  name: 'get_return_flights',
  title: 'Return flights for a chosen outbound',
  description:
    'Flights of the next leg once an outbound is chosen: pass a departure_token from search_flights. Each itinerary carries a booking_token for get_booking_options (a departure_token while legs remain); prices are for the whole trip and all passengers. max_flights as in search_flights.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights_return',
  tags: TAGS,
  input: z.strictObject({
    departure_token: token.describe('from search_flights'),
    ...localeFields,
    max_flights: maxFlights,
    ...COMPAT_COMMON_FIELDS,
    ...CACHE_FIELD,
  }),
  output: FlightsOutput,
  credits: 3,
  free: 'no itinerary is found',
  cache: 'prices',
  isEmpty: noItineraries,
  mcp: { expose: true, title: 'Get return flights', ...MCP_FLIGHTS },
  async handler(input, ctx) {
    const t = decodeDepartureToken(input.departure_token);
    const search = withLocale(t.search, input);
    return flightsPage('metasearch_flights_return', search, t.selected, { departure_token: input.departure_token }, ctx, input.max_flights);
  },
});

export const getBookingOptions = defineTool({
  name: 'get_booking_options',
  title: 'Booking options of a chosen itinerary',
  description:
    "Who sells a chosen itinerary and at what price (airline or agency, fare): pass a booking_token from search_flights (one way) or get_return_flights. Each option's total is for the whole itinerary (separate tickets: the tickets added up). Google's click-out is a POST (booking_request {url, post_data}, for programs); booking_link is a short-lived GET link a person can open (its expiry stated), which posts that form to the seller through Google. Opening it costs nothing.",
  method: 'POST',
  path: '/v1/serp/metasearch_flights_booking',
  tags: TAGS,
  input: z.strictObject({
    booking_token: token.describe('from search_flights or get_return_flights'),
    ...localeFields,
    ...COMPAT_COMMON_FIELDS,
    ...CACHE_FIELD,
  }),
  output: BookingOutput,
  credits: 3,
  free: 'no booking option is found',
  cache: 'prices',
  isEmpty: (o) => o.booking_options.length === 0,
  mcp: { expose: true, title: 'Get booking options', view: bookingOptionsView, summary: bookingOptionsSummary, text: bookingOptionsText, app: 'flights' },
  // links belong to the caller and expire: minted per call, after the result cache
  finish: withBookingLinks,
  async handler(input, ctx) {
    const t = decodeBookingToken(input.booking_token);
    const search = withLocale(t.search, input);
    const timer = new SearchTimer();
    const { data: options, meta } = await fetchFlightBooking(ctx.deps.upstream, timer, search, t.selected);
    return {
      search_metadata: metadata(timer, ctx, meta),
      search_parameters: { engine: 'metasearch_flights_booking', ...searchEcho(search), booking_token: input.booking_token },
      pricing: pricing(search, bookingCurrency(options), meta.egressMode),
      booking_options: toCompatBookingOptions(options),
    };
  },
});

export const searchFlightLocations = defineTool({
  name: 'search_flight_locations',
  title: 'Airport and city lookup for flights',
  description:
    'Cities, regions and airports matching a text (Google Flights), with airport codes (LHR) and /m/ ids for departure_id/arrival_id of search_flights and get_flight_calendar; cities list nearby airports.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights_location_search',
  tags: TAGS,
  input: z.strictObject({
    q: z.string().trim().min(1).max(100).describe('place or airport name'),
    hl: localeFields.hl,
    gl: localeFields.gl,
    ...COMPAT_COMMON_FIELDS,
    ...CACHE_FIELD,
  }),
  output: LocationsOutput,
  credits: 1,
  free: 'nothing matches',
  cache: 'details',
  isEmpty: (o) => o.locations.length === 0,
  mcp: { expose: true, title: 'Search flight locations', summary: SUMMARIES.search_flight_locations },
  async handler(input, ctx) {
    const timer = new SearchTimer();
    const { data, meta } = await fetchFlightLocations(ctx.deps.upstream, timer, input);
    return {
      search_metadata: metadata(timer, ctx, meta),
      search_parameters: {
        engine: 'metasearch_flights_location_search',
        q: input.q,
        ...(input.hl ? { hl: input.hl } : {}),
        ...(input.gl ? { gl: input.gl } : {}),
      },
      locations: data.map((p) => ({ ...p, airports: p.airports.map((a) => ({ ...a, airports: [] })) })),
    };
  },
});

export const getFlightCalendar = defineTool({
  name: 'get_flight_calendar',
  title: 'Flight price calendar',
  description: `Cheapest price per departure date on Google Flights (and return date, for a round trip of the same length) over up to ${CALENDAR_MAX_DAYS} outbound dates: pick dates before search_flights. Needs departure_id, arrival_id and outbound_date, plus return_date unless flight_type is one_way. Airport codes only, from search_flight_locations (or known IATA codes).`,
  method: 'POST',
  path: '/v1/serp/metasearch_flights_calendar',
  tags: TAGS,
  input: z
    .strictObject({
      departure_id: searchFields.departure_id,
      arrival_id: searchFields.arrival_id,
      outbound_date: searchFields.outbound_date,
      return_date: searchFields.return_date,
      flight_type: z.enum(['round_trip', 'one_way']).default('round_trip').describe('trip type'),
      outbound_date_start: searchFields.outbound_date.describe('first departure date; default outbound_date'),
      outbound_date_end: searchFields.outbound_date.describe(`last departure date; default start + ${CALENDAR_MAX_DAYS - 1} days`),
      travel_class: searchFields.travel_class,
      stops: searchFields.stops,
      adults: searchFields.adults,
      children: searchFields.children,
      infants_in_seat: searchFields.infants_in_seat,
      infants_on_lap: searchFields.infants_on_lap,
      ...localeFields,
      ...COMPAT_COMMON_FIELDS,
      ...CACHE_FIELD,
    })
    .superRefine((v, ctx) => requireTripFields(v, missingIssue(ctx))),
  output: CalendarOutput,
  credits: 5,
  free: 'no date is priced',
  cache: 'prices',
  isEmpty: (o) => o.calendar.length === 0,
  mcp: {
    expose: true,
    title: 'Get flight price calendar',
    requires: { required: ['departure_id', 'arrival_id', 'outbound_date'] },
    summary: SUMMARIES.get_flight_calendar,
  },
  async handler(input, ctx) {
    const { outbound_date_start, outbound_date_end, ...params } = input;
    const search = normalizeFlightSearch(params);
    const start = outbound_date_start ?? search.legs[0].date;
    const end = outbound_date_end ?? addDays(start, CALENDAR_MAX_DAYS - 1);
    if (Number.isNaN(Date.parse(`${start}T00:00:00Z`))) throw new BadRequest('outbound_date_start is not a date');
    const timer = new SearchTimer();
    const { data, meta } = await fetchFlightCalendar(ctx.deps.upstream, timer, search, { start_date: start, end_date: end });
    const priced = data.find((d) => d.currency)?.currency ?? null;
    return {
      search_metadata: metadata(timer, ctx, meta),
      search_parameters: { engine: 'metasearch_flights_calendar', ...searchEcho(search), outbound_date_start: start, outbound_date_end: end },
      pricing: pricing(search, priced, meta.egressMode),
      calendar: data,
    };
  },
});

export const FLIGHT_TOOLS: Tool[] = [searchFlights, getReturnFlights, getBookingOptions, searchFlightLocations, getFlightCalendar];
