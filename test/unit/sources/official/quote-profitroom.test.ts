import { describe, expect, it } from 'vitest';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { parseProfitroomAvailability, parseProfitroomNames, profitroom, profitroomAvailabilityUrl } from '../../../../src/sources/official/quote-profitroom.js';
import { PROFITROOM_OFFERS, PROFITROOM_ROOMS, PROFITROOM_SITE, profitroomAvailability } from '../../../fixtures/official-engine-replies.js';

const STAY = engineStay({ propertyCode: PROFITROOM_SITE });
const json = (v: unknown) => JSON.stringify(v);
const names = () => ({
  rooms: parseProfitroomNames(json(PROFITROOM_ROOMS), 'rooms', 'en'),
  offers: parseProfitroomNames(json(PROFITROOM_OFFERS), 'offers', 'en'),
});

describe('official profitroom quote (public REST API replies)', () => {
  it('one offer per proposal: the stay total and currency as stated, names by id, nonref profile, discount names, rooms left', () => {
    const offers = parseProfitroomAvailability(json(profitroomAvailability('2027-03-10', '2027-03-12')), STAY, names());
    expect(offers.map((o) => [o.room_id, o.room_name, o.rate_name, o.total, o.currency, o.rooms_available, o.refundable, o.discount_remarks])).toEqual([
      ['504650', 'Hillside Igloo', 'Best Available Deal', 2480, 'EUR', 13, false, []],
      ['504650', 'Hillside Igloo', 'Early Booking', 2590, 'EUR', 13, null, ['Early booking -10%']],
      ['504700', 'Igloo Premium', 'Best Available Deal', 2640, 'EUR', 4, false, []],
    ]);
    expect(offers[0]).toMatchObject({
      bookable: true,
      taxes: null,
      taxes_and_fees_included: null,
      upstream_rate_id: '1169872',
      price_basis: 'stay_total_as_quoted',
      booking_url: 'https://booking.profitroom.com/en/villaexample/pricelist/offers/?check-in=2027-03-10&check-out=2027-03-12&r1_adults=2',
    });
  });

  it('a room id the room list does not carry keeps its name null; another language picks its own translation', () => {
    const reply = [{ proposals: [{ proposal: { OfferID: 1, RoomID: 185246, price: { amount: 1418, currency: 'EUR' } }, roomCount: 24 }] }];
    expect(parseProfitroomAvailability(json(reply), STAY, names())[0]).toMatchObject({ room_name: null, rate_name: null, total: 1418 });
    expect(parseProfitroomNames(json(PROFITROOM_ROOMS), 'rooms', 'pl').get('504700')?.name).toBe('Igloo Premium (PL)');
  });

  it('another stay echoed is a 502; no proposal is nothing to sell; a non-list reply is a contract change', () => {
    expect(() => parseProfitroomAvailability(json(profitroomAvailability('2027-03-11', '2027-03-13')), STAY, names())).toThrow(
      expect.objectContaining({ status: 502 }),
    );
    expect(parseProfitroomAvailability('[]', STAY, names())).toEqual([]);
    expect(() => parseProfitroomAvailability('{"error":"x"}', STAY, names())).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseProfitroomNames('<html>', 'rooms', 'en')).toThrow(expect.objectContaining({ status: 502, failure: 'unusable' }));
  });

  it('asks availability, rooms and offers under the configured base, with the adults and language', async () => {
    expect(profitroomAvailabilityUrl('https://booking.profitroom.com', STAY)).toBe(
      'https://booking.profitroom.com/api/villaexample/availability?checkIn=2027-03-10&checkOut=2027-03-12&occupancy%5B0%5D%5Badults%5D=2&lang=en',
    );
    const sent: string[] = [];
    const offers = await profitroom.quote(
      STAY,
      async (url) => {
        sent.push(url);
        const path = new URL(url).pathname;
        const body = path.endsWith('/rooms')
          ? PROFITROOM_ROOMS
          : path.endsWith('/offers')
            ? PROFITROOM_OFFERS
            : profitroomAvailability('2027-03-10', '2027-03-12');
        return { status: 200, text: json(body) };
      },
      engineContext('http://replay.test/pr'),
    );
    expect(sent.map((u) => new URL(u).pathname).sort()).toEqual([
      '/pr/api/villaexample/availability',
      '/pr/api/villaexample/offers',
      '/pr/api/villaexample/rooms',
    ]);
    expect(offers).toHaveLength(3);
    await expect(profitroom.quote(STAY, async () => ({ status: 500, text: 'down' }), engineContext('http://x.test'))).rejects.toMatchObject({
      status: 502,
      detail: 'EngineHttp500',
    });
  });
});
