import { describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../../../helpers/fixtures.js';
import { UpstreamContractChanged } from '../../../../../src/domain/errors.js';
import { displayBasis, parsePropertyData } from '../../../../../src/sources/metasearch/hotels/parse-detail.js';
import { cancellation, pricePair } from '../../../../../src/sources/metasearch/hotels/parse-sellers.js';
import { normalizeSeller } from '../../../../../src/sources/metasearch/hotels/offers.js';
import { buildHotelPropertyUrl, encodePropertyQs, pageTokenOffset } from '../../../../../src/sources/metasearch/hotels/requests.js';
import { decodeTs } from '../../../../../src/sources/metasearch/hotels/ts-param.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, searchData } from '../../../../fixtures/hotels-payloads.js';

describe('metasearch hotels: seller slots and request helpers', () => {
  it('reads price pairs with and without exact amounts', () => {
    expect(pricePair(['56 €', null, 55.69595, null, 56])).toEqual({ text: '56 €', amount: 55.69595, exact: true });
    expect(pricePair(['€3,001'])).toEqual({ text: '€3,001', amount: 3001, exact: false });
    expect(pricePair(null)).toBeNull();
  });

  it('reads cancellation tuples written with booleans (RPC) or 0/1 (page)', () => {
    expect(cancellation([true, 'Nov 10', '8:59 AM', '11/10'])).toEqual({ free: true, until: 'Nov 10', time: '8:59 AM' });
    expect(cancellation([1, 'Mar 11', '2:59 PM', '3/11'])).toEqual({ free: true, until: 'Mar 11', time: '2:59 PM' });
    expect(cancellation([false])).toEqual({ free: false, until: null, time: null });
    expect(cancellation(null)).toEqual({ free: null, until: null, time: null });
  });

  it('normalizes seller names', () => {
    expect(normalizeSeller('Expedia.dk')).toBe('expedia');
    expect(normalizeSeller('Booking.com')).toBe('booking');
    expect(normalizeSeller('trivago DEALS')).toBe('trivago_deals');
    expect(normalizeSeller('Hotels.com')).toBe('hotels');
  });

  it('decodes page tokens and builds the property request', () => {
    expect(pageTokenOffset('CBI=')).toBe(18);
    expect(pageTokenOffset('CCQ=')).toBe(36);
    expect(pageTokenOffset('!!')).toBeNull();
    const url = new URL(
      `https://x${buildHotelPropertyUrl(LONDON_TOKENS[0], { checkIn: '2026-04-15', checkOut: '2026-04-22', adults: 2, currency: 'GBP', gl: 'gb', hl: 'en' }).path}`,
    );
    expect(url.searchParams.get('qs')).toBe(encodePropertyQs(LONDON_TOKENS[0]));
    expect(decodeTs(url.searchParams.get('ts')!).search).toMatchObject({ checkIn: '2026-04-15', checkOut: '2026-04-22', currency: 'GBP' });
  });
});

const suite = fixtureSuite('metasearch hotels property answer', PAGES.london, PAGES.tokyo);
describe(suite.title, () => {
  it('parses the property, address, sellers and insights', () => {
    const d = parsePropertyData(crownDetail())!;
    expect(d.property).toMatchObject({ name: 'The Crown, Battersea (PUBLOVE)', property_token: LONDON_TOKENS[0], rating: 4.1, reviews: 1075, hotel_class: 2 });
    expect(d.address).toBe('10 Example Street, London SW11 1AA, United Kingdom');
    expect(d.phone).toBe('+44 20 0000 0000');
    expect(d.amenity_codes).toContainEqual([1, 54]);
    expect(d.display_basis).toBe('all_in');
    expect(d.price_insights).toEqual({ lowest_price: '£29', typical_low: '£25', typical_high: '£45', price_level_code: 2 });
    expect(d.sellers.map((s) => s.name)).toEqual(['Booking.com', 'Agoda', 'The Crown, Battersea (PUBLOVE)', 'Expedia.com', 'Bluepillow.com']);
    const agoda = d.sellers.find((s) => s.name === 'Agoda')!;
    // in both lists: the exact amount of the featured entry, the organic link of the full list
    expect(agoda).toMatchObject({ featured: true, link: '/travel/lodging/clk?pc=agoda', total: { amount: 210.7, exact: true } });
    const booking = d.sellers[0];
    expect(booking.rooms.map((r) => [r.room_name, r.total?.amount, r.cancellation.free])).toEqual([
      ['Double Room', 202.58, true],
      ['Junior Suite', 283.5, false],
    ]);
    expect(d.sellers.find((s) => s.is_official)?.name).toBe('The Crown, Battersea (PUBLOVE)');
  });

  it('returns null for an answer without the property, and 503 without the request echo', () => {
    expect(parsePropertyData(searchData(page(PAGES.london)))).toBeNull();
    expect(() => parsePropertyData([[], []])).toThrow(UpstreamContractChanged);
  });

  it('tells the display basis from the breakdown', () => {
    const rate = parsePropertyData(crownDetail())!.property.rate!;
    expect(displayBasis(rate)).toBe('all_in');
    expect(displayBasis({ ...rate, total: 169 })).toBe('before_taxes');
    expect(displayBasis({ ...rate, total: 300 })).toBeNull();
  });
});
