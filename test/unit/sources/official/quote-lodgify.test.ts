import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseLodgifyKeys } from '../../../../src/config/engine-credentials.js';
import { lodgify, lodgifyStayLink, parseLodgifyQuote, parseLodgifyRooms } from '../../../../src/sources/official/quote-lodgify.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import {
  LODGIFY_ACCOUNT,
  LODGIFY_API_KEY,
  LODGIFY_PROPERTY,
  LODGIFY_PROPERTY_ID,
  LODGIFY_UNQUOTED_ROOM,
  lodgifyQuote,
} from '../../../fixtures/official-more-engine-replies.js';

const LINK = `https://checkout.lodgify.com/en/${LODGIFY_ACCOUNT}/${LODGIFY_PROPERTY_ID}/reservation?currency=EUR&ref=bnbox&adults=1`;
const STAY = engineStay({ propertyCode: LODGIFY_PROPERTY_ID, bookingUrl: LINK });
const KEYS = { lodgify: { [LODGIFY_PROPERTY_ID]: LODGIFY_API_KEY } };
const STUDIO = { id: '612001', name: 'Garden Studio' };
const quoteBody = (room: string, opts = {}) => JSON.stringify(lodgifyQuote(room, STAY.checkIn, STAY.checkOut, STAY.nights, 2, opts));

describe('official lodgify quote (documented API v2 replies)', () => {
  it('the room types of the property reply', () => {
    expect(parseLodgifyRooms(JSON.stringify(LODGIFY_PROPERTY))).toEqual([
      { id: '612001', name: 'Garden Studio' },
      { id: '612002', name: 'Sea View Apartment' },
      { id: '612003', name: 'Family Villa' },
    ]);
    expect(() => parseLodgifyRooms(JSON.stringify({ id: 1 }))).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('a quote: the all-in total including VAT, its taxes and fees lines, currency, terms, promotions and a deep link on the stay', () => {
    const offer = parseLodgifyQuote(quoteBody('612001'), STUDIO, STAY);
    expect(offer).toMatchObject({
      room_id: '612001',
      room_name: 'Garden Studio',
      rate_name: null,
      total: 261.8,
      taxes: 10.8,
      fees: 35,
      taxes_and_fees_included: true,
      currency: 'EUR',
      refundable: null,
      cancellation_policy: '50% of paid prepayments refundable when canceled 7 days before arrival or earlier. 0% refundable if canceled after.',
      discount_remarks: ['Early booking 10%'],
      booking_url: `https://checkout.lodgify.com/en/${LODGIFY_ACCOUNT}/${LODGIFY_PROPERTY_ID}/reservation?arrival=2027-03-10&departure=2027-03-12&adults=2`,
      bookable: null,
      rooms_available: null,
      nightly: null,
      price_basis: 'stay_total_including_vat_as_quoted',
    });
    // one object instead of a list of one reads the same
    expect(parseLodgifyQuote(JSON.stringify(JSON.parse(quoteBody('612001'))[0]), STUDIO, STAY).total).toBe(261.8);
  });

  it('an account pricing before VAT: the total excluding VAT, not called inclusive, with the VAT it states beside it', () => {
    const offer = parseLodgifyQuote(quoteBody('612001', { vatIncluded: false }), STUDIO, STAY);
    expect(offer).toMatchObject({ total: 238, taxes: 23.8, taxes_and_fees_included: false, price_basis: 'stay_total_excluding_vat_as_quoted' });
    expect(() => parseLodgifyQuote(JSON.stringify({ price: 1 }), STUDIO, STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('the deep link only from a checkout link naming the property (a Book Now box gives none)', () => {
    expect(lodgifyStayLink({ ...STAY, bookingUrl: `https://checkout.lodgify.com/${LODGIFY_ACCOUNT}/${LODGIFY_PROPERTY_ID}/reservation` })).toBe(
      `https://checkout.lodgify.com/${LODGIFY_ACCOUNT}/${LODGIFY_PROPERTY_ID}/reservation?arrival=2027-03-10&departure=2027-03-12&adults=2`,
    );
    expect(lodgifyStayLink({ ...STAY, bookingUrl: null })).toBeNull();
    expect(lodgifyStayLink({ ...STAY, bookingUrl: `https://checkout.lodgify.com/${LODGIFY_ACCOUNT}/en/#/${LODGIFY_PROPERTY_ID}` })).toBeNull();
  });

  it("needs the account's key: none set names the setting, another property is a 422, its own is sent with each request", async () => {
    expect(lodgify.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_LODGIFY_KEYS');
    expect(lodgify.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(lodgify.quote({ ...STAY, propertyCode: '999' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const sent: { url: URL; key: string | undefined }[] = [];
    const offers = await lodgify.quote(
      { ...STAY, children: 1 },
      async (url, init) => {
        const u = new URL(url);
        sent.push({ url: u, key: (init.headers as Record<string, string>)['x-apikey'] });
        if (u.pathname.endsWith(`/properties/${LODGIFY_PROPERTY_ID}`)) return { status: 200, text: JSON.stringify(LODGIFY_PROPERTY) };
        const room = u.searchParams.get('roomTypes[0].Id')!;
        return room === LODGIFY_UNQUOTED_ROOM ? { status: 400, text: '{"message":"refused"}' } : { status: 200, text: quoteBody(room) };
      },
      engineContext('http://replay.test/lodgify', KEYS),
    );
    expect(offers.map((o) => [o.room_name, o.total, o.price_basis])).toEqual([
      ['Garden Studio', 261.8, 'stay_total_including_vat_as_quoted'],
      ['Sea View Apartment', 413, 'stay_total_including_vat_as_quoted'],
      ['Family Villa', null, 'not_quoted'],
    ]);
    expect(sent.every((s) => s.key === LODGIFY_API_KEY)).toBe(true);
    expect(sent[0]!.url.pathname).toBe(`/lodgify/v2/properties/${LODGIFY_PROPERTY_ID}`);
    expect(sent[1]!.url.pathname).toBe(`/lodgify/v2/quote/${LODGIFY_PROPERTY_ID}`);
    // adults and children alike are people to the quote
    expect(Object.fromEntries(sent[1]!.url.searchParams)).toEqual({
      arrival: '2027-03-10',
      departure: '2027-03-12',
      'roomTypes[0].Id': '612001',
      'roomTypes[0].People': '3',
    });
  });

  it('the setting: propertyId=apiKey entries, a malformed one refused without echoing its key', () => {
    expect(parseLodgifyKeys(` ${LODGIFY_PROPERTY_ID}=${LODGIFY_API_KEY}, 77=abcdefgh12 `)).toEqual({
      [LODGIFY_PROPERTY_ID]: LODGIFY_API_KEY,
      '77': 'abcdefgh12',
    });
    expect(parseLodgifyKeys('')).toEqual({});
    expect(() => parseLodgifyKeys('casa=secret-key-123')).toThrow(/^entry "casa=…" is not propertyId=apiKey$/);
    expect(() => parseLodgifyKeys('12=short')).not.toThrow(/short/);
  });
});
