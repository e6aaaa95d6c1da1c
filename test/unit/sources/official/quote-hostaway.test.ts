import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseHostawayKeys } from '../../../../src/config/engine-credentials.js';
import { hostaway, parseHostawayCalendar, parseHostawayListing, parseHostawayPriceDetails } from '../../../../src/sources/official/quote-hostaway.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import {
  HOSTAWAY_LISTING_ID,
  HOSTAWAY_TOKEN,
  hostawayCalendar,
  hostawayListing,
  hostawayPriceDetails,
} from '../../../fixtures/official-keyed-engine-replies.js';

const STAY = engineStay({ propertyCode: HOSTAWAY_LISTING_ID });
const KEYS = { hostaway: { [HOSTAWAY_LISTING_ID]: HOSTAWAY_TOKEN } };
const json = (v: unknown) => JSON.stringify(v);

describe('official hostaway quote (documented Public API replies)', () => {
  it('price details v2: the total, its taxes and fees as stated, whether they are inside it, and discounts as remarks', () => {
    expect(parseHostawayPriceDetails(json(hostawayPriceDetails(2)))).toEqual({
      total: 521,
      taxes: 21,
      fees: 260,
      taxes_and_fees_included: true,
      discount_remarks: [],
    });
    expect(parseHostawayPriceDetails(json(hostawayPriceDetails(10)))).toMatchObject({ total: 1419.8, taxes: 79.8, discount_remarks: ['Weekly discount'] });
    // a fee the listing keeps outside the total: the total does not include every fee
    const outside = hostawayPriceDetails(2);
    outside.result.components[3]!.isIncludedInTotalPrice = 0;
    expect(parseHostawayPriceDetails(json(outside))).toMatchObject({ taxes_and_fees_included: false });
    // a component the client deleted is not part of the quote; no tax or fee stated leaves inclusion unstated
    const bare = hostawayPriceDetails(2);
    for (const c of bare.result.components.slice(1)) c.isDeleted = 1;
    expect(parseHostawayPriceDetails(json(bare))).toMatchObject({ taxes: null, fees: null, taxes_and_fees_included: null });
    expect(() => parseHostawayPriceDetails(json({ status: 'success', result: { totalPrice: 1 } }))).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseHostawayPriceDetails('<html>')).toThrow(expect.objectContaining({ status: 502 }));
  });

  it('listing: its name and the currency it prices in; calendar: every night open and the minimum stay kept', () => {
    expect(parseHostawayListing(json(hostawayListing('usd')))).toEqual({ id: HOSTAWAY_LISTING_ID, name: 'Lakeside Loft with Sauna', currency: 'USD' });
    expect(parseHostawayCalendar(json(hostawayCalendar('2027-03-10', '2027-03-11')), STAY)).toEqual({ open: true, nightly: [120, 120] });
    expect(parseHostawayCalendar(json(hostawayCalendar('2027-03-10', '2027-03-11', 120, ['2027-03-11'])), STAY).open).toBe(false);
    // one night asked of a two-night minimum; a night missing from the reply
    expect(parseHostawayCalendar(json(hostawayCalendar('2027-03-10', '2027-03-10')), { ...STAY, checkOut: '2027-03-11', nights: 1 }).open).toBe(false);
    expect(parseHostawayCalendar(json(hostawayCalendar('2027-03-10', '2027-03-10')), STAY)).toEqual({ open: false, nightly: null });
    expect(() => parseHostawayCalendar(json({ status: 'success', result: {} }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("needs the account's token: none set names the setting, another listing is a 422, its own is sent as a bearer token", async () => {
    expect(hostaway.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_HOSTAWAY_KEYS');
    expect(hostaway.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(hostaway.quote({ ...STAY, propertyCode: '1' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const sent: { url: string; init: { method?: string; headers?: Record<string, string>; body?: string } }[] = [];
    const reply = (blocked: string[]) => async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) => {
      sent.push({ url, init });
      if (url.includes('/priceDetails')) return { status: 200, text: json(hostawayPriceDetails(2)) };
      if (url.includes('/calendar')) return { status: 200, text: json(hostawayCalendar('2027-03-10', '2027-03-11', 120, blocked)) };
      return { status: 200, text: json(hostawayListing()) };
    };
    const offers = await hostaway.quote({ ...STAY, children: 1 }, reply([]), engineContext('http://replay.test/hostaway', KEYS));
    expect(offers).toEqual([
      expect.objectContaining({
        room_id: HOSTAWAY_LISTING_ID,
        room_name: 'Lakeside Loft with Sauna',
        total: 521,
        nightly: [120, 120],
        currency: 'EUR',
        bookable: true,
      }),
    ]);
    expect(sent.map((s) => [s.url, s.init.method])).toEqual([
      [`http://replay.test/hostaway/v1/listings/${HOSTAWAY_LISTING_ID}`, 'GET'],
      [`http://replay.test/hostaway/v1/listings/${HOSTAWAY_LISTING_ID}/calendar?startDate=2027-03-10&endDate=2027-03-11&includeResources=0`, 'GET'],
      [`http://replay.test/hostaway/v1/listings/${HOSTAWAY_LISTING_ID}/calendar/priceDetails`, 'POST'],
    ]);
    expect(JSON.parse(sent[2]!.init.body!)).toEqual({ startingDate: '2027-03-10', endingDate: '2027-03-12', numberOfGuests: 3, version: 2 });
    for (const s of sent) expect(s.init.headers).toMatchObject({ authorization: `Bearer ${HOSTAWAY_TOKEN}` });
    // a reserved night: listed, not bookable, not priced (no price request)
    sent.length = 0;
    const closed = await hostaway.quote(STAY, reply(['2027-03-11']), engineContext('http://replay.test/hostaway', KEYS));
    expect(closed).toEqual([expect.objectContaining({ total: null, bookable: false })]);
    expect(sent).toHaveLength(2);
  });

  it('the setting: listingId=accessToken entries, a malformed one refused without echoing the token', () => {
    expect(parseHostawayKeys(` ${HOSTAWAY_LISTING_ID}=${HOSTAWAY_TOKEN} `)).toEqual({ [HOSTAWAY_LISTING_ID]: HOSTAWAY_TOKEN });
    expect(() => parseHostawayKeys('463607=not-a-jwt-token')).toThrow(/^entry "463607=…" is not listingId=accessToken$/);
  });
});
