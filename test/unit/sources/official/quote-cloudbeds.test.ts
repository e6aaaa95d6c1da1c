import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { describe, expect, it } from 'vitest';
import type { EngineStay } from '../../../../src/sources/official/engine-quotes.js';
import {
  cloudbeds,
  cloudbedsPropertyInfoRequest,
  cloudbedsRoomsRequest,
  nightlyRates,
  parseCloudbedsPropertyInfo,
  parseCloudbedsRooms,
} from '../../../../src/sources/official/quote-cloudbeds.js';
import {
  CLOUDBEDS_CODE,
  CLOUDBEDS_PROPERTY_INFO,
  CLOUDBEDS_PROPERTY_UNKNOWN,
  CLOUDBEDS_ROOMS,
  CLOUDBEDS_ROOMS_FULL,
  CLOUDBEDS_ROOMS_LEGACY,
  cloudbedsReply,
} from '../../../fixtures/official-engine-payloads.js';

const STAY: EngineStay = engineStay({ propertyCode: CLOUDBEDS_CODE });
const CTX = engineContext('https://hotels.cloudbeds.com');
const json = (v: unknown) => JSON.stringify(v);

describe('official cloudbeds quote (hand-written booking-engine replies)', () => {
  it('property_info gives the numeric property id; success:false or no id is 404; non-JSON 502 unusable', () => {
    expect(parseCloudbedsPropertyInfo(json(CLOUDBEDS_PROPERTY_INFO), CLOUDBEDS_CODE)).toEqual({ propertyId: '201001' });
    expect(() => parseCloudbedsPropertyInfo(json(CLOUDBEDS_PROPERTY_UNKNOWN), 'NoSuch')).toThrow(
      expect.objectContaining({ status: 404, detail: 'cloudbeds property NoSuch not found' }),
    );
    expect(() => parseCloudbedsPropertyInfo(json({ success: true, data: { hotel_email: 'x@y.test' } }), 'NoId')).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(() => parseCloudbedsPropertyInfo('<!doctype html>', 'X')).toThrow(expect.objectContaining({ status: 502, failure: 'unusable' }));
  });

  it('totals only rooms with one rate per night (summed, any order), never rate_basic; too-small rooms left out', () => {
    const offers = parseCloudbedsRooms(json(CLOUDBEDS_ROOMS), STAY);
    expect(offers.map((o) => [o.room_id, o.room_name, o.rooms_available, o.total, o.nightly, o.bookable, o.upstream_rate_id])).toEqual([
      ['301', 'Double Room', 3, 230.5, [110, 120.5], true, '551718'],
      ['302', 'Family Suite', 1, null, null, true, '551719'],
      ['303', 'Bed in Dorm', 0, 60, [30, 30], false, '551720'],
    ]);
    expect(offers[0]).toMatchObject({
      rate_name: null,
      taxes: null,
      currency: null,
      price_basis: 'stay_total_sum_of_nightly',
      derivation: 'sum_of_upstream_nightly_rates',
    });
    // a party of one fits the single room too
    expect(parseCloudbedsRooms(json(CLOUDBEDS_ROOMS), { ...STAY, adults: 1 }).map((o) => o.room_id)).toEqual(['301', '302', '303', '304']);
  });

  it('a nightly list that is not exactly the stay nights gives no total', () => {
    const nights = ['2027-03-10', '2027-03-11'];
    expect(
      nightlyRates(
        [
          { date: '2027-03-10', rate: '10.1' },
          { date: '2027-03-11', rate: 20.2 },
        ],
        nights,
      ),
    ).toEqual([10.1, 20.2]);
    expect(
      nightlyRates(
        [
          { date: '2027-03-10', rate: 10 },
          { date: '2027-03-10', rate: 10 },
        ],
        nights,
      ),
    ).toBeNull();
    expect(
      nightlyRates(
        [
          { date: '2027-03-10', rate: 10 },
          { date: '2027-03-12', rate: 10 },
        ],
        nights,
      ),
    ).toBeNull();
    expect(
      nightlyRates(
        [
          { date: '2027-03-10', rate: 10 },
          { date: '2027-03-11', rate: 'n/a' },
        ],
        nights,
      ),
    ).toBeNull();
    expect(
      nightlyRates(
        [
          { date: '2027-03-10', rate: 10 },
          { date: '2027-03-11', rate: 0 },
        ],
        nights,
      ),
    ).toBeNull();
    expect(nightlyRates(undefined, nights)).toBeNull();
  });

  it('reads the older accomodation_types list; availability unknown is bookable null, never guessed from the price', () => {
    const [cabin] = parseCloudbedsRooms(json(CLOUDBEDS_ROOMS_LEGACY), STAY);
    expect(cabin).toMatchObject({ room_id: '77', room_name: 'Garden Cabin', rooms_available: null, total: 170.3, nightly: [85.1, 85.2], bookable: null });
  });

  it('a sold-out reply has no bookable room; no list but known keys is empty; another payload is 503', () => {
    expect(parseCloudbedsRooms(json(CLOUDBEDS_ROOMS_FULL), STAY).filter((o) => o.bookable)).toEqual([]);
    expect(parseCloudbedsRooms(json({ total: 0, ma_rates: false }), STAY)).toEqual([]);
    expect(() => parseCloudbedsRooms(json({ rooms: [] }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseCloudbedsRooms(json({ room_types: {} }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('posts the two forms in order, the requested currency as currency_code', async () => {
    expect(cloudbedsPropertyInfoRequest(CLOUDBEDS_CODE).body).toBe('booking_engine_source=hosted&iframe=false&lang=en&property_code=AbCdEf');
    expect(cloudbedsRoomsRequest('201001', { ...STAY, currency: null }).body).toBe('checkin=2027-03-10&checkout=2027-03-12&lang=en&widget_property=201001');
    const sent: [string, string, string | undefined][] = [];
    const offers = await cloudbeds.quote(
      STAY,
      async (url, init) => {
        sent.push([url, init.body as string, init.headers?.['content-type']]);
        return { status: 200, text: json(cloudbedsReply(new URL(url).pathname, init.body as string)) };
      },
      CTX,
    );
    expect(sent).toEqual([
      [
        'https://hotels.cloudbeds.com/booking/property_info',
        'booking_engine_source=hosted&iframe=false&lang=en&property_code=AbCdEf',
        'application/x-www-form-urlencoded',
      ],
      [
        'https://hotels.cloudbeds.com/booking/rooms',
        'checkin=2027-03-10&checkout=2027-03-12&currency_code=EUR&lang=en&widget_property=201001',
        'application/x-www-form-urlencoded',
      ],
    ]);
    expect(offers.map((o) => o.total)).toEqual([230.5, null, 60]);
    expect(cloudbeds.sendsCurrency).toBe(true);
    await expect(
      cloudbeds.quote(
        { ...STAY, propertyCode: 'NoSuch' },
        async (url, init) => ({
          status: 200,
          text: json(cloudbedsReply(new URL(url).pathname, init.body as string)),
        }),
        CTX,
      ),
    ).rejects.toMatchObject({ status: 404 });
  });
});
