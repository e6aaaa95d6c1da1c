/**
 * Maps a parsed flight results page into the compatible search API's `google_flights`
 * response body (best_flights, other_flights, price_insights, airports, airlines, links).
 * `search_metadata` / `search_parameters` belong to the route, not to this mapper.
 */
import type { FlightSearch, FlightType } from './params.js';
import type { FlightItinerary, FlightLeg, FlightResultsPage } from './parse-results.js';
import type { TfsSelectedFlight } from './tfs.js';
import { encodeBookingToken, encodeDepartureToken, selectionOf } from './tokens.js';

const TRIP_LABEL: Record<FlightType, string> = { round_trip: 'Round trip', one_way: 'One way', multi_city: 'Multi-city' };

export interface CompatContext {
  search: FlightSearch;
  /** Flights already chosen for the earlier legs (empty on the first search). */
  selected?: TfsSelectedFlight[][];
}

interface CompatAirportTime {
  name: string | null;
  id: string;
  date: string | null;
  time: string | null;
}

interface CompatFlight {
  departure_airport: CompatAirportTime;
  arrival_airport: CompatAirportTime;
  duration: number | null;
  airplane: string | null;
  airline: string | null;
  airline_logo?: string;
  travel_class: string | null;
  flight_number: string | null;
  ticket_also_sold_by?: string[];
  is_overnight?: true;
  is_often_delayed?: true;
  extensions?: string[];
  detected_extensions?: { legroom_short?: string; legroom_long?: string; carbon_emission?: number };
}

interface CompatItinerary {
  flights: CompatFlight[];
  layovers?: { duration: number | null; name: string | null; id: string | null; is_overnight?: true }[];
  total_duration: number | null;
  carbon_emissions?: { this_flight: number | null; typical_for_this_route: number | null; difference_percent: number | null };
  price: number | null;
  type: string;
  airline_logo?: string;
  departure_token?: string;
  booking_token?: string;
}

export interface CompatFlightsBody {
  best_flights: CompatItinerary[];
  other_flights: CompatItinerary[];
  price_insights?: {
    lowest_price: number | null;
    price_level: string | null;
    typical_price_range: { low_price: number | null; high_price: number | null } | null;
    price_history?: { price: number; iso_date: string }[];
  };
  airports?: {
    departure: CompatAirport[];
    arrival: CompatAirport[];
  }[];
  airlines?: { alliances: CodeName[]; airlines: CodeName[]; hubs: CodeName[] };
  baggage_allowance_links?: { airline_code: string; airline: string | null; url: string }[];
  passenger_assistance_links?: { airline_code: string; airline: string | null; url: string }[];
}

interface CodeName {
  code: string;
  name: string | null;
}

interface CompatAirport {
  airport: { id: string; name: string | null };
  city: string | null;
  country: string | null;
  country_code: string | null;
  image: string | null;
  thumbnail: string | null;
}

function flight(f: FlightLeg, logos: Record<string, string>): CompatFlight {
  const out: CompatFlight = {
    departure_airport: { name: f.departure_airport.name, id: f.departure_airport.id, date: f.departure_airport.date, time: f.departure_airport.time },
    arrival_airport: { name: f.arrival_airport.name, id: f.arrival_airport.id, date: f.arrival_airport.date, time: f.arrival_airport.time },
    duration: f.duration,
    airplane: f.airplane,
    airline: f.airline,
    travel_class: f.travel_class,
    flight_number: f.flight_number,
  };
  const logo = f.airline_code ? logos[f.airline_code] : undefined;
  if (logo) out.airline_logo = logo;
  const soldBy = f.ticket_also_sold_by.map((c) => c.airline).filter((a): a is string => !!a);
  if (soldBy.length) out.ticket_also_sold_by = [...new Set(soldBy)];
  if (f.overnight) out.is_overnight = true;
  const extensions: string[] = [];
  const detected: NonNullable<CompatFlight['detected_extensions']> = {};
  if (f.legroom_long) extensions.push(`Legroom ${f.legroom_long}`);
  if (f.legroom) detected.legroom_short = f.legroom;
  if (f.legroom_long) detected.legroom_long = f.legroom_long;
  if (f.carbon_emissions !== null) {
    const kg = Math.round(f.carbon_emissions / 1000);
    extensions.push(`Carbon emission: ${kg} kg`);
    detected.carbon_emission = kg;
  }
  if (extensions.length) out.extensions = extensions;
  if (Object.keys(detected).length) out.detected_extensions = detected;
  return out;
}

function itinerary(it: FlightItinerary, page: FlightResultsPage, ctx: CompatContext): CompatItinerary {
  const out: CompatItinerary = {
    flights: it.flights.map((f) => flight(f, page.airline_logos)),
    total_duration: it.total_duration,
    price: it.price,
    type: TRIP_LABEL[ctx.search.flightType],
  };
  if (it.layovers.length) {
    out.layovers = it.layovers.map((l) => ({ duration: l.duration, name: l.name, id: l.id, ...(l.overnight ? { is_overnight: true as const } : {}) }));
  }
  if (it.carbon_emissions) out.carbon_emissions = { ...it.carbon_emissions };
  const logo = it.airline_code ? page.airline_logos[it.airline_code] : undefined;
  if (logo) out.airline_logo = logo;

  const chosen = selectionOf(it);
  if (chosen) {
    const selected = [...(ctx.selected ?? []), chosen];
    if (selected.length < ctx.search.legs.length) out.departure_token = encodeDepartureToken(ctx.search, selected);
    else out.booking_token = encodeBookingToken(ctx.search, selected, { price_token: it.price_token, price: it.price, currency: it.currency });
  }
  return out;
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function toCompatFlights(page: FlightResultsPage, ctx: CompatContext): CompatFlightsBody {
  const body: CompatFlightsBody = {
    best_flights: page.best_flights.map((it) => itinerary(it, page, ctx)),
    other_flights: page.other_flights.map((it) => itinerary(it, page, ctx)),
  };
  const pi = page.price_insights;
  if (pi) {
    body.price_insights = { lowest_price: pi.lowest_price, price_level: pi.price_level, typical_price_range: pi.typical_price_range };
    if (pi.price_history.length) body.price_insights.price_history = pi.price_history.map((p) => ({ price: p.price, iso_date: isoSeconds(p.timestamp) }));
  }
  if (page.airports.length) {
    const airport = (a: FlightResultsPage['airports'][number]['departure'][number]): CompatAirport => ({
      airport: { id: a.id, name: a.name },
      city: a.city,
      country: a.country,
      country_code: a.country_code,
      image: a.image,
      thumbnail: a.thumbnail,
    });
    body.airports = page.airports.map((leg) => ({ departure: leg.departure.map(airport), arrival: leg.arrival.map(airport) }));
  }
  if (page.airline_filters) body.airlines = page.airline_filters;
  if (page.baggage_allowance_links.length) body.baggage_allowance_links = page.baggage_allowance_links;
  if (page.passenger_assistance_links.length) body.passenger_assistance_links = page.passenger_assistance_links;
  return body;
}
