import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture } from '../../../../helpers/fixtures.js';
import { parseSearchData, parseSearchPage, type SearchPageRecord } from '../../../../../src/sources/metasearch/hotels/parse-search.js';
import { extractAmount } from '../../../../../src/sources/metasearch/hotels/parse-property.js';
import { decodePropertyToken } from '../../../../../src/sources/metasearch/hotels/requests.js';
import { UpstreamContractChanged, UpstreamFailed } from '../../../../../src/domain/errors.js';

const page = (name: string) => `google-hotels/travel-search-${name}.html`;
const cache = new Map<string, SearchPageRecord>();
const parsed = (name: string): SearchPageRecord => {
  if (!cache.has(name)) cache.set(name, parseSearchPage(readFixture(page(name))));
  return cache.get(name)!;
};

const london = fixtureSuite('metasearch hotels search page: london long stay', page('london-long-stay'));
describe(london.title, () => {
  it('reads the request echo, paging cursor and counts', () => {
    const p = parsed('london-long-stay');
    expect(p).toMatchObject({
      query: 'London',
      place_id: '/m/04jpl',
      place_name: 'London',
      currency: 'GBP',
      check_in: '2026-04-15',
      check_out: '2026-04-22',
      nights: 7,
      total_results: 1022,
      pagination: { records_from: 1, records_to: 18, next_page_token: 'CBI=' },
    });
    expect(p.properties).toHaveLength(18);
    expect(p.ads).toHaveLength(0);
  });

  it('reads the first property', () => {
    const first = parsed('london-long-stay').properties[0];
    expect(first).toMatchObject({
      position: 0,
      kind: 'hotel',
      name: 'The Crown, Battersea (PUBLOVE)',
      property_token: 'ChcI3Yb4rvW_yrBkGgsvZy8xdGR6cW0yNxAB',
      rating: 4.1,
      reviews: 1075,
      hotel_class_text: '2-star hotel',
      hotel_class: 2,
      city: 'London',
    });
    expect(first.rate).toMatchObject({
      currency: 'GBP',
      nightly_text: '£29',
      nightly: 29,
      total_text: '£203',
      total: 203,
      total_exact: 202.58,
      nights: 7,
    });
  });

  it('builds the brand tree with names', () => {
    const brands = parsed('london-long-stay').brands;
    expect(brands).toHaveLength(23);
    expect(brands[0]).toMatchObject({ id: 33, title: 'Accor Live Limitless' });
    expect(brands[0].children).toContainEqual({ id: 21, title: 'Ibis' });
    expect(brands.find((b) => b.id === 289)).toEqual({ id: 289, title: 'Four Seasons' });
  });
});

const paris = fixtureSuite('metasearch hotels search page: paris budget', page('paris-budget'));
describe(paris.title, () => {
  it('reads 18 properties in EUR and a property without hotel class', () => {
    const p = parsed('paris-budget');
    expect(p.properties).toHaveLength(18);
    expect(p.total_results).toBe(320);
    const first = p.properties[0];
    expect(first).toMatchObject({
      name: 'Au Royal Mad',
      property_token: 'ChgIi9f9tKThzLagARoLL2cvMXRneGhjYjYQAQ',
      rating: 3.1,
      reviews: 704,
      hotel_class: null,
      hotel_class_text: null,
    });
    expect(first.rate).toMatchObject({ nightly_text: '€52', nightly: 52, total_text: '€103', total: 103 });
    expect(first.rate?.before_taxes_total).toBeCloseTo(70.87, 2);
    expect(first.rate?.taxes).toBeCloseTo(32.22, 2);
  });
});

const tokyo5 = fixtureSuite('metasearch hotels search page: tokyo 5 star', page('tokyo-5star'));
describe(tokyo5.title, () => {
  it('gives a null rate to properties the page shows without a price', () => {
    const p = parsed('tokyo-5star');
    expect(p.properties).toHaveLength(18);
    const first = p.properties[0];
    expect(first).toMatchObject({
      name: 'FLOWER TERRACE 東新宿 FLOWER TERRACE HIGASHI SHINJUKU',
      property_token: 'ChoI-_ijmcimmf_HARoNL2cvMTF0azM4ZnFydhAB',
      rating: 4.9,
      reviews: 160,
      hotel_class: 5,
      rate: null,
    });
    expect(p.properties.filter((x) => x.rate === null).map((x) => x.name)).toEqual([
      'FLOWER TERRACE 東新宿 FLOWER TERRACE HIGASHI SHINJUKU',
      'Tokyo DisneySea Hotel MiraCosta',
    ]);
    expect(p.properties[1].rate).toMatchObject({ nightly_text: 'US$414', nightly: 414, total_text: 'US$828', total: 828 });
  });

  it('flags the six eco-certified hotels the cards badge', () => {
    const eco = parsed('tokyo-5star')
      .properties.filter((x) => x.eco_certified)
      .map((x) => x.name);
    expect(eco).toEqual([
      'Oakwood Premier Tokyo',
      'Imperial Hotel Tokyo',
      'Palace Hotel Tokyo',
      'Mandarin Oriental, Tokyo',
      'Conrad Tokyo',
      'The Tokyo Station Hotel',
    ]);
  });
});

const tokyo = fixtureSuite('metasearch hotels search page: tokyo standard', page('tokyo-standard'));
describe(tokyo.title, () => {
  it('reads 20 properties, 9 sponsored entries and the first property', () => {
    const p = parsed('tokyo-standard');
    expect(p.properties).toHaveLength(20);
    expect(p.pagination).toEqual({ records_from: 1, records_to: 20, next_page_token: 'CBI=' });
    expect(p.properties[0]).toMatchObject({
      name: 'Koko Hotel Tsukiji Ginza',
      property_token: 'ChkIq_atzbv20-8ZGg0vZy8xMXFoMzRoa3pfEAE',
      rating: 3.9,
      reviews: 625,
      hotel_class: 4,
      location_rating: 4.6, // the card prints "4.6 Excellent location"
    });
    expect(p.properties[0].rate).toMatchObject({ nightly_text: 'US$112', nightly: 112, total: 224 });
    expect(p.ads).toHaveLength(9);
    expect(p.ads[0]).toMatchObject({
      sponsored: true,
      name: 'Hotel Oriental Express Tokyo Kamata',
      property_token: 'CgsI3dbAyYqxpZD-ARAB',
      price_text: '$59',
      total_text: '$118',
      source: 'Booking.com',
      rating: 4.2,
      reviews: 886,
      check_in: '2026-03-15',
      nights: 2,
    });
  });

  it('reads every field of one hotel', () => {
    const a = parsed('tokyo-standard').properties.find((x) => x.name === 'Almont Hotel Nippori')!;
    expect(a).toMatchObject({
      position: 17,
      data_id: '0x60188f166be943a1:0x6e638830c48548de',
      link: 'https://www.almont.jp/nippori/',
      description: 'Laid-back rooms in an understated hotel with a communal bath & a breakfast buffet.',
      gps_coordinates: { latitude: 35.728389799999995, longitude: 139.7738494 },
      country: 'JP',
      check_in_time: '3:00\u202fPM', // the page's narrow no-break space, kept as served
      check_out_time: '11:00\u202fAM',
      reviews_histogram: { '5': 544, '4': 172, '3': 37, '2': 12, '1': 16 },
      location_rating: 3.3,
      eco_certified: false,
    });
    expect(a.rate).toMatchObject({ before_taxes_total: 229.41132, taxes: 25.459307, fees: 0, total_exact: 254.87062 });
    expect(a.amenities).toEqual([
      { code: 261, name: 'Public bath', available: true },
      { code: 29, name: 'Free Wi-Fi', available: true },
      { code: 15, name: null, available: false }, // named on one recorded page only: not named
      { code: 23, name: 'Restaurant', available: true },
      { code: 27, name: 'Accessible', available: true },
    ]);
    expect(a.review_topics[0]).toEqual({ name: 'Breakfast', description: 'Breakfast', total: 91, positive: 82, negative: 5 });
    // the mode is a bare code the page never labels: kept as a code, given no name
    expect(a.nearby_places.map((n) => [n.name, n.transportations.map((t) => `${t.mode_code} ${t.duration}`)])).toEqual([
      ['Ueno Park', ['0 10 min']],
      ['Haneda Airport', ['0 32 min']],
      ['Billy the Kid Nippori', ['2 2 min']],
    ]);
    expect(a.images).toHaveLength(9);
    expect(a.thumbnail).toMatch(/^https:\/\/lh3\.googleusercontent\.com\/p\//);
    // The token carries the map feature's cid: the second half of data_id.
    const token = decodePropertyToken(a.property_token!)!;
    expect(token).toEqual({ kind: 'hotel', id: '7954351109903304926', entity_id: '/g/11flrjztm5' });
    expect('0x' + BigInt(token.id).toString(16)).toBe(a.data_id!.split(':')[1]);
  });

  it('reads the two vacation rentals with their own amenity labels and seller', () => {
    const vr = parsed('tokyo-standard').properties.filter((x) => x.kind === 'vacation_rental');
    expect(vr.map((x) => x.name)).toEqual(['島の宿 近 別邸〜縁〜', 'Guesthouse toco']);
    const toco = vr[1];
    expect(toco).toMatchObject({ data_id: null, source_id: '1922782017025138957', rating: 4.55, reviews: 335 });
    expect(toco.essential_info).toEqual(['Entire house', 'Sleeps 6', '3 bedrooms', '5 bathrooms']);
    expect(toco.amenities.slice(0, 3)).toEqual([
      { code: null, name: 'Smoke-free', available: true },
      { code: null, name: 'Free Wi-Fi', available: true },
      { code: null, name: 'No air conditioning', available: false },
    ]);
    expect(toco.rate?.sellers[0]).toMatchObject({ name: 'Vio.com', price_text: 'US$228' });
    expect(decodePropertyToken(toco.property_token!)).toEqual({
      kind: 'vacation_rental',
      id: '1922782017025138957',
      entity_id: '/g/11kj5p165q',
    });
  });
});

describe('metasearch hotels search parser edge cases', () => {
  it('reports a missing result list as a contract change', () => {
    expect(() => parseSearchData([[]])).toThrow(UpstreamContractChanged);
    expect(() => parseSearchPage('<html><body>nothing here</body></html>')).toThrow(UpstreamContractChanged);
  });

  it('reports a consent wall as an upstream failure', () => {
    expect(() => parseSearchPage('<form action="https://consent.google.com/save">')).toThrow(UpstreamFailed);
  });

  it('reads displayed amounts in several notations', () => {
    expect(extractAmount('US$1,565')).toBe(1565);
    expect(extractAmount('€52')).toBe(52);
    expect(extractAmount('1.234,50 €')).toBe(1234.5);
    expect(extractAmount('12,5 €')).toBe(12.5);
    expect(extractAmount('¥1,234,567')).toBe(1234567);
    expect(extractAmount('no price')).toBeNull();
    expect(extractAmount(null)).toBeNull();
  });
});
