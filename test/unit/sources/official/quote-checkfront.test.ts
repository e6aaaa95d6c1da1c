import { describe, expect, it } from 'vitest';
import { checkfront, checkfrontItemsUrl, parseCheckfrontItems } from '../../../../src/sources/official/quote-checkfront.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { CHECKFRONT_ACCOUNT, checkfrontItems } from '../../../fixtures/official-more-engine-replies.js';

const STAY = engineStay({ propertyCode: CHECKFRONT_ACCOUNT });
const body = (adults = 2, children = 0) => JSON.stringify(checkfrontItems(STAY.checkIn, STAY.checkOut, STAY.nights, adults, children));

describe('official checkfront quote (documented API 3.0 rated items)', () => {
  it('one offer per item: the sub-total it states for the party and nights asked, in the account currency; taxes unstated', () => {
    const offers = parseCheckfrontItems(body(), STAY);
    expect(offers.map((o) => [o.room_id, o.room_name, o.total, o.currency, o.rooms_available, o.bookable])).toEqual([
      ['21', 'Lakeview Queen Room', 290, 'CAD', 3, true],
      ['22', 'Loft Suite', 420, 'CAD', 1, true],
      ['23', 'Cedar Cabin', 520, 'CAD', 0, false],
      // a daily rental priced for the stay's three days, not its two nights: listed, not priced
      ['31', 'Kayak Rental', null, 'CAD', 8, null],
    ]);
    expect(offers[0]).toMatchObject({
      taxes: null,
      taxes_and_fees_included: null,
      refundable: null,
      booking_url: null,
      price_basis: 'stay_sub_total_before_booking_taxes_as_quoted',
    });
  });

  it('an item whose reply does not state the party asked (other parameter names, other counts) is not priced', () => {
    const reply = checkfrontItems(STAY.checkIn, STAY.checkOut, STAY.nights, 2, 0);
    delete (reply.items['21'].param as Record<string, unknown>).adults;
    reply.items['22'].param.adults.qty = 1;
    const offers = parseCheckfrontItems(JSON.stringify(reply), STAY);
    expect(offers.slice(0, 2).map((o) => [o.total, o.bookable])).toEqual([
      [null, null],
      [null, null],
    ]);
    // children asked and echoed: priced
    expect(parseCheckfrontItems(body(2, 1), { ...STAY, children: 1 })[0]!.total).toBe(290);
    expect(parseCheckfrontItems(body(2, 0), { ...STAY, children: 1 })[0]!.total).toBeNull();
  });

  it('a single-item reply reads the same; a status other than OK is a 502; another shape a changed contract', () => {
    const reply = checkfrontItems(STAY.checkIn, STAY.checkOut, STAY.nights, 2, 0);
    const single = { ...reply, items: undefined, item: reply.items['21'] };
    expect(parseCheckfrontItems(JSON.stringify(single), STAY).map((o) => o.total)).toEqual([290]);
    expect(() => parseCheckfrontItems(JSON.stringify({ ...reply, request: { status: 'ERROR' } }), STAY)).toThrow(
      expect.objectContaining({ status: 502, message: 'CheckfrontStatus ERROR' }),
    );
    expect(() => parseCheckfrontItems(JSON.stringify({ version: '3.0' }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('asks the documented rated list for the stay (YYYYMMDD, checkout as end date) with the party, no key', async () => {
    expect(checkfront.unavailable).toBeUndefined();
    const urls: string[] = [];
    const offers = await checkfront.quote(
      STAY,
      async (url, init) => {
        urls.push(url);
        expect(init.headers).toEqual({ accept: 'application/json' });
        return { status: 200, text: body() };
      },
      engineContext('http://replay.test/checkfront'),
    );
    expect(offers).toHaveLength(4);
    expect(urls).toEqual([checkfrontItemsUrl('http://replay.test/checkfront', STAY)]);
    const sent = new URL(urls[0]!);
    expect(sent.pathname).toBe('/checkfront/api/3.0/item');
    expect(Object.fromEntries(sent.searchParams)).toEqual({ start_date: '20270310', end_date: '20270312', 'param[adults]': '2', 'param[children]': '0' });
  });
});
