import { describe, expect, it } from 'vitest';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import {
  parseSynxisAvailability,
  parseSynxisWidgetKey,
  synxis,
  synxisAvailabilityBody,
  synxisStayLink,
} from '../../../../src/sources/official/quote-synxis.js';
import { SYNXIS_AVAILABILITY, SYNXIS_CHAIN, SYNXIS_HOTEL, SYNXIS_PAGE, SYNXIS_SOLD_OUT, SYNXIS_WIDGET_KEY } from '../../../fixtures/official-engine-replies.js';

const STAY = engineStay({ propertyCode: SYNXIS_HOTEL, chainCode: SYNXIS_CHAIN, currency: 'USD' });
const json = (v: unknown) => JSON.stringify(v);

describe('official synxis quote (booking SPA gateway replies)', () => {
  it('one offer per room and rate: the total with fees as quoted, names and terms from the content lists, NRF not refundable, member rates remarked', () => {
    const offers = parseSynxisAvailability(json(SYNXIS_AVAILABILITY), STAY);
    expect(offers.map((o) => [o.room_id, o.room_name, o.rate_name, o.total, o.rooms_available, o.bookable, o.refundable, o.discount_remarks])).toEqual([
      ['KNG', 'King Room', 'Best Flexible Rate', 926.38, 4, true, null, []],
      ['KNG', 'King Room', 'Pay Now and Save', 836.38, 4, true, false, []],
      ['KNG', 'King Room', 'AAA Member Rate', 882.38, 2, true, null, ['AAA Member Rate']],
      ['STE', 'Junior Suite', 'Best Flexible Rate', null, 0, false, null, []],
    ]);
    expect(offers[0]).toMatchObject({
      cancellation_policy: 'Cancel by 4 pm the day before arrival at no charge.',
      currency: null,
      taxes_and_fees_included: null,
      upstream_rate_id: 'KNG/BFRd',
      price_basis: 'stay_total_with_fees_as_quoted',
      booking_url:
        'https://be.synxis.com/?adult=2&arrive=2027-03-10&chain=24447&child=0&currency=USD&depart=2027-03-12&hotel=10868&level=hotel&locale=en-US&rooms=1',
    });
  });

  it('nothing in inventory lists the rooms as not bookable; an application error naming the hotel is a 404, another a 502', () => {
    expect(parseSynxisAvailability(json(SYNXIS_SOLD_OUT), STAY)).toEqual([expect.objectContaining({ room_id: 'KNG', bookable: false, total: null })]);
    expect(() => parseSynxisAvailability(json({ ApplicationResults: { Error: [{ Message: 'Invalid Hotel' }] } }), STAY)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(() => parseSynxisAvailability(json({ ApplicationResults: { Error: [{ Code: 'X1' }] } }), STAY)).toThrow(expect.objectContaining({ status: 502 }));
    expect(() => parseSynxisAvailability('[]', STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('reads the widget key from the rendered page, a page without one is a contract change', () => {
    expect(parseSynxisWidgetKey(SYNXIS_PAGE)).toBe(SYNXIS_WIDGET_KEY);
    expect(() => parseSynxisWidgetKey('<html>Choose a hotel</html>')).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('loads the page for its key, then posts the stay with the key, origin and party; no chain is a 422', async () => {
    const sent: { url: string; init: { method?: string; headers?: Record<string, string>; body?: string; expect?: string } }[] = [];
    const offers = await synxis.quote(
      STAY,
      async (url, init) => {
        sent.push({ url, init });
        return { status: 200, text: init.method === 'GET' ? SYNXIS_PAGE : json(SYNXIS_AVAILABILITY) };
      },
      engineContext('http://replay.test/synxis'),
    );
    expect(offers).toHaveLength(4);
    expect(sent[0]).toMatchObject({ url: synxisStayLink('http://replay.test/synxis', STAY), init: { method: 'GET', expect: 'html' } });
    expect(sent[1]!.url).toBe('http://replay.test/synxis/gw/product/v1/getProductAvailability');
    expect(sent[1]!.init.headers).toMatchObject({ authorization: `ApiKey ${SYNXIS_WIDGET_KEY}`, origin: 'http://replay.test', referer: 'http://replay.test/' });
    expect(JSON.parse(sent[1]!.init.body!).ProductAvailabilityQuery).toMatchObject({
      Chain: { Id: '24447' },
      Hotel: { Id: '10868' },
      Currency: { currencyCode: 'USD' },
      NumRooms: 1,
      RoomStay: {
        StartDate: '2027-03-10',
        EndDate: '2027-03-12',
        GuestCount: [
          { AgeQualifyingCode: 'Adult', NumGuests: 2 },
          { AgeQualifyingCode: 'Child', NumGuests: 0, Ages: [] },
        ],
      },
    });
    expect(JSON.parse(synxisAvailabilityBody({ ...STAY, currency: null })).ProductAvailabilityQuery.Currency).toBeUndefined();
    await expect(synxis.quote({ ...STAY, chainCode: null }, async () => ({ status: 200, text: '' }), engineContext('http://x.test'))).rejects.toMatchObject({
      status: 422,
    });
  });
});
