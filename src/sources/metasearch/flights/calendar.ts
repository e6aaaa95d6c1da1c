/**
 * Date-price graph of the flight front end: `FlightsFrontendService/GetCalendarGraph`.
 * The `f.req` filter struct is the one the results page echoes in its `ds:0` blob
 * (`[null,null,trip,null,[],cabin,[adults,children,lap,seat],…,segments,…,1]`); the reply's
 * inner JSON ends with rows `[departure, return|null, [[null, price], priceToken], 1]`.
 * Since 2026-08 this RPC is reported to need a page-signed `x-goog-batchexecute-bgr` header (README).
 */
import { nightsBetween } from '../../../domain/dates.js';
import { BadRequest } from '../../../domain/errors.js';
import { rpcPayload } from '../batchexecute.js';
import { arrOrNull, nonEmptyStr } from '../../../domain/json.js';
import { moneyOf } from './jspb.js';
import type { FlightSearch, Stops } from './params.js';
import { SEAT_CODE, TRIP_CODE } from './tfs.js';
import { priceTokenCurrency } from './price-token.js';

const RPC_PATH = '/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetCalendarGraph';
/** The struct's stop filter: 0 any, 1 nonstop, 2 at most one, 3 at most two (unlike `tfs`). */
const STOP_FILTER: Record<Stops, number> = { any: 0, nonstop: 1, one_stop_or_fewer: 2, two_stops_or_fewer: 3 };
/** Airport codes are written `[code, 0]` in the struct. */
const AIRPORT_KIND = 0;
/** Trailing constant of every segment in captured requests. */
const SEGMENT_TAIL = 3;
export const CALENDAR_MAX_DAYS = 61;

/** Paths into one calendar row. */
const ROW = { departure: [0], return: [1], price: [2, 0], priceToken: [2, 1] } as const;

export interface CalendarRange {
  /** First and last outbound date of the graph. */
  start_date: string;
  end_date: string;
}

export interface FlightCalendarRequest {
  path: string;
  query: Record<string, string>;
  body: string;
  headers: Record<string, string>;
}

export interface FlightCalendarDay {
  departure: string;
  return: string | null;
  price: number | null;
  currency: string | null;
}

function airports(codes: string[]): unknown[] {
  if (codes.some((c) => c.startsWith('/'))) throw new BadRequest('the price calendar takes airport codes, not location ids');
  return [codes.map((c) => [c, AIRPORT_KIND])];
}

/** The `f.req` filter struct for a one-way or round-trip search over an outbound-date range. */
function calendarFilters(search: FlightSearch, range: CalendarRange): unknown[] {
  if (search.flightType === 'multi_city') throw new BadRequest('the price calendar covers one-way and round trips');
  const span = nightsBetween(range.start_date, range.end_date);
  if (Number.isNaN(span) || span < 0) throw new BadRequest('end_date is before start_date');
  if (span + 1 > CALENDAR_MAX_DAYS) throw new BadRequest(`at most ${CALENDAR_MAX_DAYS} days per calendar request`);
  const p = search.passengers;
  const segments = search.legs.map((leg) => [
    airports(leg.departure),
    airports(leg.arrival),
    null,
    STOP_FILTER[search.stops],
    null,
    null,
    leg.date,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    SEGMENT_TAIL,
  ]);
  const settings = [
    null,
    null,
    TRIP_CODE[search.flightType],
    null,
    [],
    SEAT_CODE[search.travelClass],
    [p.adults, p.children, p.infantsOnLap, p.infantsInSeat],
    null,
    null,
    null,
    null,
    null,
    null,
    segments,
    null,
    null,
    null,
    1,
  ];
  const filters: unknown[] = [null, settings, [range.start_date, range.end_date]];
  if (search.flightType === 'round_trip') {
    const stay = nightsBetween(search.legs[0]!.date, search.legs[1]!.date);
    filters.push(null, [stay, stay]);
  }
  return filters;
}

export function buildCalendarRequest(search: FlightSearch, range: CalendarRange): FlightCalendarRequest {
  const query: Record<string, string> = {};
  if (search.hl) query.hl = search.hl;
  if (search.gl) query.gl = search.gl;
  if (search.currency) query.curr = search.currency;
  const freq = JSON.stringify([null, JSON.stringify(calendarFilters(search, range))]);
  return {
    path: RPC_PATH,
    query,
    body: new URLSearchParams({ 'f.req': freq }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
  };
}

/** Parses a GetCalendarGraph reply; rows without a date are dropped, rows without a price kept with null. */
export function parseCalendarGraph(text: string): FlightCalendarDay[] {
  const inner = rpcPayload(text, null);
  const list = Array.isArray(inner) ? arrOrNull(inner, inner.length - 1) : null;
  return (list ?? []).flatMap((row) => {
    const departure = nonEmptyStr(row, ...ROW.departure);
    if (!departure) return [];
    return [
      {
        departure,
        return: nonEmptyStr(row, ...ROW.return),
        price: moneyOf(row, ...ROW.price),
        currency: priceTokenCurrency(nonEmptyStr(row, ...ROW.priceToken)),
      },
    ];
  });
}
