import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { describe, expect, it } from 'vitest';
import { PRICED_ENGINES, type EngineStay } from '../../../../src/sources/official/engine-quotes.js';
import { beds24Request, parseBeds24Availability } from '../../../../src/sources/official/quote-beds24.js';
import { BEDS24_AVAILABILITY } from '../../../fixtures/ota-payloads.js';

const STAY: EngineStay = engineStay({ propertyCode: '123456' });
const CTX = engineContext('https://api.beds24.com');

describe('official beds24 quote (hand-written getAvailabilities reply)', () => {
  it('reads every room keyed by id, beside the request echoes; the stay total as quoted, no currency', () => {
    const offers = parseBeds24Availability(JSON.stringify(BEDS24_AVAILABILITY), STAY);
    expect(offers.map((o) => [o.room_id, o.rooms_available, o.total, o.bookable, o.upstream_rate_id])).toEqual([
      ['500101', 2, 240, true, '500101'],
      ['500102', 0, null, false, '500102'],
      ['500103', 1, 199.5, true, '500103'],
    ]);
    expect(offers[0]).toMatchObject({
      room_name: null,
      rate_name: null,
      nightly: null,
      taxes: null,
      currency: null,
      price_basis: 'stay_total_as_quoted',
      derivation: 'upstream',
    });
  });

  it('a reply echoing other stay dates is a 502; availability it does not state is bookable null', () => {
    expect(() => parseBeds24Availability(JSON.stringify({ ...BEDS24_AVAILABILITY, checkIn: '20270311', checkOut: '20270313' }), STAY)).toThrow(
      expect.objectContaining({ status: 502, detail: 'StayMismatch: the upstream answered for 2027-03-11..2027-03-13' }),
    );
    const [room] = parseBeds24Availability(JSON.stringify({ checkIn: '20270310', '500101': { roomId: '500101', price: 240 } }), STAY);
    expect(room).toMatchObject({ rooms_available: null, total: 240, bookable: null });
  });

  it('an error naming the property is 404, a rate limit 502 rate_limited, another error 503, non-JSON 502 unusable', () => {
    expect(() => parseBeds24Availability(JSON.stringify({ error: 'Property not found' }), STAY)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => parseBeds24Availability(JSON.stringify({ error: 'Too many requests today' }), STAY)).toThrow(
      expect.objectContaining({ status: 502, failure: 'rate_limited' }),
    );
    expect(() => parseBeds24Availability(JSON.stringify({ error: 'Unknown parameter ownerId' }), STAY)).toThrow(
      expect.objectContaining({ status: 503, failure: 'contract_changed' }),
    );
    expect(() => parseBeds24Availability('<html>', STAY)).toThrow(expect.objectContaining({ status: 502, failure: 'unusable' }));
  });

  it('sends compact dates, the property and the adults, never the currency', async () => {
    expect(JSON.parse(beds24Request(STAY).body as string)).toEqual({
      checkIn: '20270310',
      checkOut: '20270312',
      propId: '123456',
      numAdult: '2',
      numChild: '0',
    });
    const sent: string[] = [];
    const offers = await PRICED_ENGINES.beds24.quote(
      STAY,
      async (url) => {
        sent.push(url);
        return { status: 200, text: JSON.stringify(BEDS24_AVAILABILITY) };
      },
      CTX,
    );
    expect(sent).toEqual(['https://api.beds24.com/json/getAvailabilities']);
    expect(offers).toHaveLength(3);
    expect(PRICED_ENGINES.beds24.sendsCurrency).toBe(false);
    await expect(PRICED_ENGINES.beds24.quote(STAY, async () => ({ status: 500, text: 'down' }), CTX)).rejects.toMatchObject({
      status: 502,
      detail: 'EngineHttp500',
    });
  });
});
