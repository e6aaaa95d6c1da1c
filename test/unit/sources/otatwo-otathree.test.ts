import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { parseOfferGrid, neutralBusinessModel } from '../../../src/sources/otatwo/offer-grid.js';
import { parseOtatwoRooms } from '../../../src/sources/otatwo/rooms.js';
import { parseOtathreeStay } from '../../../src/sources/otathree/stay.js';
import { parseOtathreeReviews } from '../../../src/sources/otathree/reviews.js';
import { UpstreamContractChanged } from '../../../src/domain/errors.js';
import { parseTypeahead } from '../../../src/sources/shared/typeahead.js';

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';

/**
 * The recorded reply sells its one plan pay-now only. A plan sold both ways carries a second
 * `priceDetails` entry; this adds one, copied from the real entry and changed where a
 * pay-at-property sale differs (payment model, business model, price), as documented in
 * test/fixtures/README.md.
 */
function withPayLater(payload: any): any {
  const copy = structuredClone(payload);
  const plan = copy.data.propertyOffers.units[0].ratePlans[0];
  const later = structuredClone(plan.priceDetails[0]);
  later.paymentModel = 'PAY_LATER';
  later.propertyNaturalKeys[0].businessModelType = 'HOTEL_COLLECT';
  later.price.total.amount = 812.4;
  later.price.displayMessages[1].lineItems[0].value = '$812 total';
  later.price.lead = { ...later.price.lead, amount: 33.9, formatted: '$34' };
  plan.priceDetails.push(later);
  return copy;
}

const offers = fixtureSuite('otatwo/otathree propertyOffers', OFFERS);
describe(offers.title, () => {
  it('reads the grid: one priced plan, four sold-out rooms', () => {
    const grid = parseOfferGrid('otathree', readFixtureJson(OFFERS));
    expect(grid.property_id).toBe('9209612');
    expect(grid.check_in).toBe('2023-06-04');
    expect(grid.check_out).toBe('2023-06-14');
    expect(grid.nights).toBe(10);
    expect(grid.currency).toBe('USD');
    expect(grid.sticky_bar_text).toBe('$32');
    expect(grid.units.map((u) => u.unit_id)).toEqual(['200801954', '200801951', '200801948', '201648574', '200801957']);
    expect(grid.units.slice(1).every((u) => u.rows.length === 0 && u.unavailable_text === 'We are sold out')).toBe(true);
    expect(grid.sold_out).toBe(false);
    // a reply without its soldOut flag is not read as "not sold out"
    const unstated = readFixtureJson<any>(OFFERS);
    delete unstated.data.propertyOffers.soldOut;
    expect(parseOfferGrid('otathree', unstated).sold_out).toBeNull();
  });

  it('maps the rate plan to the spec offer object', () => {
    const stay = parseOtathreeStay(readFixtureJson(OFFERS), { propertyId: '9209612', marketCurrency: 'USD' });
    const o = stay.rooms[0].offers[0];
    expect(o).toEqual({
      plan_id: '203998903',
      room_type_id: '200801954',
      total: 782.6,
      nightly: 32.48,
      // 782.6 − 32.48 × 10 nights × 2 rooms, labelled "includes taxes & fees".
      taxes_and_fees: 133,
      currency: 'USD',
      total_text: '$783 total',
      nightly_text: '$32',
      taxes_and_fees_included: true,
      fees_included: null,
      payment_model: 'PAY_NOW',
      hotel_collect: false,
      member_only: false,
      refundable: true,
      cancellation_text: "Cancel your reservation before May 30 at 2:00pm, and you'll get a full refund.",
      extras: 'Free WiFi, Breakfast included',
      extras_text: 'Free WiFi, Breakfast included',
      strikeout_text: '',
      inventory_type: 'MERCHANT',
      business_model: 'OTA_COLLECT',
      messages: ['Fully refundable', 'We have 4 left'],
    });
    expect(stay.room_types).toBe(5);
    expect(stay.offers).toBe(1);
  });

  it('builds the headline from the sticky bar, rounded nightly', () => {
    const stay = parseOtathreeStay(readFixtureJson(OFFERS), { propertyId: '9209612', marketCurrency: 'USD' });
    expect(stay.property).toEqual({
      property_id: '9209612',
      currency: 'USD',
      currency_verified: true,
      cheapest_total: 782.6,
      total: 782.6,
      price_per_night: 32,
      basis: 'sticky_bar',
      total_text: '$783 total',
      nightly_text: '$32',
      taxes_and_fees_included: true,
      fees_included: null,
      available: true,
      unavailable_reason: null,
    });
    const cad = parseOtathreeStay(readFixtureJson(OFFERS), { propertyId: '9209612', marketCurrency: 'CAD' });
    expect(cad.property.currency_verified).toBe(false);
  });

  it('headline only: no rooms, cheapest_total null', () => {
    const stay = parseOtathreeStay(readFixtureJson(OFFERS), { propertyId: '9209612', marketCurrency: 'USD', rooms: false });
    expect(stay.rooms).toEqual([]);
    expect(stay.property.cheapest_total).toBeNull();
    expect(stay.property.price_per_night).toBe(32);
  });

  it('falls back to the cheapest offer without a sticky bar', () => {
    const p = readFixtureJson(OFFERS);
    p.data.propertyOffers.stickyBar = null;
    const h = parseOtathreeStay(p, { propertyId: '9209612', marketCurrency: 'USD' }).property;
    expect(h.basis).toBe('cheapest_offer');
    expect(h.total).toBe(782.6);
    expect(h.price_per_night).toBe(32);
  });

  it('splits a plan sold pay-now and pay-at-property into two offers', () => {
    const stay = parseOtathreeStay(withPayLater(readFixtureJson(OFFERS)), { propertyId: '9209612', marketCurrency: 'USD' });
    const [now, later] = stay.rooms[0].offers;
    expect(stay.rooms[0].offers).toHaveLength(2);
    expect(now.plan_id).toBe(later.plan_id);
    expect([now.payment_model, now.hotel_collect, now.business_model]).toEqual(['PAY_NOW', false, 'OTA_COLLECT']);
    expect([later.payment_model, later.hotel_collect, later.business_model]).toEqual(['PAY_LATER', true, 'HOTEL_COLLECT']);
    expect(later.total).toBe(812.4);
    // 812.4 − 33.9 × 10 × 2
    expect(later.taxes_and_fees).toBe(134.4);
    expect(stay.property.cheapest_total).toBe(782.6);
  });

  it('derives taxes and fees only when the total is labelled as including them', () => {
    const p = readFixtureJson(OFFERS);
    p.data.propertyOffers.units[0].ratePlans[0].priceDetails[0].price.displayMessages.splice(3, 1);
    const o = parseOtathreeStay(p, { propertyId: '9209612', marketCurrency: 'USD' }).rooms[0].offers[0];
    expect(o.taxes_and_fees_included).toBeNull();
    expect(o.taxes_and_fees).toBeNull();
    expect(o.total).toBe(782.6);
  });

  it('marks member-only plans and strikeouts from the plan badge and rate rule', () => {
    const p = readFixtureJson(OFFERS);
    const plan = p.data.propertyOffers.units[0].ratePlans[0];
    plan.badge = { __typename: 'Badge', text: '20% off', theme_temp: 'DEAL_MEMBER' };
    plan.priceDetails[0].dynamicRateRule = { description: '20% off', discountPercent: 20, discountType: 'MEMBER_DEAL' };
    plan.priceDetails[0].price.strikeOut = { amount: 40.6, formatted: '$41' };
    const o = parseOtathreeStay(p, { propertyId: '9209612', marketCurrency: 'USD' }).rooms[0].offers[0];
    expect(o.member_only).toBe(true);
    expect(o.strikeout_text).toBe('$41');
    expect(o.messages).toContain('20% off');
  });

  it('otatwo rooms: rate plans with pay_now, lead price and deadline', () => {
    const r = parseOtatwoRooms(withPayLater(readFixtureJson(OFFERS)), { requestedCurrency: 'USD' });
    expect(r.currency_verified).toBe(true);
    expect(r.available).toBe(true);
    expect(r.sold_out).toBe(false);
    expect(r.cheapest_rate).toBe(32.48);
    const plans = r.rooms[0].rate_plans;
    expect(plans.map((p) => [p.pay_now, p.payment_model, p.price, p.price_text])).toEqual([
      [true, 'PAY_NOW', 32.48, '$32'],
      [false, 'PAY_LATER', 33.9, '$34'],
    ]);
    expect(plans[0].refundable_until).toBe('2023-05-30T14:00');
    expect(r.rooms[1]).toEqual({ name: 'Superior Room, Balcony', unit_id: '200801951', cheapest_rate: null, rate_plans: [] });
  });

  it('throws contract-changed without data.propertyOffers', () => {
    expect(() => parseOtathreeStay({ data: {} }, { propertyId: '1', marketCurrency: 'USD' })).toThrow(UpstreamContractChanged);
  });
});

describe('group suggestions', () => {
  it('reads coordinates only where the entry states them (an empty string is no coordinate)', () => {
    const [hit] = parseTypeahead('otatwo', {
      sr: [{ type: 'HOTEL', hotelId: '9209612', regionNames: { shortName: 'Golden Time Hotel' }, coordinates: { lat: '', long: '' } }],
    });
    expect(hit).toMatchObject({ property_id: '9209612', latitude: null, longitude: null, region_id: null });
  });
});

describe('business model wording', () => {
  it('replaces the group brand and keeps hotel collect', () => {
    expect(neutralBusinessModel('EXPEDIA_COLLECT')).toBe('OTA_COLLECT');
    expect(neutralBusinessModel('HOTEL_COLLECT')).toBe('HOTEL_COLLECT');
    expect(neutralBusinessModel(undefined)).toBe('');
  });
});

describe('otathree reviews (synthetic page mirroring the published review objects, see test/fixtures/README.md)', () => {
  const payload = [
    {
      data: {
        propertyReviewSummaries: [{ totalCount: { raw: 149 } }],
        propertyInfo: {
          id: '4810723',
          reviewInfo: {
            reviews: [
              {
                id: '657456105914715d6adf0fd1',
                locale: 'de_DE',
                title: 'Kein WiFi auf dem Zimmer',
                reviewScoreWithDescription: { label: '6 out of 10 Okay', value: '6/10 Okay' },
                text: 'Eigentlich ganz ok.',
                submissionTime: { longDateFormat: 'Dec 9, 2023' },
                themes: [{ label: 'Liked: Cleanliness' }, { label: 'Disliked: Room comfort' }],
                reviewFooter: { messages: [{ seoStructuredData: { itemprop: 'author', content: 'Norbert' }, text: { text: 'Stayed 3 nights in Dec 2023' } }] },
                reviewInteractionSections: [{ primaryDisplayString: '2', reviewInteractionType: 'HELPFUL_REVIEW' }],
                reviewAuthorAttribution: { text: 'Norbert' },
                managementResponses: [{ id: 'm1', header: { text: 'Response from Hotel' }, response: 'Danke für Ihr Feedback.' }],
                travelers: [],
              },
              {
                id: '6535f83e0ee1f55b3a993c87',
                locale: 'en_GB',
                title: '',
                reviewScoreWithDescription: { label: '10 out of 10 Excellent', value: '10/10 Excellent' },
                text: '',
                submissionTime: { longDateFormat: 'Oct 23, 2023' },
                themes: null,
                reviewFooter: { messages: [{ text: { text: 'Stayed 1 night in Oct 2023' } }] },
                reviewInteractionSections: [{ primaryDisplayString: '0', reviewInteractionType: 'HELPFUL_REVIEW' }],
                reviewAuthorAttribution: { text: 'NIANGANE' },
                managementResponses: [],
              },
            ],
          },
        },
      },
    },
  ];

  it('reads rating from the score label, author, stay and reply', () => {
    const page = parseOtathreeReviews(payload);
    expect(page.total).toBe(149);
    expect(page.reviews[0]).toEqual({
      review_id: '657456105914715d6adf0fd1',
      rating: 6,
      title: 'Kein WiFi auf dem Zimmer',
      text: 'Eigentlich ganz ok.',
      date: 'Dec 9, 2023',
      author: 'Norbert',
      management_reply: 'Danke für Ihr Feedback.',
      language: 'de_DE',
      helpful_votes: 2,
      labels: ['Liked: Cleanliness', 'Disliked: Room comfort'],
      stay_info: 'Stayed 3 nights in Dec 2023',
    });
    expect(page.reviews[1].rating).toBe(10);
    expect(page.reviews[1].management_reply).toBeUndefined();
    expect(page.reviews[1].helpful_votes).toBe(0);
  });

  it('throws contract-changed without the review list', () => {
    expect(() => parseOtathreeReviews({ data: { propertyInfo: {} } })).toThrow(UpstreamContractChanged);
  });
});
