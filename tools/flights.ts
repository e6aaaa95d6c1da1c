import { z } from 'zod';
import { need } from '../src/deps.js';
import { addDays } from '../src/domain/dates.js';
import { BadRequest } from '../src/platform/errors.js';
import { defineTool, type Tool, type ToolContext } from '../src/registry/define-tool.js';
import { SearchTimer } from '../src/sources/shared/search-metadata.js';
import { CALENDAR_MAX_DAYS } from '../src/sources/metasearch/flights/calendar.js';
import { pageCurrency, pricing, searchEcho, withLocale } from '../src/sources/metasearch/flights/echo.js';
import { fetchFlightBooking, fetchFlightCalendar, fetchFlightLocations, fetchFlightResults, type FetchMeta } from '../src/sources/metasearch/flights/fetch.js';
import { normalizeFlightSearch, STOPS, TRAVEL_CLASSES, type FlightSearch } from '../src/sources/metasearch/flights/params.js';
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

const TAGS = ['flights'];
const token = z.string().min(1).max(8192);

function metadata(timer: SearchTimer, ctx: ToolContext, meta: FetchMeta) {
  return timer.metadata(ctx.requestId, meta.requestUrl, { collection_id: meta.collectionId, observed_at: meta.observedAt, wire_bytes: meta.wireBytes });
}

/** Results page for the next leg, in the compatible shape, with the effective search echoed. */
async function flightsPage(engine: string, search: FlightSearch, selected: TfsSelectedFlight[][], echo: Record<string, string>, ctx: ToolContext) {
  const timer = new SearchTimer();
  const { data: page, meta } = await fetchFlightResults(need(ctx.deps, 'upstream'), timer, search, selected);
  const body = timer.parse(() => toCompatFlights(page, { search, selected }));
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
    'Live flight search on the flight metasearch engine (parameters and response of the compatible google_flights API): best_flights, other_flights, price_insights, airports. ' +
    'One-way and last-leg itineraries carry a booking_token for get_booking_options; the outbound of a round trip (and each multi-city leg) carries a departure_token for get_return_flights. ' +
    'Airport codes or /m/ ids come from search_flight_locations. pricing.currency says which currency was actually priced. Costs 3 credits; an empty result is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights',
  tags: TAGS,
  input: z.strictObject({ ...searchFields, ...localeFields }).superRefine((v, ctx) => requireTripFields(v, missingIssue(ctx))),
  output: FlightsOutput,
  credits: 3,
  isEmpty: noItineraries,
  mcp: { expose: true, title: 'Search flights' },
  async handler(input, ctx) {
    const search = normalizeFlightSearch(input);
    return flightsPage('metasearch_flights', search, [], {}, ctx);
  },
});

export const getReturnFlights = defineTool({
  name: 'get_return_flights',
  title: 'Return flights for a chosen outbound',
  description:
    'The flights of the next leg once an outbound is chosen: pass the departure_token of an itinerary from search_flights (round trip or multi-city). ' +
    'Each returned itinerary carries a booking_token for get_booking_options (or a departure_token while multi-city legs remain). Prices are for the whole trip. ' +
    'currency, hl and gl override the ones of the original search. Costs 3 credits; an empty result is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights_return',
  tags: TAGS,
  input: z.strictObject({ departure_token: token, ...localeFields }),
  output: FlightsOutput,
  credits: 3,
  isEmpty: noItineraries,
  mcp: { expose: true, title: 'Get return flights' },
  async handler(input, ctx) {
    const t = decodeDepartureToken(input.departure_token);
    const search = withLocale(t.search, input);
    return flightsPage('metasearch_flights_return', search, t.selected, { departure_token: input.departure_token }, ctx);
  },
});

export const getBookingOptions = defineTool({
  name: 'get_booking_options',
  title: 'Booking options of a chosen itinerary',
  description:
    'Who sells a fully chosen itinerary and at what price (airline or agency, fare name, click-out booking_request): pass a booking_token from search_flights (one way) or get_return_flights. ' +
    'Answers 503 when the upstream booking page carries no booking options in its data. Costs 3 credits; an empty result is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights_booking',
  tags: TAGS,
  input: z.strictObject({ booking_token: token, ...localeFields }),
  output: BookingOutput,
  credits: 3,
  isEmpty: (o) => o.booking_options.length === 0,
  mcp: { expose: true, title: 'Get booking options' },
  async handler(input, ctx) {
    const t = decodeBookingToken(input.booking_token);
    const search = withLocale(t.search, input);
    const timer = new SearchTimer();
    const { data: options, meta } = await fetchFlightBooking(need(ctx.deps, 'upstream'), timer, search, t.selected);
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
    'Autocomplete of the flight metasearch engine: cities, regions, airports and stations matching a text, with codes (LHR) and /m/ ids usable as departure_id / arrival_id in search_flights. ' +
    'Cities list their nearby airports with distances. Costs 1 credit; no match is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights_location_search',
  tags: TAGS,
  input: z.strictObject({ q: z.string().trim().min(1).max(100), hl: localeFields.hl, gl: localeFields.gl }),
  output: LocationsOutput,
  credits: 1,
  isEmpty: (o) => o.locations.length === 0,
  mcp: { expose: true, title: 'Search flight locations' },
  async handler(input, ctx) {
    const timer = new SearchTimer();
    const { data, meta } = await fetchFlightLocations(need(ctx.deps, 'upstream'), timer, input);
    return {
      search_metadata: metadata(timer, ctx, meta),
      search_parameters: { engine: 'metasearch_flights_location_search', q: input.q, ...(input.hl ? { hl: input.hl } : {}), ...(input.gl ? { gl: input.gl } : {}) },
      locations: data.map((p) => ({ ...p, airports: p.airports.map((a) => ({ ...a, airports: [] })) })),
    };
  },
});

export const getFlightCalendar = defineTool({
  name: 'get_flight_calendar',
  title: 'Flight price calendar',
  description:
    `Cheapest price per departure date (and return date, for a round trip of the same length of stay) over up to ${CALENDAR_MAX_DAYS} outbound dates, from the flight metasearch engine's date grid. ` +
    'Airport codes only. outbound_date_start / outbound_date_end default to outbound_date and 60 days after it. Use it to pick dates before search_flights. Costs 5 credits; an empty calendar is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_flights_calendar',
  tags: TAGS,
  input: z
    .strictObject({
      departure_id: searchFields.departure_id,
      arrival_id: searchFields.arrival_id,
      outbound_date: searchFields.outbound_date,
      return_date: searchFields.return_date,
      flight_type: z.enum(['round_trip', 'one_way']).default('round_trip'),
      outbound_date_start: searchFields.outbound_date,
      outbound_date_end: searchFields.outbound_date,
      travel_class: z.enum(TRAVEL_CLASSES).default('economy'),
      stops: z.enum(STOPS).default('any'),
      adults: searchFields.adults,
      children: searchFields.children,
      infants_in_seat: searchFields.infants_in_seat,
      infants_on_lap: searchFields.infants_on_lap,
      ...localeFields,
    })
    .superRefine((v, ctx) => requireTripFields(v, missingIssue(ctx))),
  output: CalendarOutput,
  credits: 5,
  isEmpty: (o) => o.calendar.length === 0,
  mcp: { expose: true, title: 'Get flight price calendar' },
  async handler(input, ctx) {
    const { outbound_date_start, outbound_date_end, ...params } = input;
    const search = normalizeFlightSearch(params);
    const start = outbound_date_start ?? search.legs[0].date;
    const end = outbound_date_end ?? addDays(start, CALENDAR_MAX_DAYS - 1);
    if (Number.isNaN(Date.parse(`${start}T00:00:00Z`))) throw new BadRequest('outbound_date_start is not a date');
    const timer = new SearchTimer();
    const { data, meta } = await fetchFlightCalendar(need(ctx.deps, 'upstream'), timer, search, { start_date: start, end_date: end });
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

/** Engine names of `GET /api/v1/search?engine=…` served by these tools (same input schemas and handlers). */
export const FLIGHT_ENGINES: Record<string, Tool> = {
  metasearch_flights: searchFlights,
  metasearch_flights_return: getReturnFlights,
  metasearch_flights_booking: getBookingOptions,
  metasearch_flights_location_search: searchFlightLocations,
  metasearch_flights_calendar: getFlightCalendar,
};
