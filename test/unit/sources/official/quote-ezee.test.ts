import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseEzeeKeys } from '../../../../src/config/engine-credentials.js';
import { ezee, parseEzeeRoomList } from '../../../../src/sources/official/quote-ezee.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { EZEE_API_KEY, EZEE_HOTEL_CODE, EZEE_SLUG, ezeeRoomList } from '../../../fixtures/official-engine-replies.js';

const STAY = engineStay({ propertyCode: EZEE_SLUG, bookingUrl: `https://live.ipms247.com/booking/book-rooms-${EZEE_SLUG}` });
const KEYS = { ezee: { [EZEE_SLUG]: { hotelCode: EZEE_HOTEL_CODE, apiKey: EZEE_API_KEY } } };
const body = JSON.stringify(ezeeRoomList(STAY.checkIn, STAY.nights));

describe('official ezee quote (documented RoomList replies)', () => {
  it('one offer per room type and rate plan: the all-in total it states, nightly rates, taxes, currency, rooms left, terms', () => {
    const offers = parseEzeeRoomList(body, STAY);
    expect(offers.map((o) => [o.room_name, o.rate_name, o.total, o.nightly, o.taxes, o.currency, o.rooms_available, o.bookable])).toEqual([
      ['Deluxe', 'Deluxe EP', 2730, [1365, 1365], 130, 'INR', 3, true],
      ['Deluxe', 'Deluxe CP Early Bird', 2457, [1228.5, 1228.5], 117, 'INR', 3, true],
      ['Pool Suite', 'Pool Suite EP', 5460, [2730, 2730], 260, 'INR', 0, false],
    ]);
    expect(offers[0]).toMatchObject({
      taxes_and_fees_included: true,
      refundable: null,
      discount_remarks: [],
      booking_url: null,
      price_basis: 'stay_total_inclusive_as_quoted',
    });
    expect(offers[1]).toMatchObject({ refundable: false, discount_remarks: ['Early Bird 10%'], upstream_rate_id: '1234500000000000012' });
  });

  it("a party above the room's base occupancy adds the documented nightly extras; above its maximum, no offer", () => {
    const three = parseEzeeRoomList(body, { ...STAY, adults: 3 })[0]!;
    expect(three).toMatchObject({ total: 4410, nightly: null, taxes: null, price_basis: 'stay_total_inclusive_with_extra_guests', bookable: true });
    expect(parseEzeeRoomList(body, { ...STAY, children: 1 })[0]!.total).toBe(3780);
    expect(parseEzeeRoomList(body, { ...STAY, adults: 4 })[0]).toMatchObject({ total: null, bookable: false });
  });

  it('error replies: "no data" is nothing to sell; a refused key is a 502; another shape is a changed contract', () => {
    expect(parseEzeeRoomList(JSON.stringify([{ 'Error Details': { Error_Code: '-1', Error_Message: 'No Data found.' } }]), STAY)).toEqual([]);
    expect(() => parseEzeeRoomList(JSON.stringify({ Errors: { ErrorCode: 'APIACCESSDENIED', ErrorMessage: 'Key is incorrect' } }), STAY)).toThrow(
      expect.objectContaining({ status: 502, message: 'EzeeError APIACCESSDENIED' }),
    );
    expect(() => parseEzeeRoomList(JSON.stringify({ rooms: [] }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("needs the hotel's own key: none set names the setting, another hotel's is a 422, its own is sent with the stay", async () => {
    expect(ezee.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_EZEE_KEYS');
    expect(ezee.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(ezee.quote({ ...STAY, propertyCode: 'otherhotel' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const urls: string[] = [];
    const offers = await ezee.quote(
      { ...STAY, children: 1 },
      async (url) => {
        urls.push(url);
        return { status: 200, text: body };
      },
      engineContext('http://replay.test/ezee', KEYS),
    );
    expect(offers).toHaveLength(3);
    const sent = new URL(urls[0]!);
    expect(sent.pathname).toBe('/ezee/booking/reservation_api/listing.php');
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      request_type: 'RoomList',
      HotelCode: EZEE_HOTEL_CODE,
      APIKey: EZEE_API_KEY,
      check_in_date: '2027-03-10',
      check_out_date: '2027-03-12',
      number_adults: '2',
      number_children: '1',
      num_rooms: '1',
    });
  });

  it('the setting: slug=hotelCode:apiKey entries, a malformed one refused without echoing its key', () => {
    expect(parseEzeeKeys(` ${EZEE_SLUG}=${EZEE_HOTEL_CODE}:${EZEE_API_KEY}, Other=9:abcdefgh-1 `)).toEqual({
      [EZEE_SLUG]: { hotelCode: EZEE_HOTEL_CODE, apiKey: EZEE_API_KEY },
      other: { hotelCode: '9', apiKey: 'abcdefgh-1' },
    });
    expect(parseEzeeKeys('')).toEqual({});
    expect(() => parseEzeeKeys('hotel=abc:secret-key-123')).toThrow(/^entry "hotel=…"/);
    expect(() => parseEzeeKeys('hotel=abc:secret-key-123')).not.toThrow(/secret/);
  });
});
