/**
 * Flight search parameters in the compatible search API's vocabulary (`departure_id`,
 * `flight_type`, `travel_class`, `stops`, ...) and their normalized form, which request
 * builders and our departure/booking tokens carry.
 */
import { pastDateMessage } from '../../../domain/codes.js';
import { earliestStayDate } from '../../../domain/dates.js';
import { BadRequest, InvalidInput } from '../../../domain/errors.js';
import { str } from '../../../domain/json.js';

export const FLIGHT_TYPES = ['round_trip', 'one_way', 'multi_city'] as const;
export type FlightType = (typeof FLIGHT_TYPES)[number];

export const TRAVEL_CLASSES = ['economy', 'premium_economy', 'business', 'first_class'] as const;
export type TravelClass = (typeof TRAVEL_CLASSES)[number];

export const STOPS = ['any', 'nonstop', 'one_stop_or_fewer', 'two_stops_or_fewer'] as const;
export type Stops = (typeof STOPS)[number];

interface MultiCityLegParam {
  departure_id: string;
  arrival_id: string;
  date: string;
}

/** The compatible API's names; counts may arrive as strings from a query string. */
export interface FlightSearchParams {
  departure_id?: string;
  arrival_id?: string;
  outbound_date?: string;
  return_date?: string;
  /** JSON array (or the parsed array) of `{departure_id, arrival_id, date}` for multi_city. */
  multi_city_json?: string | MultiCityLegParam[];
  flight_type?: FlightType;
  travel_class?: TravelClass | 'first';
  adults?: number | string;
  children?: number | string;
  infants_in_seat?: number | string;
  infants_on_lap?: number | string;
  stops?: Stops;
  currency?: string;
  hl?: string;
  gl?: string;
}

interface SearchLeg {
  /** Airport codes or location ids (`/m/…`), several when the caller listed several. */
  departure: string[];
  arrival: string[];
  date: string;
}

interface Passengers {
  adults: number;
  children: number;
  infantsInSeat: number;
  infantsOnLap: number;
}

export interface FlightSearch {
  flightType: FlightType;
  legs: SearchLeg[];
  travelClass: TravelClass;
  passengers: Passengers;
  stops: Stops;
  currency?: string;
  hl?: string;
  gl?: string;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const CURRENCY_RE = /^[A-Z]{3}$/;
export const HL_RE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
export const GL_RE = /^[A-Za-z]{2}$/;
const LOCATION_RE = /^([A-Z0-9]{3}|\/[mg]\/[0-9a-z_]+)$/i;

function ids(value: string | undefined, name: string): string[] {
  const list = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) throw new BadRequest(`${name} is required`);
  for (const id of list) {
    if (!LOCATION_RE.test(id)) throw new BadRequest(`${name} must be airport codes or /m/ location ids`);
  }
  return list.map((id) => (id.startsWith('/') ? id : id.toUpperCase()));
}

function date(value: string | undefined, name: string): string {
  if (!value || !DATE_RE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new BadRequest(`${name} must be a YYYY-MM-DD date`);
  }
  return value;
}

function count(value: number | string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 9) throw new BadRequest(`${name} must be an integer from 0 to 9`);
  return n;
}

function multiCityLegs(raw: FlightSearchParams['multi_city_json']): SearchLeg[] {
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      throw new BadRequest('multi_city_json is not valid JSON');
    }
  }
  if (!Array.isArray(list) || list.length < 2) throw new BadRequest('multi_city_json must list at least two legs');
  // A leg's fields are read as strings: anything else is missing (400), never a crash on .split.
  return list.map((leg, i) => ({
    departure: ids(str(leg, 'departure_id') ?? undefined, `multi_city_json[${i}].departure_id`),
    arrival: ids(str(leg, 'arrival_id') ?? undefined, `multi_city_json[${i}].arrival_id`),
    date: futureLegDate(date(str(leg, 'date') ?? undefined, `multi_city_json[${i}].date`), i),
  }));
}

/** A leg given as JSON text is checked like the array form's legs (schemas.ts): not in the past. */
function futureLegDate(value: string, i: number): string {
  if (value < earliestStayDate())
    throw new InvalidInput([{ type: 'date_future', loc: ['body', 'multi_city_json', i, 'date'], msg: pastDateMessage(value), input: value }]);
  return value;
}

/** Validates the compatible parameters and resolves their defaults (round trip, economy, 1 adult, any stops). */
export function normalizeFlightSearch(params: FlightSearchParams): FlightSearch {
  const flightType = params.flight_type ?? 'round_trip';
  if (!FLIGHT_TYPES.includes(flightType)) throw new BadRequest('unknown flight_type');
  const travelClass = params.travel_class === 'first' ? 'first_class' : (params.travel_class ?? 'economy');
  if (!TRAVEL_CLASSES.includes(travelClass)) throw new BadRequest('unknown travel_class');
  const stops = params.stops ?? 'any';
  if (!STOPS.includes(stops)) throw new BadRequest('unknown stops');

  let legs: SearchLeg[];
  if (flightType === 'multi_city') {
    legs = multiCityLegs(params.multi_city_json);
  } else {
    const departure = ids(params.departure_id, 'departure_id');
    const arrival = ids(params.arrival_id, 'arrival_id');
    const outbound = date(params.outbound_date, 'outbound_date');
    legs = [{ departure, arrival, date: outbound }];
    if (flightType === 'round_trip') {
      const back = date(params.return_date, 'return_date');
      if (back < outbound) throw new BadRequest('return_date is before outbound_date');
      legs.push({ departure: arrival, arrival: departure, date: back });
    }
  }
  for (let i = 1; i < legs.length; i++) {
    if (legs[i]!.date < legs[i - 1]!.date) throw new BadRequest('leg dates must not go backwards');
  }

  const passengers: Passengers = {
    adults: count(params.adults, 'adults', 1),
    children: count(params.children, 'children', 0),
    infantsInSeat: count(params.infants_in_seat, 'infants_in_seat', 0),
    infantsOnLap: count(params.infants_on_lap, 'infants_on_lap', 0),
  };
  const total = passengers.adults + passengers.children + passengers.infantsInSeat + passengers.infantsOnLap;
  if (passengers.adults < 1) throw new BadRequest('at least one adult is required');
  if (total > 9) throw new BadRequest('at most 9 passengers');
  if (passengers.infantsOnLap > passengers.adults) throw new BadRequest('more infants on lap than adults');

  const currency = params.currency?.toUpperCase();
  if (currency !== undefined && currency !== '' && !CURRENCY_RE.test(currency)) throw new BadRequest('currency must be a 3-letter code');
  if (params.hl && !HL_RE.test(params.hl)) throw new BadRequest('hl must be a language code');
  if (params.gl && !GL_RE.test(params.gl)) throw new BadRequest('gl must be a 2-letter country code');

  return {
    flightType,
    legs,
    travelClass,
    passengers,
    stops,
    ...(currency ? { currency } : {}),
    ...(params.hl ? { hl: params.hl } : {}),
    ...(params.gl ? { gl: params.gl } : {}),
  };
}
