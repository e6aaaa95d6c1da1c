/**
 * Parses a flight results page (`/travel/flights/search?tfs=…`) of the metasearch engine.
 * The itineraries live in the `ds:1` AF_initDataCallback blob: [2] holds the best flights,
 * [3] the other flights, each row `[info, [[null, price], priceToken], …, itineraryToken, …]`.
 */
import { UpstreamContractChanged } from '../../../domain/errors.js';
import { afKeys, extractAfData } from './af-data.js';
import { arr, arrOrNull, at, nonEmptyStr, num } from '../../../domain/json.js';
import { dateOf, flag, moneyOf, timeOf } from './jspb.js';
import { parsePageExtras, priceLevelFromPage, type FlightPageExtras } from './parse-page-extras.js';
import { priceTokenCurrency } from './price-token.js';

const SOURCE = 'metasearch';
const BLOB_KEY = 'ds:1';

/** Paths into `ds:1`. */
const PAGE = {
  best: [2, 0],
  other: [3, 0],
  sessionId: [0, 4],
} as const;

/** Paths into one itinerary row. */
const ROW = {
  info: [0],
  price: [1, 0],
  priceToken: [1, 1],
  itineraryToken: [8],
} as const;

/** Paths into a row's `info` array. */
const INFO = {
  airlineCode: [0],
  airlineNames: [1],
  legs: [2],
  departureAirport: [3],
  departureDate: [4],
  departureTime: [5],
  arrivalAirport: [6],
  arrivalDate: [7],
  arrivalTime: [8],
  totalDuration: [9],
  selfTransfer: [12],
  layovers: [13],
  emissionsThisFlight: [22, 7],
  emissionsTypical: [22, 8],
  emissionsDifferencePercent: [22, 3],
} as const;

/** Paths into one leg (flight segment) of `info[2]`. */
const LEG = {
  operator: [2],
  departureAirport: [3],
  departureAirportName: [4],
  arrivalAirportName: [5],
  arrivalAirport: [6],
  departureTime: [8],
  arrivalTime: [10],
  duration: [11],
  legroom: [14],
  codeshares: [15],
  cabin: [16],
  airplane: [17],
  // [18][0] is set on red-eyes (00:10→06:18, 13:00→07:25+1) and not on late arrivals
  // (18:50→00:58+1). [18][1] is set on 98 of the 690 recorded legs, but nothing on the pages
  // says what it means, so it is not read (no "often delayed" flag is reported).
  overnight: [18, 0],
  departureDate: [20],
  arrivalDate: [21],
  airlineCode: [22, 0],
  flightNumber: [22, 1],
  airlineName: [22, 3],
  legroomLong: [30],
  emissions: [31],
} as const;

/** Paths into one layover entry of `info[13]`. */
const LAYOVER = {
  duration: [0],
  arrivalAirport: [1],
  departureAirport: [2],
  overnight: [3, 0],
  arrivalAirportName: [4],
  arrivalCity: [5],
  departureAirportName: [6],
  departureCity: [7],
} as const;

/**
 * Cabin codes of LEG.cabin named where recorded pages show the label: 1 on the three economy
 * results pages, whose class selector reads "Economy" and whose legs all carry 1. Code 3 appears
 * under a "Business" selector on one page only, 2 and 4 under no label, so they are not named
 * (travel_class null; test/fixtures/README.md, inferred meanings).
 */
const CABINS: Record<number, string> = { 1: 'Economy' };

interface FlightPoint {
  id: string;
  name: string | null;
  date: string | null;
  time: string | null;
}

export interface FlightLeg {
  departure_airport: FlightPoint;
  arrival_airport: FlightPoint;
  /** Minutes. */
  duration: number | null;
  airplane: string | null;
  airline: string | null;
  airline_code: string | null;
  /** As shown: carrier code, space, number (`B6 16`). */
  flight_number: string | null;
  travel_class: string | null;
  /** `33 in`. */
  legroom: string | null;
  /** `33 inches`. */
  legroom_long: string | null;
  /** Operating carrier text when another airline flies it (`SkyWest Airlines as American Eagle`). */
  operated_by: string | null;
  /** Marketing carriers also selling this flight, with their flight numbers. */
  ticket_also_sold_by: { airline: string | null; flight_number: string | null }[];
  overnight: boolean;
  /** Grams of CO2 for this flight. */
  carbon_emissions: number | null;
}

interface FlightLayover {
  /** Minutes. */
  duration: number | null;
  id: string | null;
  name: string | null;
  city: string | null;
  /** Set when the next flight leaves from another airport. */
  departure_id: string | null;
  overnight: boolean;
}

interface FlightCarbonEmissions {
  this_flight: number | null;
  typical_for_this_route: number | null;
  difference_percent: number | null;
}

export interface FlightItinerary {
  group: 'best' | 'other';
  /** One carrier's code, or `multi` when several fly it. */
  airline_code: string | null;
  airlines: string[];
  flights: FlightLeg[];
  layovers: FlightLayover[];
  /** Minutes from first departure to last arrival. */
  total_duration: number | null;
  price: number | null;
  /** Currency the price was computed in (from its price token); null when unreadable. */
  currency: string | null;
  carbon_emissions: FlightCarbonEmissions | null;
  self_transfer: boolean;
  /** Token next to the price; identifies this itinerary's fare in the upstream session. */
  price_token: string | null;
  /** Itinerary token the page keeps for booking (a JSON array of base64 protobufs). */
  itinerary_token: string | null;
}

export interface FlightResultsPage extends FlightPageExtras {
  session_id: string | null;
  best_flights: FlightItinerary[];
  other_flights: FlightItinerary[];
}

function point(leg: unknown, id: readonly number[], name: readonly number[], date: readonly number[], time: readonly number[]): FlightPoint {
  return { id: nonEmptyStr(leg, ...id) ?? '', name: nonEmptyStr(leg, ...name), date: dateOf(leg, ...date), time: timeOf(leg, ...time) };
}

function parseLeg(leg: unknown): FlightLeg {
  const code = nonEmptyStr(leg, ...LEG.airlineCode);
  const number = nonEmptyStr(leg, ...LEG.flightNumber);
  const cabin = num(leg, ...LEG.cabin);
  return {
    departure_airport: point(leg, LEG.departureAirport, LEG.departureAirportName, LEG.departureDate, LEG.departureTime),
    arrival_airport: point(leg, LEG.arrivalAirport, LEG.arrivalAirportName, LEG.arrivalDate, LEG.arrivalTime),
    duration: num(leg, ...LEG.duration),
    airplane: nonEmptyStr(leg, ...LEG.airplane),
    airline: nonEmptyStr(leg, ...LEG.airlineName),
    airline_code: code,
    flight_number: code && number ? `${code} ${number}` : number,
    travel_class: cabin !== null ? (CABINS[cabin] ?? null) : null,
    legroom: nonEmptyStr(leg, ...LEG.legroom),
    legroom_long: nonEmptyStr(leg, ...LEG.legroomLong),
    operated_by: nonEmptyStr(leg, ...LEG.operator),
    ticket_also_sold_by: arr(leg, ...LEG.codeshares).map((c) => ({
      airline: nonEmptyStr(c, 3),
      flight_number: nonEmptyStr(c, 0) && nonEmptyStr(c, 1) ? `${nonEmptyStr(c, 0)} ${nonEmptyStr(c, 1)}` : null,
    })),
    overnight: flag(leg, ...LEG.overnight),
    carbon_emissions: num(leg, ...LEG.emissions),
  };
}

function parseLayover(l: unknown): FlightLayover {
  const arrival = nonEmptyStr(l, ...LAYOVER.arrivalAirport);
  const departure = nonEmptyStr(l, ...LAYOVER.departureAirport);
  return {
    duration: num(l, ...LAYOVER.duration),
    id: arrival,
    name: nonEmptyStr(l, ...LAYOVER.arrivalAirportName),
    city: nonEmptyStr(l, ...LAYOVER.arrivalCity),
    departure_id: departure && departure !== arrival ? departure : null,
    overnight: flag(l, ...LAYOVER.overnight),
  };
}

function parseItinerary(row: unknown, group: FlightItinerary['group']): FlightItinerary | null {
  const info = at(row, ...ROW.info);
  const legs = arrOrNull(info, ...INFO.legs);
  if (!legs || !legs.length) return null;
  const thisFlight = num(info, ...INFO.emissionsThisFlight);
  const typical = num(info, ...INFO.emissionsTypical);
  const priceToken = nonEmptyStr(row, ...ROW.priceToken);
  return {
    group,
    airline_code: nonEmptyStr(info, ...INFO.airlineCode),
    airlines: arr(info, ...INFO.airlineNames).filter((a): a is string => typeof a === 'string'),
    flights: legs.map(parseLeg),
    layovers: arr(info, ...INFO.layovers).map(parseLayover),
    total_duration: num(info, ...INFO.totalDuration),
    price: moneyOf(row, ...ROW.price),
    currency: priceTokenCurrency(priceToken),
    carbon_emissions:
      thisFlight === null && typical === null
        ? null
        : { this_flight: thisFlight, typical_for_this_route: typical, difference_percent: num(info, ...INFO.emissionsDifferencePercent) },
    self_transfer: flag(info, ...INFO.selfTransfer),
    price_token: priceToken,
    itinerary_token: nonEmptyStr(row, ...ROW.itineraryToken),
  };
}

/** Rows without legs (placements) are skipped; a list where no row has legs means the layout moved. */
function itineraries(data: unknown, path: readonly number[], group: FlightItinerary['group']): FlightItinerary[] {
  const list = at(data, ...path);
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) throw new UpstreamContractChanged(SOURCE, `ds:1 [${path.join('][')}] is not a list`);
  const out = list.map((r) => parseItinerary(r, group)).filter((i): i is FlightItinerary => i !== null);
  if (list.length && !out.length) throw new UpstreamContractChanged(SOURCE, `no ${group} itinerary has flight legs`);
  return out;
}

/** Parses the `ds:1` payload (already extracted). */
export function parseFlightResultsData(data: unknown): FlightResultsPage {
  if (!Array.isArray(data)) throw new UpstreamContractChanged(SOURCE, 'ds:1 payload is not an array');
  const best = itineraries(data, PAGE.best, 'best');
  const other = itineraries(data, PAGE.other, 'other');
  return { session_id: nonEmptyStr(data, ...PAGE.sessionId), best_flights: best, other_flights: other, ...parsePageExtras(data) };
}

/** Parses a results page's HTML. A page without the `ds:1` blob is a contract change (503). */
export function parseFlightResults(html: string): FlightResultsPage {
  const data = extractAfData(html, BLOB_KEY);
  if (data === undefined) {
    const keys = afKeys(html);
    throw new UpstreamContractChanged(SOURCE, `flight results blob ${BLOB_KEY} missing (callbacks: ${keys.join(',') || 'none'})`);
  }
  const page = parseFlightResultsData(data);
  // the label the page prints wins over the code table (which names only the codes it can prove)
  const level = priceLevelFromPage(html);
  const insights = page.price_insights && level ? { ...page.price_insights, price_level: level } : page.price_insights;
  return { ...page, price_insights: insights, airline_logos: { ...collectLogos(html), ...page.airline_logos } };
}

const LOGO_RE = /https:\/\/www\.gstatic\.com\/flights\/airline_logos\/70px\/([A-Za-z0-9]{2,5})\.png/g;

/** Logo URLs the page itself carries, by carrier code (`multi` for several carriers). */
function collectLogos(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let m = LOGO_RE.exec(html); m; m = LOGO_RE.exec(html)) out[m[1]!] ??= m[0];
  LOGO_RE.lastIndex = 0;
  return out;
}
