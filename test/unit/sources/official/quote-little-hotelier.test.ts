import { describe, expect, it } from 'vitest';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { littleHotelier, littleHotelierRatesUrl, parseLittleHotelierRates } from '../../../../src/sources/official/quote-little-hotelier.js';
import { LITTLE_HOTELIER_SLUG, littleHotelierRates } from '../../../fixtures/official-engine-replies.js';

const STAY = engineStay({ propertyCode: LITTLE_HOTELIER_SLUG });
const json = (v: unknown) => JSON.stringify(v);

describe('official little hotelier quote (public rates feed)', () => {
  it('one offer per rate plan: the sum of the nightly rates, rooms left the fewest of the nights; a full night or a longer minimum stay is not bookable', () => {
    const offers = parseLittleHotelierRates(json(littleHotelierRates('2027-03-10', '2027-03-11')), STAY);
    expect(offers.map((o) => [o.room_id, o.rate_name, o.nightly, o.total, o.rooms_available, o.bookable])).toEqual([
      ['7101', 'Queen Room - Flexible', [180, 195], 375, 2, true],
      ['7102', 'Family Room - Flexible', [240, 240], 480, 0, false],
      ['7103', 'Queen Room - Stay 3', [150, 150], 300, 5, false],
    ]);
    expect(offers[0]).toMatchObject({
      room_name: null,
      currency: null,
      taxes: null,
      price_basis: 'stay_total_sum_of_nightly',
      derivation: 'sum_of_upstream_nightly_rates',
    });
  });

  it('a night missing from the feed leaves the plan unpriced; the older room_types feed reads the same', () => {
    const short = littleHotelierRates('2027-03-10', '2027-03-10');
    expect(parseLittleHotelierRates(json(short), STAY)[0]).toMatchObject({ total: null, nightly: null, bookable: false });
    const legacy = [
      {
        name: 'Example',
        room_types: [
          {
            id: 9,
            name: 'One Bedroom Apartment',
            room_type_dates: [
              { date: '2027-03-10', rate: 100, available: 1 },
              { date: '2027-03-11', rate: 110, available: 1 },
            ],
          },
        ],
      },
    ];
    expect(parseLittleHotelierRates(json(legacy), STAY)).toEqual([
      expect.objectContaining({ room_id: '9', room_name: 'One Bedroom Apartment', rate_name: null, total: 210, bookable: true }),
    ]);
    expect(() => parseLittleHotelierRates(json({ rate_plans: [] }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseLittleHotelierRates(json([{ name: 'x' }]), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('asks the nights from check-in to the last night on the base (the regional host of the link)', async () => {
    expect(littleHotelierRatesUrl('https://apac.littlehotelier.com', STAY)).toBe(
      'https://apac.littlehotelier.com/api/v1/properties/examplelodgedirect/rates.json?start_date=2027-03-10&end_date=2027-03-11',
    );
    const offers = await littleHotelier.quote(
      STAY,
      async () => ({ status: 200, text: json(littleHotelierRates('2027-03-10', '2027-03-11')) }),
      engineContext('http://x.test'),
    );
    expect(offers).toHaveLength(3);
  });
});
