/**
 * The flight search page's `tfs` URL parameter: a base64 protobuf message. Field numbers were
 * learned from the recorded test vectors, the compatible API's own `request_url`s (which add
 * fields 1, 2, 14, 16 and typed locations) and public reverse-engineering notes.
 */
import { BadRequest } from '../../../domain/errors.js';
import { normalizeFlightSearch } from './params.js';
import type { FlightSearch, FlightSearchParams, Stops, TravelClass, FlightType } from './params.js';
import { ProtoDecodeError, ProtoWriter, base64ToBytes, bytesToBase64, decodeFields, decodePacked, fieldBytes, fieldInt, fieldString } from '../protobuf.js';

/** Field numbers of the `tfs` message and its parts. */
const F = {
  top: { f1: 1, f2: 2, leg: 3, passenger: 8, seat: 9, f14: 14, f16: 16, trip: 19 },
  leg: { date: 2, selected: 4, maxStops: 5, airline: 6, from: 13, to: 14 },
  location: { type: 1, code: 2 },
  selected: { from: 1, date: 2, to: 3, airline: 5, flightNumber: 6 },
  f16: { value: 1 },
} as const;

export const SEAT_CODE: Record<TravelClass, number> = { economy: 1, premium_economy: 2, business: 3, first_class: 4 };
export const TRIP_CODE: Record<FlightType, number> = { round_trip: 1, one_way: 2, multi_city: 3 };
const PASSENGER_CODE = { adult: 1, child: 2, infantInSeat: 3, infantOnLap: 4 } as const;
/** Field 5 is "at most N stops"; absent means any number (0 pins the search to nonstop). */
const MAX_STOPS: Record<Stops, number | undefined> = {
  any: undefined,
  nonstop: 0,
  one_stop_or_fewer: 1,
  two_stops_or_fewer: 2,
};
/** Location kinds seen in the front end's own URLs: 1 airport code, 2 or 3 a /m/ location id. */
const LOCATION_TYPE = { airport: 1, location: 3 } as const;

interface TfsLocation {
  type?: number;
  code: string;
}

/** A flight already chosen for a leg (the outbound when asking for returns, every leg when booking). */
export interface TfsSelectedFlight {
  from: string;
  date: string;
  to: string;
  airline: string;
  flightNumber: string;
}

interface TfsLeg {
  date: string;
  selectedFlights?: TfsSelectedFlight[];
  maxStops?: number;
  airlines?: string[];
  from: TfsLocation[];
  to: TfsLocation[];
}

export interface TfsMessage {
  /** Fields 1, 2, 14 and 16: meaning unknown; the front end always writes 28, 2, 1 and 2^64-1. */
  f1?: number;
  f2?: number;
  legs: TfsLeg[];
  passengers: number[];
  /** The test vectors pack field 8; the front end repeats it unpacked. */
  packedPassengers?: boolean;
  seat?: number;
  f14?: number;
  f16?: bigint;
  trip?: number;
}

function locationWriter(loc: TfsLocation): ProtoWriter {
  const w = new ProtoWriter();
  if (loc.type !== undefined) w.uint(F.location.type, loc.type);
  return w.string(F.location.code, loc.code);
}

function legWriter(leg: TfsLeg): ProtoWriter {
  const w = new ProtoWriter().string(F.leg.date, leg.date);
  for (const s of leg.selectedFlights ?? []) {
    const sw = new ProtoWriter()
      .string(F.selected.from, s.from)
      .string(F.selected.date, s.date)
      .string(F.selected.to, s.to)
      .string(F.selected.airline, s.airline)
      .string(F.selected.flightNumber, s.flightNumber);
    w.message(F.leg.selected, sw);
  }
  if (leg.maxStops !== undefined) w.uint(F.leg.maxStops, leg.maxStops);
  for (const a of leg.airlines ?? []) w.string(F.leg.airline, a);
  for (const loc of leg.from) w.message(F.leg.from, locationWriter(loc));
  for (const loc of leg.to) w.message(F.leg.to, locationWriter(loc));
  return w;
}

/** Serializes a `tfs` message; `urlSafe` gives the unpadded base64url form URLs carry. */
export function encodeTfs(msg: TfsMessage, opts: { urlSafe?: boolean } = {}): string {
  const w = new ProtoWriter();
  if (msg.f1 !== undefined) w.uint(F.top.f1, msg.f1);
  if (msg.f2 !== undefined) w.uint(F.top.f2, msg.f2);
  for (const leg of msg.legs) w.message(F.top.leg, legWriter(leg));
  if (msg.packedPassengers) {
    if (msg.passengers.length) w.packed(F.top.passenger, msg.passengers);
  } else {
    for (const p of msg.passengers) w.uint(F.top.passenger, p);
  }
  if (msg.seat !== undefined) w.uint(F.top.seat, msg.seat);
  if (msg.f14 !== undefined) w.uint(F.top.f14, msg.f14);
  if (msg.f16 !== undefined) w.message(F.top.f16, new ProtoWriter().uint(F.f16.value, msg.f16));
  if (msg.trip !== undefined) w.uint(F.top.trip, msg.trip);
  return bytesToBase64(w.finish(), opts.urlSafe ?? false);
}

function unexpected(where: string, field: number): never {
  throw new ProtoDecodeError(`unexpected field ${field} in ${where}`);
}

function decodeLocation(bytes: Uint8Array): TfsLocation {
  const loc: TfsLocation = { code: '' };
  for (const { field, value } of decodeFields(bytes)) {
    if (field === F.location.type) loc.type = fieldInt(value);
    else if (field === F.location.code) loc.code = fieldString(value);
    else unexpected('location', field);
  }
  return loc;
}

function decodeSelected(bytes: Uint8Array): TfsSelectedFlight {
  const s: TfsSelectedFlight = { from: '', date: '', to: '', airline: '', flightNumber: '' };
  for (const { field, value } of decodeFields(bytes)) {
    if (field === F.selected.from) s.from = fieldString(value);
    else if (field === F.selected.date) s.date = fieldString(value);
    else if (field === F.selected.to) s.to = fieldString(value);
    else if (field === F.selected.airline) s.airline = fieldString(value);
    else if (field === F.selected.flightNumber) s.flightNumber = fieldString(value);
    else unexpected('selected flight', field);
  }
  return s;
}

function decodeLeg(bytes: Uint8Array): TfsLeg {
  const leg: TfsLeg = { date: '', from: [], to: [] };
  for (const { field, value } of decodeFields(bytes)) {
    if (field === F.leg.date) leg.date = fieldString(value);
    else if (field === F.leg.selected) (leg.selectedFlights ??= []).push(decodeSelected(fieldBytes(value)));
    else if (field === F.leg.maxStops) leg.maxStops = fieldInt(value);
    else if (field === F.leg.airline) (leg.airlines ??= []).push(fieldString(value));
    else if (field === F.leg.from) leg.from.push(decodeLocation(fieldBytes(value)));
    else if (field === F.leg.to) leg.to.push(decodeLocation(fieldBytes(value)));
    else unexpected('leg', field);
  }
  return leg;
}

/** Parses a `tfs` value (either base64 alphabet); throws ProtoDecodeError on anything else. */
export function decodeTfs(tfs: string): TfsMessage {
  const msg: TfsMessage = { legs: [], passengers: [] };
  for (const { field, value } of decodeFields(base64ToBytes(tfs))) {
    switch (field) {
      case F.top.f1:
        msg.f1 = fieldInt(value);
        break;
      case F.top.f2:
        msg.f2 = fieldInt(value);
        break;
      case F.top.leg:
        msg.legs.push(decodeLeg(fieldBytes(value)));
        break;
      case F.top.passenger:
        if (value.wire === 2) {
          msg.packedPassengers = true;
          msg.passengers.push(...decodePacked(value.bytes).map(Number));
        } else {
          msg.passengers.push(fieldInt(value));
        }
        break;
      case F.top.seat:
        msg.seat = fieldInt(value);
        break;
      case F.top.f14:
        msg.f14 = fieldInt(value);
        break;
      case F.top.f16: {
        const inner = decodeFields(fieldBytes(value));
        const v = inner.find((f) => f.field === F.f16.value)?.value;
        if (!v || v.wire !== 0 || inner.length !== 1) throw new ProtoDecodeError('unexpected field 16 content');
        msg.f16 = v.value;
        break;
      }
      case F.top.trip:
        msg.trip = fieldInt(value);
        break;
      default:
        unexpected('tfs', field);
    }
  }
  return msg;
}

const MAX_U64 = (1n << 64n) - 1n;
const HOST_PATHS = { search: '/travel/flights/search', booking: '/travel/flights/booking' } as const;

export interface FlightPageRequest {
  path: string;
  query: Record<string, string>;
}

function location(code: string): TfsLocation {
  return { type: code.startsWith('/') ? LOCATION_TYPE.location : LOCATION_TYPE.airport, code };
}

/** The `tfs` message the front end writes for a search, with the flights already chosen per leg. */
function searchToTfs(search: FlightSearch, selected: TfsSelectedFlight[][] = []): TfsMessage {
  const p = search.passengers;
  const passengers = [
    ...Array<number>(p.adults).fill(PASSENGER_CODE.adult),
    ...Array<number>(p.children).fill(PASSENGER_CODE.child),
    ...Array<number>(p.infantsInSeat).fill(PASSENGER_CODE.infantInSeat),
    ...Array<number>(p.infantsOnLap).fill(PASSENGER_CODE.infantOnLap),
  ];
  const maxStops = MAX_STOPS[search.stops];
  return {
    f1: 28,
    f2: 2,
    legs: search.legs.map((leg, i) => ({
      date: leg.date,
      ...(selected[i]?.length ? { selectedFlights: selected[i] } : {}),
      ...(maxStops !== undefined ? { maxStops } : {}),
      from: leg.departure.map(location),
      to: leg.arrival.map(location),
    })),
    passengers,
    seat: SEAT_CODE[search.travelClass],
    f14: 1,
    f16: MAX_U64,
    trip: TRIP_CODE[search.flightType],
  };
}

function pageRequest(path: string, search: FlightSearch, tfs: TfsMessage): FlightPageRequest {
  const query: Record<string, string> = { tfs: encodeTfs(tfs, { urlSafe: true }) };
  if (search.hl) query.hl = search.hl;
  if (search.gl) query.gl = search.gl;
  if (search.currency) query.curr = search.currency;
  return { path, query };
}

/**
 * Results page for the first leg not yet chosen: the outbound search, or (with `selected`
 * holding the chosen outbound) the return / next multi-city leg.
 */
export function buildFlightSearchRequest(params: FlightSearchParams | FlightSearch, selected: TfsSelectedFlight[][] = []): FlightPageRequest {
  const search = 'legs' in params ? params : normalizeFlightSearch(params);
  if (selected.length >= search.legs.length) throw new BadRequest('every leg is already chosen; use the booking request');
  return pageRequest(HOST_PATHS.search, search, searchToTfs(search, selected));
}

/** Booking page for a fully chosen itinerary (one flight list per leg). */
export function buildFlightBookingRequest(search: FlightSearch, selected: TfsSelectedFlight[][]): FlightPageRequest {
  if (selected.length !== search.legs.length || selected.some((s) => !s.length)) {
    throw new BadRequest('a booking needs chosen flights for every leg');
  }
  return pageRequest(HOST_PATHS.booking, search, searchToTfs(search, selected));
}
