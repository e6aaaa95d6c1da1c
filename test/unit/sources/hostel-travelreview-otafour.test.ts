import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { parseHostelAutocomplete, parseHostelCityProperties } from '../../../src/sources/hostel/search.js';
import { parseHostelAvailability } from '../../../src/sources/hostel/availability.js';
import { parseTravelreviewSearch } from '../../../src/sources/travelreview/search.js';
import { UpstreamContractChanged } from '../../../src/domain/errors.js';
import { parseOtafourSecondaryData } from '../../../src/sources/otafour/secondary-data.js';
import { OTAFOUR_SECONDARY_DATA } from '../../fixtures/ota-payloads.js';

const AUTO = 'hostelworld/autocomplete-amsterdam-2026-06.json';
const CITY = 'hostelworld/city-properties-amsterdam-2026-06.json';
const AVAIL = 'hostelworld/availability-property-93919-2026-06.json';
const TRIVAGO = 'trivago/search-kotor-2026-10-22.json';

const hostel = fixtureSuite('hostel autocomplete, city list and availability', AUTO, CITY, AVAIL);
describe(hostel.title, () => {
  it('reads destinations with their city', () => {
    const places = parseHostelAutocomplete(readFixtureJson(AUTO));
    expect(places).toHaveLength(14);
    expect(places[0]).toEqual({ id: '15', name: 'Amsterdam, Netherlands', type: 'city', city_id: '15', city: null, country: null });
    expect(places.find((p) => p.id === '17927')).toMatchObject({ type: 'property', city: 'San Francisco', city_id: '442' });
  });

  it('reads the city list with lowest prices', () => {
    const page = parseHostelCityProperties(readFixtureJson(CITY));
    expect(page).toMatchObject({ city_id: '15', city: 'Amsterdam', country: 'Netherlands', total_results: 68, pages: 1 });
    expect(page.properties.map((p) => [p.property_id, p.name, p.lowest_price_per_night])).toEqual([
      ['93919', 'ClinkNOORD', 26.04],
      ['13607', "St Christopher's Inn Amsterdam - The Winston", 30.97],
      ['265063', 'Generator Amsterdam', 31.47],
    ]);
    expect(page.properties[0]).toMatchObject({
      rating: 84,
      review_count: 15482,
      currency: 'USD',
      lowest_private_price_per_night: 109.81,
      lowest_average_price_per_night: 50.26,
      lowest_average_original_price_per_night: 52.9,
      free_cancellation: true,
      free_cancellation_until: '2026-06-18T23:59:59+02:00',
      address: 'Badhuiskade 3, 1031 KV Amsterdam',
      distance: { value: 1.44, units: 'km' },
    });
  });

  it('reads dorm and private rooms with per-plan totals and nights', () => {
    const a = parseHostelAvailability(readFixtureJson(AVAIL));
    expect(a).toMatchObject({ property_id: '93919', currency: 'USD', deposit_percentage: 15, lowest_dorm_price_per_night: 26.04 });
    expect(a.rooms.map((r) => [r.room_id, r.kind, r.name])).toEqual([
      ['531215', 'dorm', 'Basic 14 Bed Mixed Dorm'],
      ['411044', 'private', 'Standard Double Bed Private Ensuite'],
    ]);
    const [deposit, nonRefundable] = a.rooms[0].offers;
    expect(deposit).toMatchObject({
      rate_plan_id: '152076',
      payment_procedure: 'depositPayable',
      is_default: true,
      refundable: null,
      total: 187.9,
      average_per_night: 62.63,
    });
    expect(nonRefundable).toMatchObject({ rate_plan_id: '2049031', refundable: false, total: 150.78, original_total: 158.72, promotion_discount: '5.00' });
    expect(nonRefundable.nights).toEqual([
      { date: '2026-06-20', price: 85.64 },
      { date: '2026-06-21', price: 26.04 },
      { date: '2026-06-22', price: 39.1 },
    ]);
    expect(a.rooms[1]).toMatchObject({ beds_available: 16, rooms_available: 8, guests_per_room: 2 });
  });

  it('throws contract-changed without the room lists', () => {
    expect(() => parseHostelAvailability({ id: '1' })).toThrow(UpstreamContractChanged);
  });
});

const trivago = fixtureSuite('travel-review metasearch search', TRIVAGO);
describe(trivago.title, () => {
  it('reads the four accommodations with the cheapest advertiser', () => {
    const list = parseTravelreviewSearch(readFixtureJson(TRIVAGO));
    expect(list.map((r) => [r.name, r.price_per_night, r.advertiser])).toEqual([
      ['Montebay Perla', 56, 'Expedia'],
      ['Hotel Galia', 43, 'Booking.com'],
      ['Old Town Homestel', 44, 'Booking.com'],
      ['Midpoint', 43, 'Booking.com'],
    ]);
    expect(list[0]).toMatchObject({
      accommodation_id: 'c6afb5d8ce3f',
      currency: 'EUR',
      price_per_stay_text: '€56',
      hotel_class: 4,
      review_score: 8.5,
      review_count: 1292,
      check_in: '2026-10-22',
      check_out: '2026-10-23',
    });
    expect(list[0].amenities).toEqual(['Pool', 'A/C', 'Restaurant', 'Hotel bar', 'Gym']);
    expect(list[3].hotel_class).toBeNull();
  });
});

describe('otafour room grid (hand-written payload, see test/fixtures/README.md)', () => {
  it('reads what each row states and leaves the rest null', () => {
    const grid = parseOtafourSecondaryData(OTAFOUR_SECONDARY_DATA, '2454174');
    expect(grid.rooms[0].offers[0]).toMatchObject({ price: 118.4, currency: 'EUR', tax_inclusive: true, discount: '15%', free_cancellation: true });
    expect(grid.rooms[1].offers[0]).toMatchObject({ price: 95.5, tax_inclusive: false, free_cancellation: false });
    const silent = structuredClone(OTAFOUR_SECONDARY_DATA);
    delete (silent.roomGridData.masterRooms[1].rooms[0] as { isFreeCancellation?: boolean }).isFreeCancellation;
    delete (silent.roomGridData as { currencyCode?: string }).currencyCode;
    expect(parseOtafourSecondaryData(silent, '2454174').rooms[1].offers[0]).toMatchObject({ currency: null, free_cancellation: null });
  });
});
