import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { parseRentaloneQuote } from '../../../src/sources/rentalone/quote.js';
import { parseRentaltwoSearch, parseStructuredDisplayPrice } from '../../../src/sources/rentaltwo/stays-search.js';
import { parseRentaltwoCalendar } from '../../../src/sources/rentaltwo/calendar.js';
import { rentaltwoCalendarPath, staysSearchBody, staysSearchRawParams } from '../../../src/sources/rentaltwo/requests.js';
import { UpstreamContractChanged } from '../../../src/domain/errors.js';

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
const FRAGMENT = 'airbnb/stays-search-results-fragment-2024.json';
const CALENDAR = 'airbnb/PdpAvailabilityCalendar-excerpt-2026-09.json';
const ORIGIN = 'https://www.rental.example';

/**
 * The rental platform answers the group's `propertyOffers` document with the unit in
 * `singleUnitOffer`. No rental capture exists, so this moves the recorded hotel unit there and
 * adds a deposit sale of the same plan (see test/fixtures/README.md).
 */
function asRental(payload: any): any {
  const copy = structuredClone(payload);
  const root = copy.data.propertyOffers;
  const unit = root.units[0];
  const deposit = structuredClone(unit.ratePlans[0].priceDetails[0]);
  deposit.paymentModel = 'PAY_LATER_WITH_DEPOSIT';
  deposit.price.total.amount = 760.2;
  unit.ratePlans[0].priceDetails.push(deposit);
  root.singleUnitOffer = { id: root.id, header: unit.header, ratePlans: unit.ratePlans };
  root.units = [];
  return copy;
}

const rental = fixtureSuite('rentalone quote (propertyOffers reshaped as singleUnitOffer)', OFFERS);
describe(rental.title, () => {
  it('reads both sales as offers with the rental-specific empty fields', () => {
    const q = parseRentaloneQuote(asRental(readFixtureJson(OFFERS)), { propertyId: '9209612', listingId: '321ha', marketCurrency: 'USD' });
    expect(q.offers.map((o) => [o.payment_model, o.total])).toEqual([
      ['PAY_NOW', 782.6],
      ['PAY_LATER_WITH_DEPOSIT', 760.2],
    ]);
    expect(q.offers.every((o) => o.refundable === null && o.cancellation_text === '' && o.extras === null && o.extras_text === '')).toBe(true);
    expect(q.property).toMatchObject({
      property_id: '9209612',
      listing_id: '321ha',
      total: 760.2,
      basis: 'cheapest_offer',
      payment_model: 'PAY_LATER_WITH_DEPOSIT',
      available: true,
      currency: 'USD',
      currency_verified: true,
    });
    expect(q.nights).toBe(10);
  });

  it('is unavailable with the source reason when nothing is priced', () => {
    const p = asRental(readFixtureJson(OFFERS));
    p.data.propertyOffers.singleUnitOffer.ratePlans = [];
    p.data.propertyOffers.errorMessage = { title: 'This property has a 3-night minimum stay' };
    const q = parseRentaloneQuote(p, { propertyId: '9209612', listingId: null, marketCurrency: 'USD' });
    expect(q.property).toMatchObject({
      available: false,
      total: null,
      basis: null,
      payment_model: null,
      listing_id: null,
      unavailable_reason: 'This property has a 3-night minimum stay',
    });
  });
});

const lyon = fixtureSuite('rentaltwo StaysSearch (flat layout)', LYON);
describe(lyon.title, () => {
  const page = parseRentaltwoSearch(readFixtureJson(LYON), { origin: ORIGIN, includeTaxes: true });

  it('decodes listing ids and keeps name and descriptor apart', () => {
    expect(page!.properties.map((p) => [p.position, p.id, p.title, p.description])).toEqual([
      [1, '1344016074576611955', 'Example Suite - 2 bedrooms', 'Apartment in 1st Arrondissement'],
      [2, '968734101213290865', 'Example Flat - 1 bedroom', 'Apartment in 6th Arrondissement'],
      [3, '1532589801839552925', 'Example Hotel Lyon', 'Hotel in 3rd Arrondissement'],
    ]);
    expect(page!.next_page_token).toBeNull();
  });

  it('reads the total, the nights line and the breakdown', () => {
    const p = page!.properties[0];
    expect(p.rating).toBe(4.95);
    expect(p.reviews).toBe(74);
    expect(p.link).toBe(`${ORIGIN}/rooms/1344016074576611955`);
    expect(p.booking_link).toBe(`${ORIGIN}/rooms/1344016074576611955?check_in=2026-11-06&check_out=2026-11-11&adults=2`);
    expect(p.price).toEqual({
      total_price: '$2,245',
      extracted_total_price: 2245,
      qualifier: '5 nights',
      extracted_qualifier: 5,
      price_per_qualifier: '$446.94',
      extracted_price_per_qualifier: 446.94,
      breakdown: [
        { description: '5 nights x $446.94', price: '$2,234.69', extracted_price: 2234.69 },
        { description: 'Taxes', price: '$10.01', extracted_price: 10.01 },
      ],
      total_with_taxes: '$2,244.70',
      extracted_total_with_taxes: 2244.7,
    });
    expect(p.gps_coordinates).toEqual({ latitude: 45.7677, longitude: 4.8325 });
    expect(p.badges).toEqual(['Guest favorite']);
    expect(p.has_free_cancellation).toBeUndefined();
  });

  it('reads a long-stay discount and a discounted ordered price line', () => {
    const [, second, third] = page!.properties;
    expect(second.price).toMatchObject({ total_price: '$797', discount: '-$34.70', extracted_discount: 34.7 });
    expect(third.price).toMatchObject({ total_price: '$810', extracted_total_price: 810, qualifier: '5 nights' });
    expect(third.price!.total_with_taxes).toBeUndefined();
    expect(third.price!.breakdown.map((b) => b.description)).toEqual(['5 nights x $147.24', 'Taxes and fees', 'Resort fee']);
  });

  it('keeps a price drop on the nights line as that line, not as a discount; keeps the other stated lines and notes', () => {
    // The second card's structure with its nights line sold after a price drop (see test/fixtures/README.md).
    const sdp = structuredClone(readFixtureJson<any>(LYON).data.presentation.staysSearch.results.searchResults[1].structuredDisplayPrice);
    const [lines, total] = sdp.explanationData.priceDetails;
    lines.items[0] = {
      __typename: 'DiscountedExplanationLineItem',
      description: '5 nights x $158.39',
      priceString: '$791.93',
      originalPriceString: '$880.00',
      explanationData: null,
    };
    lines.items.splice(2, 1); // no tax line: the highlighted line is the price after the discount
    total.items[0] = { ...total.items[0], description: 'Price after discount', priceString: '$757.23' };
    sdp.explanationData.priceDetails.push({ __typename: 'DisplayPriceExplanationDisclaimer', content: 'Price may vary by room type' });
    const price = parseStructuredDisplayPrice(sdp, true)!;
    expect(price.breakdown).toEqual([
      { description: '5 nights x $158.39', price: '$791.93', extracted_price: 791.93, original_price: '$880.00', extracted_original_price: 880 },
      { description: 'Long stay discount', price: '-$34.70', extracted_price: -34.7 },
      { description: 'Price after discount', price: '$757.23', extracted_price: 757.23 },
    ]);
    expect(price).toMatchObject({ discount: '-$34.70', extracted_discount: 34.7, notes: ['Price may vary by room type'] });
    expect(price.total_with_taxes).toBeUndefined();
    // without the long-stay line the discounted nights line is no discount at all
    lines.items.splice(1, 1);
    const dropOnly = parseStructuredDisplayPrice(sdp, true)!;
    expect(dropOnly.discount).toBeUndefined();
    expect(dropOnly.extracted_discount).toBeUndefined();
  });

  it('leaves tax-inclusive totals out unless asked for', () => {
    const plain = parseRentaltwoSearch(readFixtureJson(LYON), { origin: ORIGIN });
    expect(plain.properties[0].price!.total_with_taxes).toBeUndefined();
  });
});

const fragment = fixtureSuite('rentaltwo StaysSearch (nested layout fragment)', FRAGMENT);
describe(fragment.title, () => {
  it('reads 20 per-night cards with distance and pictures', () => {
    const page = parseRentaltwoSearch(readFixtureJson(FRAGMENT), { origin: ORIGIN, offset: 20 });
    expect(page.properties).toHaveLength(20);
    const p = page.properties[0];
    expect(p).toMatchObject({
      position: 21,
      id: '49616489',
      title: 'Beautiful Apartment, 20 floor, Amazing view (2013)',
      description: 'Consolação, Brazil',
      rating: 4.83,
      distance: '6,373 kilometers away',
      extracted_distance: 6373,
      check_in_date: '2024-08-12',
      check_out_date: '2024-08-17',
    });
    expect(p.reviews).toBeUndefined();
    expect(p.price).toEqual({
      total_price: '',
      extracted_total_price: null,
      qualifier: 'night',
      extracted_qualifier: 1,
      price_per_qualifier: '$34',
      extracted_price_per_qualifier: 34,
      breakdown: [],
    });
    expect(p.images).toHaveLength(6);
    expect(page.properties[2]).toMatchObject({ id: '631154213461762756', price: { price_per_qualifier: '$2,517', extracted_price_per_qualifier: 2517 } });
    expect(page.properties.filter((x) => x.badges.includes('Guest favorite'))).toHaveLength(14);
  });

  it('follows page cursors when there are more', () => {
    const p = { searchResults: [], paginationInfo: { pageCursors: ['c1', 'c2', 'c3'] } };
    expect(parseRentaltwoSearch(p, { origin: ORIGIN }).next_page_token).toBe('c2');
    expect(parseRentaltwoSearch(p, { origin: ORIGIN, cursor: 'c2' }).next_page_token).toBe('c3');
    expect(parseRentaltwoSearch(p, { origin: ORIGIN, cursor: 'c3' }).next_page_token).toBeNull();
  });

  it('throws contract-changed without search results', () => {
    expect(() => parseRentaltwoSearch({ data: {} }, { origin: ORIGIN })).toThrow(UpstreamContractChanged);
  });
});

const cal = fixtureSuite('rentaltwo PdpAvailabilityCalendar', CALENDAR);
describe(cal.title, () => {
  it('reads months and day flags with min/max nights', () => {
    const c = parseRentaltwoCalendar(readFixtureJson(CALENDAR));
    expect(c.listing_id).toBe('38817969');
    expect(c.months.map((m) => [m.year, m.month, m.days.length])).toEqual([
      [2026, 9, 3],
      [2026, 10, 3],
    ]);
    expect(c.months[1].days[1]).toEqual({
      date: '2026-10-14',
      is_available: true,
      is_available_for_checkin: true,
      is_available_for_checkout: false,
      is_bookable: true,
      min_nights: 1,
      max_nights: 1125,
    });
    expect(c.months[1].days[2]).toMatchObject({ date: '2026-10-15', is_available: false, is_available_for_checkout: true, min_nights: 2 });
    expect(c.months[0].days.every((d) => !d.is_bookable)).toBe(true);
  });

  it('omits min and max nights when not reported', () => {
    const p = readFixtureJson(CALENDAR);
    delete p.data.merlin.pdpAvailabilityCalendar.calendarMonths[0].days[0].minNights;
    delete p.data.merlin.pdpAvailabilityCalendar.calendarMonths[0].days[0].maxNights;
    const d = parseRentaltwoCalendar(p).months[0].days[0];
    expect('min_nights' in d || 'max_nights' in d).toBe(false);
  });
});

describe('rentaltwo request parts', () => {
  it('builds the calendar path with its variables', () => {
    const path = rentaltwoCalendarPath({ listingId: '38817969', month: 9, year: 2026, count: 12, currency: 'USD' }, 'abc123');
    const u = new URL(path, ORIGIN);
    expect(u.pathname).toBe('/api/v3/PdpAvailabilityCalendar/abc123');
    expect(u.searchParams.get('operationName')).toBe('PdpAvailabilityCalendar');
    expect(JSON.parse(u.searchParams.get('variables')!)).toEqual({ request: { count: 12, listingId: '38817969', month: 9, year: 2026 } });
  });

  it('names the search filters as the site does', () => {
    expect(staysSearchRawParams({ query: 'Lyon', checkIn: '2026-10-01', checkOut: '2026-10-06', adults: 2 })).toEqual([
      { filterName: 'checkin', filterValues: ['2026-10-01'] },
      { filterName: 'checkout', filterValues: ['2026-10-06'] },
      { filterName: 'adults', filterValues: ['2'] },
      { filterName: 'query', filterValues: ['Lyon'] },
      { filterName: 'refinementPaths', filterValues: ['/homes'] },
    ]);
    const body = staysSearchBody(
      {
        boundingBox: [
          [45.8, 4.9],
          [45.7, 4.8],
        ],
        cursor: 'c2',
      },
      'h',
    ) as any;
    expect(body.variables.staysSearchRequest.cursor).toBe('c2');
    expect(body.variables.staysSearchRequest.rawParams.map((p: any) => p.filterName)).toEqual([
      'neLat',
      'neLng',
      'swLat',
      'swLng',
      'searchByMap',
      'refinementPaths',
    ]);
  });
});
