import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture, readFixtureJson } from '../../../../helpers/fixtures.js';
import { normalizeFlightSearch } from '../../../../../src/sources/metasearch/flights/params.js';
import { parseFlightResults } from '../../../../../src/sources/metasearch/flights/parse-results.js';
import { decodeBookingToken, decodeDepartureToken } from '../../../../../src/sources/metasearch/flights/tokens.js';
import { decodeTfs, buildFlightSearchRequest } from '../../../../../src/sources/metasearch/flights/tfs.js';
import { toCompatFlights, type CompatFlightsBody } from '../../../../../src/sources/metasearch/flights/to-compat.js';

type Json = Record<string, any>;

function keysOf(list: Json[]): Set<string> {
  const out = new Set<string>();
  for (const o of list) for (const k of Object.keys(o)) out.add(k);
  return out;
}

function expectSubset(ours: Set<string>, theirs: Set<string>) {
  expect([...ours].filter((k) => !theirs.has(k))).toEqual([]);
}

const REF = 'searchapi/google_flights-jfk-cdg-roundtrip-economy-outbound-2026-07-21.json';
const PAGE = 'google-flights/results-layover-mad_nrt.html.zst';
const suite = fixtureSuite('metasearch flights compatible response', REF, PAGE);

describe(suite.title, () => {
  const ref = readFixtureJson<Json>(REF);
  const page = parseFlightResults(readFixture(PAGE));
  const roundTrip = normalizeFlightSearch({
    departure_id: 'MAD',
    arrival_id: 'NRT',
    outbound_date: '2026-08-15',
    return_date: '2026-08-22',
    currency: 'USD',
    hl: 'en',
    gl: 'us',
  });
  const oneWay = normalizeFlightSearch({ departure_id: 'MAD', arrival_id: 'NRT', outbound_date: '2026-08-15', flight_type: 'one_way' });
  const body: CompatFlightsBody = toCompatFlights(page, { search: roundTrip });
  const refItineraries: Json[] = [...(ref.best_flights ?? []), ...(ref.other_flights ?? [])];
  const ours = [...(body.best_flights ?? []), ...(body.other_flights ?? [])] as unknown as Json[];

  it('uses only the reference top-level keys', () => {
    expectSubset(new Set(Object.keys(body)), new Set(Object.keys(ref)));
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['best_flights', 'other_flights', 'price_insights', 'airports', 'airlines']));
  });

  it('uses only the reference keys for itineraries, flights, layovers and emissions', () => {
    expectSubset(keysOf(ours), keysOf(refItineraries));
    expectSubset(keysOf(ours.flatMap((i) => i.flights)), keysOf(refItineraries.flatMap((i) => i.flights)));
    expectSubset(keysOf(ours.flatMap((i) => i.layovers ?? [])), keysOf(refItineraries.flatMap((i) => i.layovers ?? [])));
    expectSubset(keysOf(ours.map((i) => i.carbon_emissions).filter(Boolean)), keysOf(refItineraries.map((i) => i.carbon_emissions)));
    const flightRef = refItineraries[0].flights[0];
    expectSubset(new Set(Object.keys(ours[0].flights[0].departure_airport)), new Set(Object.keys(flightRef.departure_airport)));
    expectSubset(
      keysOf(ours.flatMap((i) => i.flights.map((f: Json) => f.detected_extensions ?? {}))),
      keysOf(refItineraries.flatMap((i) => i.flights.map((f: Json) => f.detected_extensions))),
    );
  });

  it('maps the first itinerary like the reference does', () => {
    const first = body.best_flights[0];
    expect(first.price).toBe(946);
    expect(first.type).toBe('Round trip');
    expect(first.total_duration).toBe(1200);
    expect(first.layovers).toEqual([{ duration: 190, name: 'Cairo International Airport', id: 'CAI' }]);
    expect(first.flights[0]).toMatchObject({
      departure_airport: { name: 'Adolfo Suárez Madrid-Barajas Airport', id: 'MAD', date: '2026-08-15', time: '15:30' },
      airline: 'EgyptAir',
      airline_logo: 'https://www.gstatic.com/flights/airline_logos/70px/MS.png',
      flight_number: 'MS 754',
      travel_class: 'Economy',
      extensions: ['Legroom 30 inches', 'Carbon emission: 291 kg'],
      detected_extensions: { legroom_short: '30 in', legroom_long: '30 inches', carbon_emission: 291 },
    });
    // [18][1] is set on this leg, but nothing on the page says it means "often delayed".
    expect(first.flights[0].is_often_delayed).toBeUndefined();
    expect(first.flights[1].is_overnight).toBe(true);
    expect(body.best_flights[2].layovers?.[0]).toEqual({ duration: 175, name: 'Hamad International Airport', id: 'DOH', is_overnight: true });
  });

  it('matches the reference price_insights, airports and links shapes', () => {
    const pi = body.price_insights!;
    expect(new Set(Object.keys(pi))).toEqual(new Set(Object.keys(ref.price_insights)));
    expect(Object.keys(pi.typical_price_range!)).toEqual(Object.keys(ref.price_insights.typical_price_range));
    expect(Object.keys(pi.price_history![0])).toEqual(Object.keys(ref.price_insights.price_history[0]));
    expect(pi.price_history![0]).toEqual({ price: 760, iso_date: '2025-11-05T23:00:00Z' });
    expect(keysOf(body.airports!)).toEqual(keysOf(ref.airports));
    expect(keysOf(body.airports!.flatMap((a) => a.departure))).toEqual(keysOf(ref.airports.flatMap((a: Json) => a.departure)));
    expect(body.airports![0].arrival[0]).toMatchObject({
      airport: { id: 'NRT', name: 'Narita International Airport' },
      city: 'Tokyo',
      country: 'Japan',
      country_code: 'JP',
    });
    expect(new Set(Object.keys(body.airlines!))).toEqual(new Set(Object.keys(ref.airlines)));
    expect(keysOf(body.baggage_allowance_links!)).toEqual(keysOf(ref.baggage_allowance_links));
  });

  it('gives round-trip outbounds a departure token that leads to the return page', () => {
    const first = body.best_flights[0];
    expect(first.booking_token).toBeUndefined();
    const tok = decodeDepartureToken(first.departure_token);
    expect(tok.search).toEqual(roundTrip);
    expect(tok.selected).toEqual([
      [
        { from: 'MAD', date: '2026-08-15', to: 'CAI', airline: 'MS', flightNumber: '754' },
        { from: 'CAI', date: '2026-08-16', to: 'NRT', airline: 'MS', flightNumber: '964' },
      ],
    ]);
    const next = decodeTfs(buildFlightSearchRequest(tok.search, tok.selected).query.tfs);
    expect(next.legs[0].selectedFlights).toEqual(tok.selected[0]);
    expect(next.legs[1].selectedFlights).toBeUndefined();
  });

  it('gives one-way itineraries a booking token with the fare', () => {
    const oneWayBody = toCompatFlights(page, { search: oneWay });
    expect(oneWayBody.best_flights[0].type).toBe('One way');
    const tok = decodeBookingToken(oneWayBody.best_flights[0].booking_token);
    expect(tok.price).toBe(946);
    expect(tok.currency).toBe('USD');
    expect(tok.selected[0].map((f) => f.flightNumber)).toEqual(['754', '964']);
    expect(tok.price_token).toBe(page.best_flights[0].price_token);
  });
});
