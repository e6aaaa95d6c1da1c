import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { describe, expect, it } from 'vitest';
import type { EngineStay } from '../../../../src/sources/official/engine-quotes.js';
import { SITEMINDER_QUOTE_CAP, parseSiteminderQuote, parseSiteminderRoomTypes, siteminder } from '../../../../src/sources/official/quote-siteminder.js';
import {
  SITEMINDER_CHANNEL,
  SITEMINDER_QUOTES,
  SITEMINDER_ROOM_TYPES,
  SITEMINDER_ROOM_TYPES_EMPTY,
  SITEMINDER_UNKNOWN_CHANNEL,
  SITEMINDER_VALIDATION_FAILED,
  siteminderReply,
} from '../../../fixtures/official-engine-payloads.js';

const STAY: EngineStay = engineStay({ propertyCode: SITEMINDER_CHANNEL });
const CTX = engineContext('https://direct-book.com');
const json = (v: unknown) => JSON.stringify(v);

describe('official siteminder quote (hand-written GraphQL replies)', () => {
  it('room types with their integer rate ids; unknown channel 404; empty list empty; schema error 503', () => {
    const rooms = parseSiteminderRoomTypes(json(SITEMINDER_ROOM_TYPES), STAY);
    expect(rooms.map((r) => [r.name, r.rates.map((x) => [x.roomRateId, x.name])])).toEqual([
      [
        'Queen Room',
        [
          [880001, 'Best Available Rate'],
          [880002, 'Stay Longer and Save'],
        ],
      ],
      ['King Suite', [[880003, 'Best Available Rate']]],
    ]);
    expect(rooms[0].uuid).toBe('5f0c2a9e-1d4b-4c1e-9a57-0b6f3e2d9c11');
    expect(() => parseSiteminderRoomTypes(json(SITEMINDER_UNKNOWN_CHANNEL), { propertyCode: 'nosuch' })).toThrow(
      expect.objectContaining({ status: 404, detail: 'siteminder property nosuch not found' }),
    );
    expect(parseSiteminderRoomTypes(json(SITEMINDER_ROOM_TYPES_EMPTY), STAY)).toEqual([]);
    expect(() => parseSiteminderRoomTypes(json(SITEMINDER_VALIDATION_FAILED), STAY)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseSiteminderRoomTypes(json({ errors: [{ message: 'Internal error' }], data: { roomTypes: null } }), STAY)).toThrow(
      expect.objectContaining({ status: 502 }),
    );
    const uuids = { data: { roomTypes: [{ uuid: 'a', name: 'A', rates: [{ uuid: 'not-an-int', name: 'R' }] }] } };
    expect(() => parseSiteminderRoomTypes(json(uuids), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('a quote is bookable only with a positive gross and no errors; gross and tax as numbers', () => {
    expect(parseSiteminderQuote(json(SITEMINDER_QUOTES[880001]))).toEqual({ gross: 412.5, tax: 37.5, name: 'Best Available Rate', errors: [], bookable: true });
    expect(parseSiteminderQuote(json(SITEMINDER_QUOTES[880002]))).toMatchObject({ gross: 380, tax: 34.55, bookable: true });
    expect(parseSiteminderQuote(json(SITEMINDER_QUOTES[880003]))).toMatchObject({ gross: 0, errors: ['AVAILABILITY'], bookable: false });
    expect(parseSiteminderQuote(json({ data: { quote: null }, errors: [{ message: 'No availability' }] }))).toMatchObject({
      bookable: false,
      errors: ['No availability'],
    });
    expect(() => parseSiteminderQuote(json(SITEMINDER_VALIDATION_FAILED))).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseSiteminderQuote(json({ data: { quote: { roomRateId: 1 } } }))).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseSiteminderQuote(json({ errors: [{ message: 'Internal server error' }] }))).toThrow(expect.objectContaining({ status: 502 }));
  });

  it('quotes every rate in parallel: totals from clean quotes, taxes given, rooms left unknown', async () => {
    const sent: any[] = [];
    const offers = await siteminder.quote(
      STAY,
      async (url, init) => {
        expect(url).toBe('https://direct-book.com/api/graphql');
        expect(init.headers).toMatchObject({ origin: 'https://direct-book.com', 'content-type': 'application/json' });
        sent.push(JSON.parse(init.body as string).variables);
        return { status: 200, text: json(siteminderReply(init.body as string)) };
      },
      CTX,
    );
    expect(sent[0]).toEqual({ channelCode: SITEMINDER_CHANNEL, checkInDate: '2027-03-10', checkOutDate: '2027-03-12', locale: 'en' });
    expect(sent.slice(1)).toEqual(
      [880001, 880002, 880003].map((roomRateId) => ({ roomRateId, checkInDate: '2027-03-10', checkOutDate: '2027-03-12', adults: 2 })),
    );
    expect(offers.map((o) => [o.room_name, o.rate_name, o.total, o.taxes, o.bookable, o.upstream_rate_id, o.rooms_available])).toEqual([
      ['Queen Room', 'Best Available Rate', 412.5, 37.5, true, '880001', null],
      ['Queen Room', 'Stay Longer and Save', 380, 34.55, true, '880002', null],
      ['King Suite', 'Best Available Rate', null, null, false, '880003', null],
    ]);
    expect(offers[0]).toMatchObject({ nightly: null, currency: null, price_basis: 'stay_total_gross_as_quoted', derivation: 'upstream' });
  });

  it(`quotes at most ${SITEMINDER_QUOTE_CAP} rates; a 400 carrying a schema error is 503, another status 502`, async () => {
    const many = {
      data: { roomTypes: [{ uuid: 'r', name: 'Room', rates: Array.from({ length: 30 }, (_, i) => ({ uuid: String(900000 + i), name: `Rate ${i}` })) }] },
    };
    let quotes = 0;
    const offers = await siteminder.quote(
      STAY,
      async (_url, init) => {
        if (JSON.parse(init.body as string).variables.channelCode) return { status: 200, text: json(many) };
        quotes++;
        return { status: 200, text: json(SITEMINDER_QUOTES[880001]) };
      },
      CTX,
    );
    expect([quotes, offers.length]).toEqual([SITEMINDER_QUOTE_CAP, SITEMINDER_QUOTE_CAP]);
    await expect(siteminder.quote(STAY, async () => ({ status: 400, text: json(SITEMINDER_VALIDATION_FAILED) }), CTX)).rejects.toMatchObject({ status: 503 });
    await expect(siteminder.quote(STAY, async () => ({ status: 403, text: 'Forbidden' }), CTX)).rejects.toMatchObject({ status: 502, detail: 'EngineHttp403' });
  });
});
