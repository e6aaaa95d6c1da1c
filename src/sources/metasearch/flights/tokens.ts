/**
 * Our own `departure_token` and `booking_token`: base64url JSON carrying what the next call
 * needs — the normalized search and the flights chosen so far, leg by leg. They are opaque to
 * clients; decoding validates every field and turns garbage into a 400.
 */
import { z } from 'zod';
import { BadRequest } from '../../../domain/errors.js';
import { CURRENCY_RE, FLIGHT_TYPES, GL_RE, HL_RE, STOPS, TRAVEL_CLASSES, type FlightSearch } from './params.js';
import type { FlightItinerary } from './parse-results.js';
import type { TfsSelectedFlight } from './tfs.js';

const VERSION = 1;
const MAX_TOKEN_LENGTH = 8192;

const code = z.string().regex(/^([A-Z0-9]{3}|\/[mg]\/[0-9a-z_]+)$/i);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const count = z.number().int().min(0).max(9);

const searchSchema = z
  .object({
    flightType: z.enum(FLIGHT_TYPES),
    legs: z
      .array(z.object({ departure: z.array(code).min(1).max(7), arrival: z.array(code).min(1).max(7), date: day }).strict())
      .min(1)
      .max(6),
    travelClass: z.enum(TRAVEL_CLASSES),
    passengers: z.object({ adults: count.min(1), children: count, infantsInSeat: count, infantsOnLap: count }).strict(),
    stops: z.enum(STOPS),
    currency: z.string().regex(CURRENCY_RE).optional(),
    hl: z.string().regex(HL_RE).optional(),
    gl: z.string().regex(GL_RE).optional(),
  })
  .strict();

const selectedSchema = z
  .object({
    from: z.string().regex(/^[A-Z0-9]{3}$/),
    date: day,
    to: z.string().regex(/^[A-Z0-9]{3}$/),
    airline: z.string().regex(/^[A-Z0-9]{2,3}$/),
    flightNumber: z.string().regex(/^[0-9A-Z]{1,5}$/),
  })
  .strict();

const departureSchema = z
  .object({ v: z.literal(VERSION), t: z.literal('departure'), search: searchSchema, selected: z.array(z.array(selectedSchema).min(1)).min(1) })
  .strict();

const bookingSchema = z
  .object({
    v: z.literal(VERSION),
    t: z.literal('booking'),
    search: searchSchema,
    selected: z.array(z.array(selectedSchema).min(1)).min(1),
    /** The upstream's token next to the chosen fare and the price shown with it, for the booking step. */
    price_token: z.string().max(2048).nullable(),
    price: z.number().nullable(),
    currency: z.string().regex(CURRENCY_RE).nullable(),
  })
  .strict();

export type DepartureToken = z.infer<typeof departureSchema>;
export type BookingToken = z.infer<typeof bookingSchema>;

function encode(payload: object): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

function decode<T>(token: unknown, schema: z.ZodType<T>, name: string): T {
  const bad = () => new BadRequest(`invalid ${name}`);
  if (typeof token !== 'string' || !token || token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw bad();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw bad();
  return parsed.data;
}

function checkConsistent(search: FlightSearch, selected: TfsSelectedFlight[][], complete: boolean): boolean {
  if (complete ? selected.length !== search.legs.length : selected.length >= search.legs.length) return false;
  // each chosen flight list starts on its leg's date and chains airport to airport
  return selected.every((flights, i) => {
    const [head] = flights;
    const leg = search.legs[i];
    return head !== undefined && leg !== undefined && head.date === leg.date && flights.every((f, j) => j === 0 || flights[j - 1]!.to === f.from);
  });
}

export function encodeDepartureToken(search: FlightSearch, selected: TfsSelectedFlight[][]): string {
  return encode({ v: VERSION, t: 'departure', search, selected } satisfies DepartureToken);
}

export function decodeDepartureToken(token: unknown): DepartureToken {
  const out = decode(token, departureSchema, 'departure_token');
  if (!checkConsistent(out.search, out.selected, false)) throw new BadRequest('invalid departure_token');
  return out;
}

export function encodeBookingToken(
  search: FlightSearch,
  selected: TfsSelectedFlight[][],
  fare: { price_token: string | null; price: number | null; currency: string | null },
): string {
  return encode({ v: VERSION, t: 'booking', search, selected, ...fare } satisfies BookingToken);
}

export function decodeBookingToken(token: unknown): BookingToken {
  const out = decode(token, bookingSchema, 'booking_token');
  if (!checkConsistent(out.search, out.selected, true)) throw new BadRequest('invalid booking_token');
  return out;
}

/** The flights of a parsed itinerary, in the form the `tfs` parameter pins a leg by. */
export function selectionOf(it: FlightItinerary): TfsSelectedFlight[] | null {
  const out: TfsSelectedFlight[] = [];
  for (const f of it.flights) {
    const code = f.airline_code;
    const number = code && f.flight_number?.startsWith(`${code} `) ? f.flight_number.slice(code.length + 1) : null;
    if (!code || !number || !f.departure_airport.id || !f.arrival_airport.id || !f.departure_airport.date) return null;
    out.push({ from: f.departure_airport.id, date: f.departure_airport.date, to: f.arrival_airport.id, airline: code, flightNumber: number });
  }
  return out;
}
