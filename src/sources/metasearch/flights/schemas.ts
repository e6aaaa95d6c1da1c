/**
 * Zod schemas of the flight routes: input fields in the compatible API's vocabulary (numbers and
 * booleans also as query-string text) and the exact response shapes the handlers build.
 */
import { z } from 'zod';
import { futureOnly } from '../../../domain/codes.js';
import { queryInt } from '../../../domain/query-params.js';
import { SearchMetadataSchema } from '../../shared/search-metadata.js';
import { REPLY_EGRESS_MODES } from '../../../upstream/egress.js';
import type { CompatBookingOption } from './parse-booking.js';
import { FLIGHT_TYPES, STOPS, TRAVEL_CLASSES } from './params.js';
import type { CompatFlightsBody } from './to-compat.js';

const count = (min: number, def: number) => queryInt.pipe(z.int().min(min).max(9)).default(def).describe(`${min}-9, default ${def}`);
/** A departure date: YYYY-MM-DD, not in the past (src/domain/codes.ts futureOnly). */
const day = futureOnly(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'));
/** One or more comma-separated airport codes or `/m/` location ids. */
const locations = z.string().min(3).max(200);

export const localeFields = {
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'expected a 3-letter currency code')
    .transform((c) => c.toUpperCase())
    .optional()
    .describe('currency asked for, e.g. USD (pricing.currency: the one priced)'),
  hl: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'expected a language code')
    .optional()
    .describe('interface language, e.g. en'),
  gl: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'expected a 2-letter country code')
    .transform((c) => c.toLowerCase())
    .optional()
    .describe('market country, e.g. us'),
};

export const searchFields = {
  departure_id: locations.optional().describe('airport codes or /m/ ids, comma-separated (e.g. JFK or JFK,EWR)'),
  arrival_id: locations.optional().describe('airport codes or /m/ ids, comma-separated'),
  outbound_date: day.optional().describe('departure date, YYYY-MM-DD'),
  return_date: day.optional().describe('required for round_trip'),
  flight_type: z.enum(FLIGHT_TYPES).default('round_trip').describe('trip type'),
  multi_city_json: z
    .union([
      z.string().max(4000),
      z
        .array(z.strictObject({ departure_id: locations, arrival_id: locations, date: day }))
        .min(2)
        .max(6),
    ])
    .optional()
    .describe('multi_city legs: [{departure_id, arrival_id, date}, …] (or that JSON as text)'),
  travel_class: z.enum(TRAVEL_CLASSES).default('economy').describe('cabin'),
  stops: z.enum(STOPS).default('any').describe('most stops'),
  adults: count(1, 1),
  children: count(0, 0),
  infants_in_seat: count(0, 0),
  infants_on_lap: count(0, 0),
};

type Missing = (path: string, why: string) => void;

/** The fields each trip type needs; reported as 422 `missing` like absent required fields. */
export function requireTripFields(
  v: { flight_type: string; departure_id?: string; arrival_id?: string; outbound_date?: string; return_date?: string; multi_city_json?: unknown },
  missing: Missing,
): void {
  if (v.flight_type === 'multi_city') {
    if (v.multi_city_json === undefined) missing('multi_city_json', 'a multi_city trip gives its legs there');
    return;
  }
  const unlessMulti = 'unless flight_type is multi_city';
  if (v.departure_id === undefined) missing('departure_id', unlessMulti);
  if (v.arrival_id === undefined) missing('arrival_id', unlessMulti);
  if (v.outbound_date === undefined) missing('outbound_date', unlessMulti);
  if (v.flight_type === 'round_trip' && v.return_date === undefined)
    missing('return_date', 'for a round trip, the default flight_type; set flight_type one_way for none');
}

export function missingIssue(ctx: z.core.$RefinementCtx): Missing {
  return (path, why) => ctx.addIssue({ code: 'invalid_type', expected: 'string', path: [path], message: `Field required ${why}`, input: undefined });
}

const Pricing = z.object({
  requested_currency: z.string().nullable(),
  currency: z.string().nullable().describe('currency the upstream actually priced in (from its price tokens)'),
  hl: z.string().nullable(),
  gl: z.string().nullable(),
  egress_mode: z.enum(REPLY_EGRESS_MODES),
});
export type PricingBlock = z.infer<typeof Pricing>;

const Head = {
  search_metadata: SearchMetadataSchema,
  search_parameters: z.record(z.string(), z.string()),
  pricing: Pricing,
};

const AirportTime = z.object({ name: z.string().nullable(), id: z.string(), date: z.string().nullable(), time: z.string().nullable() });
const Flight = z.object({
  departure_airport: AirportTime,
  arrival_airport: AirportTime,
  duration: z.number().nullable(),
  airplane: z.string().nullable(),
  airline: z.string().nullable(),
  airline_logo: z.string().optional(),
  travel_class: z.string().nullable(),
  flight_number: z.string().nullable(),
  ticket_also_sold_by: z.array(z.string()).optional(),
  is_overnight: z.literal(true).optional(),
  is_often_delayed: z.literal(true).optional(),
  extensions: z.array(z.string()).optional(),
  detected_extensions: z
    .object({ legroom_short: z.string().optional(), legroom_long: z.string().optional(), carbon_emission: z.number().optional() })
    .optional(),
});
const Itinerary = z.object({
  flights: z.array(Flight),
  layovers: z
    .array(z.object({ duration: z.number().nullable(), name: z.string().nullable(), id: z.string().nullable(), is_overnight: z.literal(true).optional() }))
    .optional(),
  total_duration: z.number().nullable(),
  carbon_emissions: z
    .object({ this_flight: z.number().nullable(), typical_for_this_route: z.number().nullable(), difference_percent: z.number().nullable() })
    .optional(),
  price: z.number().nullable(),
  type: z.string(),
  airline_logo: z.string().optional(),
  departure_token: z.string().optional().describe('pass to get_return_flights for the next leg'),
  booking_token: z.string().optional().describe('pass to get_booking_options'),
});
const CodeName = z.object({ code: z.string(), name: z.string().nullable() });
const Airport = z.object({
  airport: z.object({ id: z.string(), name: z.string().nullable() }),
  city: z.string().nullable(),
  country: z.string().nullable(),
  country_code: z.string().nullable(),
  image: z.string().nullable(),
  thumbnail: z.string().nullable(),
});
const AirlineLink = z.object({ airline_code: z.string(), airline: z.string().nullable(), url: z.string() });

const FlightsBodyFields = {
  best_flights: z.array(Itinerary),
  other_flights: z.array(Itinerary),
  price_insights: z
    .object({
      lowest_price: z.number().nullable(),
      price_level: z.string().nullable(),
      typical_price_range: z.object({ low_price: z.number().nullable(), high_price: z.number().nullable() }).nullable(),
      price_history: z.array(z.object({ price: z.number(), iso_date: z.string() })).optional(),
    })
    .optional(),
  airports: z.array(z.object({ departure: z.array(Airport), arrival: z.array(Airport) })).optional(),
  airlines: z.object({ alliances: z.array(CodeName), airlines: z.array(CodeName), hubs: z.array(CodeName) }).optional(),
  baggage_allowance_links: z.array(AirlineLink).optional(),
  passenger_assistance_links: z.array(AirlineLink).optional(),
};

export const FlightsOutput = z.object({
  ...Head,
  ...FlightsBodyFields,
  omitted_flights: z.int().optional().describe('itineraries left out by max_flights'),
});

const BookingSide = z.object({
  book_with: z.string(),
  airline: z.boolean().optional(),
  marketed_as: z.array(z.string()),
  price: z.number().nullable(),
  option_title: z.string().optional(),
  booking_request: z
    .object({ url: z.string(), post_data: z.string().optional() })
    .describe("the seller's click-out as the page makes it: a POST of post_data to url"),
  booking_link: z
    .object({ url: z.string(), method: z.literal('GET'), expires_at: z.string() })
    .optional()
    .describe("a GET link on this service that posts booking_request from a person's browser; no key, no credits; short-lived (expires_at)"),
});
const BookingOption = z.object({
  together: BookingSide.optional(),
  separate_tickets: z.literal(true).optional(),
  departing: BookingSide.optional(),
  returning: BookingSide.optional(),
});
export const BookingOutput = z.object({ ...Head, booking_options: z.array(BookingOption) });

const LocationBase = {
  kind: z.number().nullable(),
  title: z.string().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  kgmid: z.string().nullable(),
  code: z.string().nullable(),
  distance: z.string().nullable(),
  score: z.number().nullable(),
};
const NearbyAirport = z.object({ ...LocationBase, airports: z.array(z.never()) });
const Place = z.object({ ...LocationBase, airports: z.array(NearbyAirport) });
export const LocationsOutput = z.object({
  search_metadata: SearchMetadataSchema,
  search_parameters: z.record(z.string(), z.string()),
  locations: z.array(Place),
});

export const CalendarOutput = z.object({
  ...Head,
  calendar: z.array(z.object({ departure: z.string(), return: z.string().nullable(), price: z.number().nullable(), currency: z.string().nullable() })),
});

// compile-time checks that the schemas describe what the mappers produce
type Assignable<T, U extends T> = U;
/** @public */
export type _FlightsBodyCheck = Assignable<z.infer<z.ZodObject<typeof FlightsBodyFields>>, CompatFlightsBody>;
/** @public */
export type _BookingCheck = Assignable<z.infer<typeof BookingOption>, CompatBookingOption>;
