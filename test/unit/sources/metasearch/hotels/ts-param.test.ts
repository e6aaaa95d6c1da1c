import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../../../helpers/fixtures.js';
import {
  AMENITY_FILTER_CODES,
  decodeTs,
  encodeTs,
  type AmenityFilter,
  type TsSearch,
  type TsUiState,
} from '../../../../../src/sources/metasearch/hotels/ts-param.js';
import { buildHotelSearchUrl, encodePropertyQs } from '../../../../../src/sources/metasearch/hotels/requests.js';

const VECTORS = 'google-hotels/ts-param-test-vectors.json';
const PROPERTY_REPLY = 'searchapi/google_hotels_property-four-seasons-buenos-aires-2026-07-21.json';

interface VectorInput {
  display_name: string;
  checkin_date: string;
  checkout_date: string;
  guests: { adults: number; children_with_ages: number[] };
  currency: string;
  location_id: string;
  coordinates: string;
  used_guests_dropdown: boolean;
  sort_by?: 'relevance' | 'lowest_price' | 'highest_rating' | 'most_reviewed';
  min_guest_rating?: 3.5 | 4 | 4.5;
  amenities?: AmenityFilter[];
  hotel_stars?: number[];
  price_min?: number;
  price_max?: number;
}
interface Vector {
  name: string;
  input: VectorInput;
  expected_ts: string;
}

/**
 * Vectors captured from a browser whose session left bits the search inputs do not carry. Each
 * entry was read off the expected bytes; everything else in those vectors comes from the input.
 */
const SESSION_BITS: Record<string, { ui?: TsUiState; search?: Partial<TsSearch> }> = {
  paris01_basic_week: { ui: { guests: 'omitted' } },
  paris06_champs_4plus_rating: { ui: { filtersTouched: true } },
  paris09_champs_multi_filters: { ui: { filtersTouched: true } },
  paris10_vincennes_price_under100: { ui: { filtersTouched: false } },
  paris14_orly_airport: { ui: { filtersTouched: false } },
  // No filter block (the input's currency is not on the wire), no place marker and no feature id.
  denver01_baseline: { ui: { filterBlock: false, placeMarker: false }, search: { place: { id: '/m/02cl1', name: 'Denver' } } },
  // The wire keeps click order (kid-friendly, then air conditioning); the input lists them the other way.
  denver27_combined_filters: { ui: { filtersTouched: true }, search: { amenities: [12, 40] } },
  berlin01_highest_rating: { ui: { filterField10: true, filtersTouched: false } },
  berlin02_most_reviewed: { ui: { filterField10: true } },
  berlin03_lowest_price: { ui: { filterField10: true } },
  berlin04_relevance: { ui: { filterField10: true } },
};

function searchFromInput(i: VectorInput): TsSearch {
  return {
    checkIn: i.checkin_date,
    checkOut: i.checkout_date,
    adults: i.guests.adults,
    childrenAges: i.guests.children_with_ages,
    currency: i.currency,
    place: i.location_id ? { id: i.location_id, coordinates: i.coordinates || undefined, name: i.display_name || undefined } : null,
    sort: i.sort_by ?? null,
    minGuestRating: i.min_guest_rating ?? null,
    hotelClass: i.hotel_stars,
    amenities: (i.amenities ?? []).map((a) => AMENITY_FILTER_CODES[a]),
    minPrice: i.price_min ?? null,
    maxPrice: i.price_max ?? null,
  };
}

const suite = fixtureSuite('metasearch hotels ts parameter vectors', VECTORS);
describe(suite.title, () => {
  const cases = readFixtureJson<{ cases: Vector[] }>(VECTORS).cases;

  it('has the 77 recorded vectors, 11 of which need recorded session bits', () => {
    expect(cases).toHaveLength(77);
    expect(Object.keys(SESSION_BITS).every((n) => cases.some((c) => c.name === n))).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))('encodes %s byte for byte', (name, c) => {
    const bits = SESSION_BITS[name] ?? {};
    const search = { ...searchFromInput(c.input), ...bits.search };
    const ui: TsUiState = { guests: c.input.used_guests_dropdown ? 'explicit' : 'implicit', ...bits.ui };
    expect(encodeTs(search, ui)).toBe(c.expected_ts);
  });

  it.each(cases.map((c) => [c.name, c] as const))('decodes %s back to its inputs and re-encodes it', (_name, c) => {
    const { search, ui } = decodeTs(c.expected_ts);
    expect(encodeTs(search, ui)).toBe(c.expected_ts);
    const i = c.input;
    expect(search.checkIn).toBe(i.checkin_date);
    expect(search.checkOut).toBe(i.checkout_date);
    expect(search.adults).toBe(i.guests.adults);
    expect(search.childrenAges ?? []).toEqual(i.guests.children_with_ages);
    if (ui.filterBlock) expect(search.currency).toBe(i.currency);
    if (i.location_id) expect(search.place?.id).toBe(i.location_id);
    if (i.display_name) expect(search.place?.name).toBe(i.display_name);
    expect(search.minGuestRating ?? undefined).toBe(i.min_guest_rating);
    expect([...(search.hotelClass ?? [])].sort()).toEqual([...(i.hotel_stars ?? [])].sort());
    expect([...(search.amenities ?? [])].sort()).toEqual((i.amenities ?? []).map((a) => AMENITY_FILTER_CODES[a]).sort());
    expect(search.minPrice ?? undefined).toBe(i.price_min);
    expect(search.maxPrice ?? undefined).toBe(i.price_max);
    expect(search.sort ?? 'relevance').toBe(i.sort_by ?? 'relevance');
    if (ui.guests !== 'omitted') expect(ui.guests === 'explicit').toBe(i.used_guests_dropdown);
  });

  it('reads a price ceiling, a place and a guest list by hand', () => {
    const { search, ui } = decodeTs(
      'CAESEgoCCAMKAggDCgIIAwoCCAMQARpeCkASPAoJL20vMDI3NXd5MiQweDQ3ZTY3MmEzOWJlYWM1NGQ6MHg0MGI4MmMzNjg4YjM3NDA6CVZpbmNlbm5lcxoAEhoSFAoHCOoPEAIYChIHCOoPEAIYCxgBMgIIASoPCgU6A0VVUhoAIgQSAhBk',
    );
    expect(search).toMatchObject({
      checkIn: '2026-02-10',
      checkOut: '2026-02-11',
      adults: 4,
      currency: 'EUR',
      maxPrice: 100,
      place: { id: '/m/0275wy', coordinates: '0x47e672a39beac54d:0x40b82c3688b3740', name: 'Vincennes' },
    });
    expect(search.minPrice).toBeUndefined();
    expect(ui).toMatchObject({ guests: 'explicit', filtersTouched: false });
  });
});

describe('metasearch hotels request builders', () => {
  const input = {
    q: 'Paris',
    checkIn: '2026-04-15',
    checkOut: '2026-04-17',
    adults: 2,
    currency: 'EUR',
    gl: 'fr',
    hl: 'en',
    maxPrice: 150,
  };

  it('builds the search path with q, ts, hl and gl', () => {
    const req = buildHotelSearchUrl(input);
    expect(req.method).toBe('GET');
    const url = new URL(`https://example.invalid${req.path}`);
    expect(url.pathname).toBe('/travel/search');
    expect([...url.searchParams.keys()]).toEqual(['q', 'ts', 'hl', 'gl']);
    expect(url.searchParams.get('q')).toBe('Paris');
    const { search, ui } = decodeTs(url.searchParams.get('ts')!);
    expect(search).toMatchObject({ checkIn: '2026-04-15', checkOut: '2026-04-17', adults: 2, currency: 'EUR', maxPrice: 150 });
    expect(ui).toMatchObject({ guests: 'implicit', filtersTouched: true });
  });

  it('writes children after adults and marks the guest choice explicit', () => {
    const ts = new URL(`https://x.invalid${buildHotelSearchUrl({ ...input, children: [7, 3] }).path}`).searchParams.get('ts')!;
    expect(decodeTs(ts)).toMatchObject({ search: { adults: 2, childrenAges: [7, 3] }, ui: { guests: 'explicit' } });
  });

  it('refuses a stay that ends before it starts', () => {
    expect(() => encodeTs({ checkIn: '2026-04-15', checkOut: '2026-04-15', adults: 2 })).toThrow();
  });

  const reply = fixtureSuite('metasearch hotels property qs', PROPERTY_REPLY);
  describe(reply.title, () => {
    it('encodes the qs parameter the compatible API sent for this token', () => {
      const body = readFixtureJson<{ search_metadata: { request_url: string }; search_parameters: { property_token: string } }>(PROPERTY_REPLY);
      const qs = new URL(body.search_metadata.request_url).searchParams.get('qs');
      expect(encodePropertyQs(body.search_parameters.property_token)).toBe(qs);
    });
  });
});
