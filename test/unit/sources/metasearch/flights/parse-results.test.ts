import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture } from '../../../../helpers/fixtures.js';
import { UpstreamContractChanged } from '../../../../../src/domain/errors.js';
import { extractAfData } from '../../../../../src/sources/metasearch/flights/af-data.js';
import { parseFlightResults, parseFlightResultsData, type FlightResultsPage } from '../../../../../src/sources/metasearch/flights/parse-results.js';

const page = (name: string): FlightResultsPage => parseFlightResults(readFixture(`google-flights/results-${name}.html.zst`));

// Counts and first cards checked by hand against the page's own card labels
// ("From 110 US dollars. Nonstop flight with JetBlue. Leaves … at 8:30 PM …").

const nonstop = fixtureSuite('metasearch flights parser: nonstop SFO-JFK', 'google-flights/results-nonstop-sfo_jfk_economy.html.zst');
describe(nonstop.title, () => {
  const p = page('nonstop-sfo_jfk_economy');

  it('finds 3 best and 41 other itineraries', () => {
    expect(p.best_flights).toHaveLength(3);
    expect(p.other_flights).toHaveLength(41);
  });

  it('reads the first itinerary: JetBlue B6 16, 20:30 → 05:01 next day, $110', () => {
    const it0 = p.best_flights[0];
    expect(it0.price).toBe(110);
    expect(it0.currency).toBe('USD');
    expect(it0.airlines).toEqual(['JetBlue']);
    expect(it0.total_duration).toBe(331);
    expect(it0.layovers).toEqual([]);
    const f = it0.flights[0];
    expect(f.airline).toBe('JetBlue');
    expect(f.flight_number).toBe('B6 16');
    expect(f.departure_airport).toEqual({ id: 'SFO', name: 'San Francisco International Airport', date: '2026-07-15', time: '20:30' });
    expect(f.arrival_airport).toEqual({ id: 'JFK', name: 'John F. Kennedy International Airport', date: '2026-07-16', time: '05:01' });
    expect(f.airplane).toBe('Airbus A320');
    expect(f.legroom).toBe('33 in');
    expect(f.legroom_long).toBe('33 inches');
    expect(f.travel_class).toBe('Economy');
    expect(f.overnight).toBe(true);
    expect(it0.carbon_emissions).toEqual({ this_flight: 414000, typical_for_this_route: 355000, difference_percent: 17 });
  });

  it('reads the second and third best cards', () => {
    expect(p.best_flights.slice(1).map((i) => [i.price, i.flights[0].flight_number, i.flights[0].departure_airport.time])).toEqual([
      [140, 'AS 30', '06:18'],
      [159, 'DL 363', '16:00'],
    ]);
  });

  it('reads price insights: low, $110, typical $130-170, 61 history points', () => {
    const pi = p.price_insights!;
    expect(pi.price_level).toBe('low');
    expect(pi.lowest_price).toBe(110);
    expect(pi.typical_price_range).toEqual({ low_price: 130, high_price: 170 });
    expect(pi.price_history).toHaveLength(61);
    expect(pi.price_history[0]).toEqual({ price: 139, timestamp: 1762416000000 });
  });

  it('reads the searched airports and the page-level lists', () => {
    expect(p.airports[0].departure[0]).toMatchObject({ id: 'SFO', city: 'San Francisco', country_code: 'US', country: 'United States' });
    expect(p.airports[0].arrival[0]).toMatchObject({ id: 'JFK', city: 'New York', city_id: '/m/02_286' });
    expect(p.airline_filters?.alliances.map((a) => a.code)).toEqual(['ONEWORLD', 'SKYTEAM', 'STAR_ALLIANCE']);
    expect(p.baggage_allowance_links.map((l) => l.airline_code)).toEqual(['AS', 'AA', 'DL', 'B6']);
    expect(p.airline_logos.B6).toBe('https://www.gstatic.com/flights/airline_logos/70px/B6.png');
  });
});

const layover = fixtureSuite('metasearch flights parser: layovers MAD-NRT', 'google-flights/results-layover-mad_nrt.html.zst');
describe(layover.title, () => {
  const p = page('layover-mad_nrt');

  it('finds 5 best and 61 other itineraries', () => {
    expect(p.best_flights).toHaveLength(5);
    expect(p.other_flights).toHaveLength(61);
  });

  it('reads the first itinerary: EgyptAir MS 754 + MS 964 via Cairo, $946', () => {
    const it0 = p.best_flights[0];
    expect(it0.price).toBe(946);
    expect(it0.flights.map((f) => f.flight_number)).toEqual(['MS 754', 'MS 964']);
    expect(it0.flights[0].airline).toBe('EgyptAir');
    expect(it0.flights[0].departure_airport.time).toBe('15:30');
    expect(it0.flights[1].departure_airport).toEqual({ id: 'CAI', name: 'Cairo International Airport', date: '2026-08-16', time: '00:30' });
    expect(it0.flights[1].arrival_airport.time).toBe('18:30');
    expect(it0.layovers).toEqual([{ duration: 190, id: 'CAI', name: 'Cairo International Airport', city: 'Cairo', departure_id: null, overnight: false }]);
    expect(it0.total_duration).toBe(1200);
  });

  it('flags the overnight layover in Doha (2 hr 55 min, Iberia and Qatar Airways, $1001)', () => {
    const it2 = p.best_flights[2];
    expect(it2.price).toBe(1001);
    expect(it2.airlines).toEqual(['Iberia', 'Qatar Airways']);
    expect(it2.layovers).toEqual([{ duration: 175, id: 'DOH', name: 'Hamad International Airport', city: 'Doha', departure_id: null, overnight: true }]);
  });

  it('labels price level 5 as high', () => {
    expect(p.price_insights).toMatchObject({ price_level: 'high', price_level_code: 5, lowest_price: 781 });
  });
});

const overnight = fixtureSuite('metasearch flights parser: overnight SFO-LHR', 'google-flights/results-overnight_1day-sfo_lhr_economy.html.zst');
describe(overnight.title, () => {
  const p = page('overnight_1day-sfo_lhr_economy');

  it('finds 4 best and 116 other itineraries', () => {
    expect(p.best_flights).toHaveLength(4);
    expect(p.other_flights).toHaveLength(116);
  });

  it('reads the first itinerary: United UA 901 13:00 → 07:25 next day, overnight, $414', () => {
    const f = p.best_flights[0].flights[0];
    expect(p.best_flights[0].price).toBe(414);
    expect(f.flight_number).toBe('UA 901');
    expect(f.airline).toBe('United');
    expect(f.departure_airport.time).toBe('13:00');
    expect(f.arrival_airport).toMatchObject({ id: 'LHR', date: '2026-08-21', time: '07:25' });
    expect(f.overnight).toBe(true);
    expect(f.duration).toBe(625);
    expect(f.ticket_also_sold_by.map((c) => c.flight_number)).toEqual(['LH 9375', 'OS 7856', 'SN 9105']);
  });

  it('labels price level 4 as typical', () => {
    expect(p.price_insights).toMatchObject({ price_level: 'typical', price_level_code: 4, typical_price_range: { low_price: 330, high_price: 415 } });
  });
});

const business = fixtureSuite('metasearch flights parser: domestic business LAX-ORD', 'google-flights/results-domestic_business-lax_ord.html.zst');
describe(business.title, () => {
  const p = page('domestic_business-lax_ord');

  it('finds 5 best and 111 other itineraries', () => {
    expect(p.best_flights).toHaveLength(5);
    expect(p.other_flights).toHaveLength(111);
  });

  it('reads the first itinerary: Delta DL 967 07:45 → 14:00, $384, no legroom given', () => {
    const it0 = p.best_flights[0];
    expect(it0.price).toBe(384);
    expect(it0.flights[0].flight_number).toBe('DL 967');
    expect(it0.flights[0].departure_airport.time).toBe('07:45');
    expect(it0.flights[0].arrival_airport.time).toBe('14:00');
    expect(it0.flights[0].legroom).toBeNull();
    expect(it0.flights[0].overnight).toBe(false);
  });

  it('keeps a mixed-cabin itinerary leg by leg (JetBlue Mint, code 3, then Economy); code 3 is labelled on one recorded page only, so it is not named', () => {
    const mixed = p.other_flights.find((i) => i.flights.map((f) => f.flight_number).join() === 'B6 1488,B6 311')!;
    expect(mixed.flights.map((f) => f.travel_class)).toEqual([null, 'Economy']);
  });
});

describe('metasearch flights parser: contract', () => {
  it('balances brackets inside strings when extracting a blob', () => {
    const html = `<script>AF_initDataCallback({key: 'ds:1', hash: '9', data:[1,"a]\\"[",[2,{"k":"}"}]], sideChannel: {}});</script>`;
    expect(extractAfData(html, 'ds:1')).toEqual([1, 'a]"[', [2, { k: '}' }]]);
    expect(extractAfData(html, 'ds:2')).toBeUndefined();
  });

  it('skips rows without legs but treats a list of only such rows as a contract change', () => {
    const leg = [
      null,
      null,
      null,
      'SFO',
      'San Francisco International Airport',
      'John F. Kennedy International Airport',
      'JFK',
      null,
      [6],
      null,
      [14, 30],
      330,
    ];
    const good = [
      ['AS', ['Alaska'], [leg], 'SFO', [2026, 7, 15], [6], 'JFK', [2026, 7, 15], [14, 30], 330],
      [[null, 140], null],
    ];
    const page = parseFlightResultsData([null, null, [[[null], good]], null]);
    expect(page.best_flights).toHaveLength(1);
    expect(page.best_flights[0]).toMatchObject({ price: 140, currency: null, total_duration: 330 });
    expect(page.best_flights[0].flights[0].departure_airport).toEqual({ id: 'SFO', name: 'San Francisco International Airport', date: null, time: '06:00' });
    expect(() => parseFlightResultsData([null, null, [[[null]]], null])).toThrow(UpstreamContractChanged);
  });

  it('reports a page without the results blob as a contract change', () => {
    expect(() => parseFlightResults('<html><body>nothing</body></html>')).toThrow(UpstreamContractChanged);
    const wrong = `AF_initDataCallback({key: 'ds:1', hash: '9', data:{"a":1}, sideChannel: {}});`;
    expect(() => parseFlightResults(wrong)).toThrow(UpstreamContractChanged);
  });
});
