import { describe, expect, it } from 'vitest';
import { BadRequest } from '../../../../../src/domain/errors.js';
import { normalizeFlightSearch } from '../../../../../src/sources/metasearch/flights/params.js';
import { decodeBookingToken, decodeDepartureToken, encodeBookingToken, encodeDepartureToken } from '../../../../../src/sources/metasearch/flights/tokens.js';

const search = normalizeFlightSearch({
  departure_id: 'JFK',
  arrival_id: 'CDG,ORY',
  outbound_date: '2026-08-15',
  return_date: '2026-08-22',
  travel_class: 'business',
  adults: 2,
  children: 1,
  stops: 'one_stop_or_fewer',
  currency: 'EUR',
  hl: 'en',
  gl: 'de',
});
const outbound = [{ from: 'JFK', date: '2026-08-15', to: 'CDG', airline: 'AF', flightNumber: '11' }];
const inbound = [
  { from: 'CDG', date: '2026-08-22', to: 'AMS', airline: 'KL', flightNumber: '1228' },
  { from: 'AMS', date: '2026-08-22', to: 'JFK', airline: 'KL', flightNumber: '641' },
];

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('metasearch flights tokens', () => {
  it('round-trips a departure token', () => {
    const token = encodeDepartureToken(search, [outbound]);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeDepartureToken(token)).toEqual({ v: 1, t: 'departure', search, selected: [outbound] });
  });

  it('round-trips a booking token', () => {
    const fare = { price_token: 'CjRIa2hk', price: 772, currency: 'EUR' };
    const token = encodeBookingToken(search, [outbound, inbound], fare);
    expect(decodeBookingToken(token)).toEqual({ v: 1, t: 'booking', search, selected: [outbound, inbound], ...fare });
  });

  const garbage: [string, unknown][] = [
    ['empty', ''],
    ['not a string', 42],
    ['not base64url', 'abc$%^'],
    ['base64 of text', b64('hello')],
    ['base64 of a JSON array', b64('[1,2,3]')],
    ['wrong version', b64(JSON.stringify({ v: 2, t: 'departure', search, selected: [outbound] }))],
    ['unknown field', b64(JSON.stringify({ v: 1, t: 'departure', search, selected: [outbound], x: 1 }))],
    ['bad airport code', b64(JSON.stringify({ v: 1, t: 'departure', search, selected: [[{ ...outbound[0], to: 'C;G' }]] }))],
    ['every leg already chosen', encodeDepartureToken(search, [outbound, inbound])],
    ['flight not on the leg date', encodeDepartureToken(search, [[{ ...outbound[0], date: '2026-08-16' }]])],
    ['flights that do not chain', encodeDepartureToken(search, [[outbound[0], inbound[1]]])],
    ['a booking token', encodeBookingToken(search, [outbound, inbound], { price_token: null, price: null, currency: null })],
    ['far too long', 'A'.repeat(10_000)],
  ];

  it.each(garbage)('rejects a departure_token that is %s with 400', (_what, token) => {
    expect(() => decodeDepartureToken(token)).toThrow(BadRequest);
    expect(() => decodeDepartureToken(token)).toThrow('invalid departure_token');
  });

  it('rejects booking tokens that are garbage, incomplete or departure tokens', () => {
    for (const token of [
      '',
      'zzz',
      b64('{}'),
      encodeDepartureToken(search, [outbound]),
      encodeBookingToken(search, [outbound], { price_token: null, price: null, currency: null }),
    ]) {
      expect(() => decodeBookingToken(token)).toThrow(expect.objectContaining({ status: 400, detail: 'invalid booking_token' }));
    }
  });
});
