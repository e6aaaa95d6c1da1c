import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged, UpstreamFailed } from '../../../../../src/domain/errors.js';
import { buildCalendarRequest, parseCalendarGraph } from '../../../../../src/sources/metasearch/flights/calendar.js';
import { buildLocationSearchRequest, parseLocationSearch } from '../../../../../src/sources/metasearch/flights/location-search.js';
import { normalizeFlightSearch } from '../../../../../src/sources/metasearch/flights/params.js';
import { CALENDAR_GRAPH_RETURN, LOCATION_LONDON, RPC_REFUSED } from '../../../../fixtures/flights-rpc-payloads.js';

describe('metasearch flights location search (H028ib)', () => {
  it('builds the batchexecute call', () => {
    const req = buildLocationSearchRequest({ q: ' london ', hl: 'en' });
    expect(req.path).toBe('/_/FlightsFrontendUi/data/batchexecute');
    expect(req.query).toMatchObject({ rpcids: 'H028ib', hl: 'en' });
    const freq = JSON.parse(new URLSearchParams(req.body).get('f.req')!);
    expect(freq).toEqual([[['H028ib', '["london",[1,2,3,5,4],null,[1,1,1],1]', null, 'generic']]]);
  });

  it('parses places with their nearby airports', () => {
    const places = parseLocationSearch(LOCATION_LONDON);
    expect(places).toHaveLength(2);
    // kinds are bare codes no recorded reply labels: kept as kind, named nowhere
    expect(places[0]).not.toHaveProperty('type');
    expect(places[0]).toMatchObject({ kind: 3, title: 'London', kgmid: '/m/04jpl', description: 'Capital of England', code: null });
    expect(places[0].airports.map((a) => [a.kind, a.code, a.title, a.distance])).toEqual([
      [1, 'LHR', 'Heathrow Airport', '14 mi'],
      [1, 'LGW', 'London Gatwick Airport', '25 mi'],
      [5, 'QQS', 'St Pancras International', '2 mi'],
    ]);
    expect(places[1]).toMatchObject({ kind: 4, kgmid: '/m/036wy', airports: [] });
  });

  it('turns a refused call into 502 and a reply without frames into 503', () => {
    expect(() => parseLocationSearch(RPC_REFUSED)).toThrow(UpstreamFailed);
    expect(() => parseLocationSearch(")]}'\n\n[]")).toThrow(UpstreamContractChanged);
  });
});

describe('metasearch flights price calendar (GetCalendarGraph)', () => {
  const search = normalizeFlightSearch({
    departure_id: 'SFO',
    arrival_id: 'JFK',
    outbound_date: '2026-07-15',
    return_date: '2026-07-22',
    stops: 'nonstop',
    adults: 2,
    infants_on_lap: 1,
    currency: 'USD',
  });

  it('builds the f.req filter struct the results page echoes', () => {
    const req = buildCalendarRequest(search, { start_date: '2026-07-01', end_date: '2026-07-31' });
    expect(req.path).toBe('/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetCalendarGraph');
    expect(req.query).toEqual({ curr: 'USD' });
    const [head, inner] = JSON.parse(new URLSearchParams(req.body).get('f.req')!);
    expect(head).toBeNull();
    const filters = JSON.parse(inner);
    expect(filters[1][2]).toBe(1);
    expect(filters[1][6]).toEqual([2, 0, 1, 0]);
    expect(filters[1][13][0].slice(0, 7)).toEqual([[[['SFO', 0]]], [[['JFK', 0]]], null, 1, null, null, '2026-07-15']);
    expect(filters[2]).toEqual(['2026-07-01', '2026-07-31']);
    expect(filters[4]).toEqual([7, 7]);
  });

  it('refuses ranges over 61 days and location ids', () => {
    expect(() => buildCalendarRequest(search, { start_date: '2026-07-01', end_date: '2026-09-30' })).toThrow(expect.objectContaining({ status: 400 }));
    const city = normalizeFlightSearch({ departure_id: '/m/0d6lp', arrival_id: 'JFK', outbound_date: '2026-07-15', flight_type: 'one_way' });
    expect(() => buildCalendarRequest(city, { start_date: '2026-07-01', end_date: '2026-07-31' })).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('parses date pairs, prices and the currency of their tokens', () => {
    expect(parseCalendarGraph(CALENDAR_GRAPH_RETURN)).toEqual([
      { departure: '2026-01-05', return: '2026-01-12', price: 676, currency: 'GBP' },
      { departure: '2026-01-06', return: '2026-01-13', price: 630, currency: 'GBP' },
      { departure: '2026-01-12', return: '2026-01-19', price: 408, currency: 'GBP' },
    ]);
    expect(() => parseCalendarGraph(RPC_REFUSED)).toThrow(UpstreamFailed);
  });
});
