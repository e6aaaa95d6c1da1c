import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../../../helpers/fixtures.js';
import { ApiError } from '../../../../../src/domain/errors.js';
import { normalizeFlightSearch } from '../../../../../src/sources/metasearch/flights/params.js';
import {
  buildFlightBookingRequest,
  buildFlightSearchRequest,
  decodeTfs,
  encodeTfs,
  type TfsMessage,
} from '../../../../../src/sources/metasearch/flights/tfs.js';
import { shiftFrom } from '../../../../helpers/dates.js';

interface Vector {
  name: string;
  input: {
    from_airport: string;
    to_airport: string;
    depart_date: string;
    cabin_class: string;
    trip_type: string;
    passengers: { adults?: number; children?: number; infants_in_seat?: number; infants_on_lap?: number };
    max_stops?: number | null;
  };
  expected_tfs: string;
}

const CABIN: Record<string, number> = { economy: 1, 'premium-economy': 2, business: 3, first: 4 };
const TRIP: Record<string, number> = { 'round-trip': 1, 'one-way': 2, 'multi-city': 3 };

function vectorMessage(v: Vector['input']): TfsMessage {
  const p = v.passengers;
  return {
    legs: [
      {
        date: v.depart_date,
        // the vectors' generator leaves a zero stop limit out, so 0 and null both mean "no field 5"
        ...(v.max_stops ? { maxStops: v.max_stops } : {}),
        from: [{ code: v.from_airport }],
        to: [{ code: v.to_airport }],
      },
    ],
    passengers: [
      ...Array<number>(p.adults ?? 0).fill(1),
      ...Array<number>(p.children ?? 0).fill(2),
      ...Array<number>(p.infants_in_seat ?? 0).fill(3),
      ...Array<number>(p.infants_on_lap ?? 0).fill(4),
    ],
    packedPassengers: true,
    seat: CABIN[v.cabin_class],
    trip: TRIP[v.trip_type],
  };
}

const vectors = fixtureSuite('metasearch flights tfs vectors', 'google-flights/tfs-param-test-vectors.json');
describe(vectors.title, () => {
  const file = readFixtureJson<{ total_cases: number; cases: Vector[] }>('google-flights/tfs-param-test-vectors.json');

  it('has all 59 vectors', () => {
    expect(file.cases).toHaveLength(59);
    expect(file.total_cases).toBe(59);
  });

  it.each(file.cases.map((c) => [c.name, c] as const))('encodes %s exactly', (_name, c) => {
    expect(encodeTfs(vectorMessage(c.input))).toBe(c.expected_tfs);
  });

  it.each(file.cases.map((c) => [c.name, c] as const))('decodes %s back', (_name, c) => {
    const msg = decodeTfs(c.expected_tfs);
    expect(msg).toEqual(vectorMessage(c.input));
    expect(encodeTfs(msg)).toBe(c.expected_tfs);
  });

  it('reads field values from one vector by hand', () => {
    const c = file.cases.find((x) => x.name === 'mixed_2a_1c_1i_lap')!;
    const msg = decodeTfs(c.expected_tfs);
    expect(msg.legs[0]).toEqual({ date: '2025-08-15', from: [{ code: 'SFO' }], to: [{ code: 'JFK' }] });
    expect(msg.passengers).toEqual([1, 1, 2, 4]);
    expect(msg.seat).toBe(1);
    expect(msg.trip).toBe(2);
    expect(decodeTfs(file.cases.find((x) => x.name === 'max_stops_2')!.expected_tfs).legs[0].maxStops).toBe(2);
  });
});

const compat = fixtureSuite(
  'metasearch flights request builder against the compatible API request_url',
  'searchapi/google_flights-jfk-cdg-roundtrip-economy-outbound-2026-07-21.json',
  'searchapi/google_flights-ham-bkk-roundtrip-business-outbound-2026-09-19.json',
);
describe(compat.title, () => {
  it.each([
    'searchapi/google_flights-jfk-cdg-roundtrip-economy-outbound-2026-07-21.json',
    'searchapi/google_flights-ham-bkk-roundtrip-business-outbound-2026-09-19.json',
  ])('rebuilds the upstream URL of %s', (file) => {
    const d = readFixtureJson<{ search_parameters: Record<string, string>; search_metadata: { request_url: string } }>(file);
    const req = buildFlightSearchRequest(d.search_parameters);
    const url = new URL(d.search_metadata.request_url);
    expect(req.path).toBe(url.pathname);
    expect(req.query).toEqual(Object.fromEntries(url.searchParams));
  });

  it('decodes the HAM-BKK url: one-stop limit on both legs, 2 adults + 1 child, business', () => {
    const d = readFixtureJson<{ search_metadata: { request_url: string } }>('searchapi/google_flights-ham-bkk-roundtrip-business-outbound-2026-09-19.json');
    const msg = decodeTfs(new URL(d.search_metadata.request_url).searchParams.get('tfs')!);
    expect(msg.legs.map((l) => [l.date, l.maxStops, l.from[0].code, l.to[0].code])).toEqual([
      ['2026-10-17', 1, 'HAM', 'BKK'],
      ['2026-10-31', 1, 'BKK', 'HAM'],
    ]);
    expect(msg.passengers).toEqual([1, 1, 2]);
    expect(msg.packedPassengers).toBeUndefined();
    expect(msg.seat).toBe(3);
    expect(msg.f16).toBe((1n << 64n) - 1n);
  });
});

const booking = fixtureSuite('metasearch flights booking tfs', 'serpapi-google-flights/booking-options-booking-token-2025-07-05.json');
describe(booking.title, () => {
  it('decodes and re-encodes a booking URL with chosen flights per leg', () => {
    const d = readFixtureJson<{ search_metadata: { google_flights_url: string } }>('serpapi-google-flights/booking-options-booking-token-2025-07-05.json');
    const tfs = new URL(d.search_metadata.google_flights_url).searchParams.get('tfs')!;
    const msg = decodeTfs(tfs);
    expect(msg.legs[0].selectedFlights).toEqual([
      { from: 'SIN', date: '2025-09-09', to: 'YVR', airline: 'AC', flightNumber: '20' },
      { from: 'YVR', date: '2025-09-09', to: 'DEN', airline: 'UA', flightNumber: '2470' },
      { from: 'DEN', date: '2025-09-09', to: 'AUS', airline: 'UA', flightNumber: '1942' },
    ]);
    expect(msg.legs[1].selectedFlights?.map((f) => `${f.airline}${f.flightNumber}`)).toEqual(['UA357', 'AC557', 'AC19']);
    expect(encodeTfs(msg, { urlSafe: true })).toBe(tfs);
  });
});

describe('metasearch flights request builder', () => {
  const search = normalizeFlightSearch({
    departure_id: 'SFO',
    arrival_id: '/m/04jpl',
    outbound_date: '2026-08-20',
    flight_type: 'one_way',
    stops: 'nonstop',
    travel_class: 'premium_economy',
    adults: '1',
    infants_on_lap: 1,
    currency: 'usd',
  });

  it('writes nonstop as an explicit 0 and a location id with its type', () => {
    const msg = decodeTfs(buildFlightSearchRequest(search).query.tfs);
    expect(msg.legs[0].maxStops).toBe(0);
    expect(msg.legs[0].to).toEqual([{ type: 3, code: '/m/04jpl' }]);
    expect(msg.legs[0].from).toEqual([{ type: 1, code: 'SFO' }]);
    expect(msg.passengers).toEqual([1, 4]);
    expect(msg.seat).toBe(2);
    expect(msg.trip).toBe(2);
    expect(buildFlightSearchRequest(search).query.curr).toBe('USD');
  });

  it('pins chosen flights and switches to the booking page', () => {
    const chosen = [[{ from: 'SFO', date: '2026-08-20', to: 'LHR', airline: 'UA', flightNumber: '901' }]];
    const req = buildFlightBookingRequest(search, chosen);
    expect(req.path).toBe('/travel/flights/booking');
    expect(decodeTfs(req.query.tfs).legs[0].selectedFlights).toEqual(chosen[0]);
    expect(() => buildFlightSearchRequest(search, chosen)).toThrow(ApiError);
  });

  it('rejects unusable parameters with 400', () => {
    const bad = [
      { departure_id: 'SFO', arrival_id: 'JFK', outbound_date: '2026-08-20' },
      { departure_id: 'SFO', arrival_id: 'JFK', outbound_date: '2026-08-20', return_date: '2026-08-10' },
      { departure_id: 'SFO', arrival_id: 'JFK', outbound_date: '2026-08-20', flight_type: 'one_way' as const, adults: 0 },
      { flight_type: 'multi_city' as const, multi_city_json: '[{"departure_id":"SFO"}]' },
    ];
    for (const p of bad) {
      expect(() => normalizeFlightSearch(p)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });

  it('builds multi-city legs from multi_city_json', () => {
    const s = normalizeFlightSearch({
      flight_type: 'multi_city',
      // the legs' dates moved ahead (a past leg is refused)
      multi_city_json: shiftFrom('2026-08-31').text(
        '[{"departure_id":"CDG","arrival_id":"NRT","date":"2026-08-31"},{"departure_id":"NRT","arrival_id":"LAX,SEA","date":"2026-09-10"}]',
      ),
    });
    const msg = decodeTfs(buildFlightSearchRequest(s).query.tfs);
    expect(msg.trip).toBe(3);
    expect(msg.legs[1].to.map((l) => l.code)).toEqual(['LAX', 'SEA']);
  });

  it('rejects malformed tfs input', () => {
    expect(() => decodeTfs('%%%')).toThrow();
    expect(() => decodeTfs('GhoSCjIwMjUtMDctMTVqBRID')).toThrow();
  });
});
