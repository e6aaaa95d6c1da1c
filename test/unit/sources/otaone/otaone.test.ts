import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture } from '../../../helpers/fixtures.js';
import { parseOtaoneSearchCards } from '../../../../src/sources/otaone/search-cards.js';
import { parseOtaoneHotelPage } from '../../../../src/sources/otaone/hotel-page.js';
import { otaonePropertyPath, parseOtaonePageUrl } from '../../../../src/sources/otaone/page-url.js';
import { UpstreamContractChanged } from '../../../../src/domain/errors.js';

const CARDS = 'booking/search-results-cards-belgrade-2026-11-14.html';

const cards = fixtureSuite('otaone search-results cards (HTML)', CARDS);
describe(cards.title, () => {
  const list = parseOtaoneSearchCards(readFixture(CARDS));

  it('reads the six cards with slug, country and price', () => {
    expect(list).toHaveLength(6);
    expect(list.map((c) => c.pagename)).toEqual([
      'hostel-sara-beograd1',
      'best',
      'airport-nikki-apartments',
      'bw-hostel',
      'fair-and-square-beograd2',
      'idoli-stan',
    ]);
    expect(list.every((c) => c.country === 'rs')).toBe(true);
    expect(list.map((c) => c.price)).toEqual([45, 48, 50, 51, 52, 53]);
    expect(list.every((c) => c.currency === 'EUR' && c.hotel_id === null)).toBe(true);
  });

  it('keeps the first card as displayed', () => {
    const c = list[0];
    expect(c.name).toBe('Rooms for rent "SARA"');
    expect(c.address).toBe('Voždovac, Belgrade');
    expect(c.distance).toBe('6.7 km from centre');
    expect(c.review_score).toBe(9);
    expect(c.review_word).toBe('Superb');
    expect(c.review_count).toBe(252);
    expect(c.stay_text).toBe('2 nights, 2 adults');
    expect(c.price_text).toBe('€ 45');
    expect(c.taxes_text).toBe('+€ 5 taxes and charges');
    expect(c.taxes).toBe(5);
    expect(c.star_rating).toBeNull();
    expect(c.units).toEqual([
      {
        name: 'Twin Room',
        details: ['2 single beds', 'Extended free cancellation', 'No prepayment needed – pay at the property', 'We have 2 left at this price'],
        free_cancellation: true,
        no_prepayment: true,
      },
    ]);
  });

  it('reads stars, review counts with separators and units without policies', () => {
    expect(list[1].star_rating).toBe(3);
    expect(list[1].units[0]).toMatchObject({ name: 'Budget Double Room', free_cancellation: false, no_prepayment: false });
    expect(list[4].review_count).toBe(1521);
    expect(list[3].units.map((u) => u.name)).toEqual(['Bunk Bed in Male Dormitory Room', 'Bed in 8-Bed Mixed Dormitory Room']);
    expect(list[3].units[0].details[0]).toBe('Bed in dormitory 1 bunk bed');
  });
});

describe('otaone property page (synthetic page mirroring the real script keys, see test/fixtures/README.md)', () => {
  const page = `<html><head>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Hotel","name":"Hotel Example Centre"}</script>
<script>
  b_hotel_id: '4242001',
  b_selected_currency: 'EUR',
  b_rooms_available_and_soldout: [{"b_id":424200101,"b_name":"Double Room","b_blocks":[{"b_block_id":"424200101_91000001_2_1_0","b_raw_price":"172.50","b_price":"€ 172.50","b_max_persons":2,"b_mealplan_included_name":"breakfast","b_cancellation_type":"free_cancellation"},{"b_block_id":"424200101_91000002_2_0_0","b_raw_price":"150","b_price":"€ 150","b_max_persons":2,"b_mealplan_included_name":null,"b_cancellation_type":"non_refundable"}]},{"b_id":424200102,"b_name":"Single Room \\"Garden\\"","b_blocks":[{"b_block_id":"424200102_91000001_1_0_0","b_raw_price":"99","b_price":"€ 99","b_max_persons":1,"b_mealplan_included_name":null,"b_cancellation_type":"special_condition"}]}],
  b_photo_pid: 1,
</script></head><body>
<table class="hprt-table">
<tr data-block-id="424200101_91000001_2_1_0" class="js-rt-block-row"><td><span class="hprt-roomtype-icon-link">Double Room</span><div class="hprt-roomtype-bed">1 large double bed</div></td><td>Free cancellation before 12 November. No prepayment needed – pay at the property</td></tr>
<tr data-block-id="424200101_91000002_2_0_0" class="js-rt-block-row"><td>Non-refundable</td></tr>
<tr data-block-id="424200102_91000001_1_0_0" class="js-rt-block-row"><td><span class="hprt-roomtype-icon-link">Single Room</span><div class="hprt-roomtype-bed">1 single bed</div></td></tr>
</table></body></html>`;

  it('reads rooms, blocks and flags', () => {
    const r = parseOtaoneHotelPage(page);
    expect(r.hotel_id).toBe('4242001');
    expect(r.property_name).toBe('Hotel Example Centre');
    expect(r.currency).toBe('EUR');
    expect(r.sold_out).toBe(false);
    expect(r.cheapest_rate).toBe(99);
    expect(r.rooms.map((x) => [x.name, x.room_id, x.beds, x.max_persons, x.cheapest_rate])).toEqual([
      ['Double Room', '424200101', '1 large double bed', 2, 150],
      ['Single Room "Garden"', '424200102', '1 single bed', 1, 99],
    ]);
    expect(r.rooms[0].rate_plans).toEqual([
      {
        block_id: '424200101_91000001_2_1_0',
        price: 172.5,
        currency: 'EUR',
        guests: 2,
        free_cancellation: true,
        no_prepayment: true,
        breakfast_included: true,
      },
      {
        block_id: '424200101_91000002_2_0_0',
        price: 150,
        currency: 'EUR',
        guests: 2,
        free_cancellation: false,
        no_prepayment: false,
        breakfast_included: false,
      },
    ]);
  });

  it("reports the page's own reason when nothing sells", () => {
    const html = `<html><body><p>For your check-in date, there's a minimum length of stay of 3 nights.</p><script>b_hotel_id: '4242001', b_rooms_available_and_soldout: [],</script></body></html>`;
    const r = parseOtaoneHotelPage(html);
    expect(r.sold_out).toBe(true);
    expect(r.rooms).toEqual([]);
    expect(r.unavailable_reason).toBe("For your check-in date, there's a minimum length of stay of 3 nights");
  });

  it('leaves what the page does not state null: room id, currency, row flags, sold out', () => {
    const html = `<html><body><script>
  b_checkin_date: '2026-11-14',
  b_checkout_date: '2026-11-16',
  b_rooms_available_and_soldout: [{"b_name":"Double Room","b_blocks":[{"b_block_id":"424200101_91000001_2_1_0","b_max_persons":2}]},{"b_id":424200102,"b_name":"Suite","b_blocks":[]}],
</script></body></html>`;
    const r = parseOtaoneHotelPage(html);
    expect(r).toMatchObject({
      hotel_id: null,
      currency: null,
      check_in: '2026-11-14',
      check_out: '2026-11-16',
      cheapest_rate: null,
      sold_out: null,
      unavailable_reason: null,
    });
    // the block id starts with a room number, but the page does not say it is this room's id
    expect(r.rooms.map((x) => x.room_id)).toEqual([null, '424200102']);
    expect(r.rooms[0].rate_plans).toEqual([
      { block_id: '424200101_91000001_2_1_0', price: null, currency: null, guests: 2, free_cancellation: null, no_prepayment: null, breakfast_included: null },
    ]);
    const soldOut = html.replace('"b_blocks":[{"b_block_id":"424200101_91000001_2_1_0","b_max_persons":2}]', '"b_blocks":[]');
    expect(parseOtaoneHotelPage(soldOut).sold_out).toBe(true);
  });

  it('throws contract-changed when the room data is gone', () => {
    expect(() => parseOtaoneHotelPage('<html><body><h1>Hotel</h1></body></html>')).toThrow(UpstreamContractChanged);
  });
});

describe('otaone page addresses', () => {
  it('reads country, slug and language from a card link', () => {
    expect(parseOtaonePageUrl('https://host.example/hotel/rs/hostel-sara-beograd1.en-gb.html')).toEqual({
      country: 'rs',
      pagename: 'hostel-sara-beograd1',
      lang: 'en-gb',
    });
    expect(parseOtaonePageUrl('/hotel/us/the-palmer-house.html?x=1')).toEqual({ country: 'us', pagename: 'the-palmer-house', lang: '' });
    expect(parseOtaonePageUrl('/searchresults.html')).toBeNull();
  });

  it("builds the priced property path with the page's own parameter names", () => {
    expect(
      otaonePropertyPath({
        country: 'RS',
        pagename: 'best',
        checkIn: '2026-11-14',
        checkOut: '2026-11-16',
        adults: 2,
        rooms: 1,
        currency: 'EUR',
        lang: 'en-gb',
      }),
    ).toBe('/hotel/rs/best.en-gb.html?checkin=2026-11-14&checkout=2026-11-16&group_adults=2&group_children=0&no_rooms=1&selected_currency=EUR');
  });

  it('throws contract-changed on a page without cards or container', () => {
    expect(() => parseOtaoneSearchCards('<html><body>nothing</body></html>')).toThrow(UpstreamContractChanged);
    expect(parseOtaoneSearchCards('<div data-testid="search-results"></div>')).toEqual([]);
  });
});
