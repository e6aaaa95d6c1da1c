import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECONDARY_DATA_PATH } from '../../../src/sources/otafour/fetch.js';
import { SUGGEST_PATH } from '../../../src/sources/otafour/suggest.js';
import { shiftFrom } from '../../helpers/dates.js';
import { fixtureSuite, readFixture, readFixtureJson } from '../../helpers/fixtures.js';
import { MCP_INIT, OTAFOUR_SECONDARY_DATA, OTAONE_PROPERTY_PAGE, mcpToolEvent } from '../../fixtures/ota-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { OTAFOUR_SUGGEST } from '../../fixtures/otafour-payloads.js';

const CARDS = 'booking/search-results-cards-belgrade-2026-11-14.html';
const HOSTEL = 'hostelworld/availability-property-93919-2026-06.json';
const CITY = 'hostelworld/city-properties-amsterdam-2026-06.json';
const AUTOCOMPLETE = 'hostelworld/autocomplete-amsterdam-2026-06.json';
const TRIVAGO = 'trivago/search-kotor-2026-10-22.json';
/**
 * Every stay of this file moved ahead by the same whole weeks (past dates are refused); the recorded
 * replies that state their stay (hostel, travel review, the otaone page with other dates) are served
 * moved the same way.
 */
const S = shiftFrom('2026-06-15');
const suite = fixtureSuite('single-source routes (otaone, otafour, hostel, travel-review metasearch)', CARDS, HOSTEL, CITY, AUTOCOMPLETE, TRIVAGO);

const rpc = (method: string) => (r: { body: string }) => r.body.includes(`"method":"${method}"`);

describe(suite.title, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness([
      { path: '/otaone/hotel/rs/example-centre.en-gb.html', body: OTAONE_PROPERTY_PAGE },
      { path: '/otaone/hotel/rs/gone.en-gb.html', status: 404, body: 'not found' },
      // the page states the stay it was priced for; these dates are not the asked ones
      {
        path: '/otaone/hotel/rs/other-dates.en-gb.html',
        body: OTAONE_PROPERTY_PAGE.replace(
          "b_hotel_id: '4242001',",
          S.text("b_hotel_id: '4242001', b_checkin_date: '2026-12-02', b_checkout_date: '2026-12-04',"),
        ),
      },
      { path: '/otaone/hotel/rs/captcha.en-gb.html', status: 403, body: '<html><div class="g-recaptcha"></div></html>' },
      { path: '/otaone/searchresults.en-gb.html', body: readFixture(CARDS) },
      { path: SECONDARY_DATA_PATH.replace(/^/, '/otafour'), query: { hotel_id: '2454174' }, body: OTAFOUR_SECONDARY_DATA },
      { path: SECONDARY_DATA_PATH.replace(/^/, '/otafour'), query: { hotel_id: '1' }, body: { hotelInfo: {} } },
      {
        path: SECONDARY_DATA_PATH.replace(/^/, '/otafour'),
        query: { hotel_id: '3' },
        body: {
          ...OTAFOUR_SECONDARY_DATA,
          roomGridData: {
            ...OTAFOUR_SECONDARY_DATA.roomGridData,
            masterRooms: [{ id: 1, name: 'Deluxe Double', rooms: [{ uid: 'r-9', isFit: false, inclusivePrice: { display: 90 } }] }],
          },
        },
      },
      {
        path: SECONDARY_DATA_PATH.replace(/^/, '/otafour'),
        query: { hotel_id: '4' },
        body: { ...OTAFOUR_SECONDARY_DATA, roomGridData: { currencyCode: 'EUR', masterRooms: [] } },
      },
      {
        path: SECONDARY_DATA_PATH.replace(/^/, '/otafour'),
        query: { hotel_id: '5' },
        body: { ...OTAFOUR_SECONDARY_DATA, roomGridData: { masterRooms: OTAFOUR_SECONDARY_DATA.roomGridData.masterRooms } },
      },
      { path: `/otafour${SUGGEST_PATH}`, query: { searchText: 'riverside' }, body: OTAFOUR_SUGGEST },
      { path: `/otafour${SUGGEST_PATH}`, query: { searchText: 'nowhere' }, body: { ViewModelList: [] } },
      { path: `/otafour${SUGGEST_PATH}`, query: { searchText: 'moved' }, body: { Message: 'moved' } },
      { path: '/hostel/legacy-hwapi-service/2.2/properties/93919/availability/', body: S.json(readFixtureJson(HOSTEL)) },
      {
        path: '/hostel/legacy-hwapi-service/2.2/properties/93920/availability/',
        body: {
          ...S.json(readFixtureJson<object>(HOSTEL)),
          id: 93920,
          rooms: { dorms: [], privates: [] },
          stayRuleViolations: [{ type: 'MIN_NIGHTS', value: 3 }],
        },
      },
      {
        path: '/hostel/legacy-hwapi-service/2.2/properties/93921/availability/',
        body: { ...S.json(readFixtureJson<object>(HOSTEL)), id: 93921, rooms: { dorms: [], privates: [] }, stayRuleViolations: [] },
      },
      { path: '/hostel/autocomplete-service/v1/autocomplete/web', body: readFixtureJson(AUTOCOMPLETE) },
      { path: '/hostel/legacy-hwapi-service/2.2/cities/15/properties/', body: readFixtureJson(CITY) },
      { method: 'POST', path: '/travelreview/mcp', match: rpc('initialize'), headers: { 'mcp-session-id': 'sess-1' }, body: MCP_INIT },
      { method: 'POST', path: '/travelreview/mcp', match: rpc('notifications/initialized'), status: 202, body: '' },
      {
        method: 'POST',
        path: '/travelreview/mcp',
        match: rpc('tools/call'),
        headers: { 'content-type': 'text/event-stream' },
        body: mcpToolEvent(S.json(readFixtureJson(TRIVAGO))),
      },
    ]);
  });
  afterAll(() => h?.close());

  it('otaone rooms: block rows with provenance, 8 credits; unknown page 404, captcha 502', async () => {
    const r = await h.post('/v1/ota/otaone/rooms', { pagename: 'example-centre', country: 'rs', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body).toMatchObject({
      hotel_id: '4242001',
      property_name: 'Hotel Example Centre',
      currency: 'EUR',
      check_out: S('2026-12-03'),
      sold_out: false,
      cheapest_rate: 150,
      rendered: false,
    });
    expect(r.body.rooms[0].rate_plans.map((p: any) => [p.block_id, p.price, p.free_cancellation, p.no_prepayment, p.breakfast_included])).toEqual([
      ['424200101_91000001_2_1_0', 172.5, true, true, true],
      ['424200101_91000002_2_0_0', 150, false, false, false],
    ]);
    expect(r.body.rooms[0].rate_plans[0].provenance).toMatchObject({
      source: 'otaone',
      source_property_id: '4242001',
      upstream_rate_id: '424200101_91000001_2_1_0',
      returned_currency: 'EUR',
    });
    expect(h.replay.requests.find((q) => q.path.includes('example-centre'))!.query).toMatchObject({
      checkin: S('2026-12-01'),
      checkout: S('2026-12-03'),
      group_adults: '2',
      selected_currency: 'EUR',
    });
    expect((await h.post('/v1/ota/otaone/rooms', { pagename: 'gone', country: 'rs', check_in: S('2026-12-01') })).status).toBe(404);
    const blocked = await h.post('/v1/ota/otaone/rooms', { pagename: 'captcha', country: 'rs', check_in: S('2026-12-01') });
    expect(blocked.status).toBe(502);
    expect(blocked.body.detail).toBe('CaptchaChallenge');
    const other = await h.post('/v1/ota/otaone/rooms', { pagename: 'other-dates', country: 'rs', check_in: S('2026-12-01'), nights: 2 });
    expect([other.status, other.charged, other.body.detail]).toEqual([
      502,
      '0',
      `StayMismatch: the upstream answered for ${S('2026-12-02')}..${S('2026-12-04')}`,
    ]);
  });

  it('otaone search: recorded cards with page names and priced provenance, 1 credit', async () => {
    const r = await h.post('/v1/ota/otaone/search', { query: 'Belgrade', check_in: S('2026-11-14'), nights: 2, currency: 'EUR' });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('1');
    expect(r.body.results.map((c: any) => [c.name, c.pagename, c.country, c.price])).toEqual([
      ['Rooms for rent "SARA"', 'hostel-sara-beograd1', 'rs', 45],
      ['B&B Stadion', 'best', 'rs', 48],
      ['Airport Nikki Apartments', 'airport-nikki-apartments', 'rs', 50],
      ['BW Hostel', 'bw-hostel', 'rs', 51],
      ['Hostel Fair and Square', 'fair-and-square-beograd2', 'rs', 52],
      ['iDoli Stan', 'idoli-stan', 'rs', 53],
    ]);
    expect(r.body.results[0].provenance).toMatchObject({
      source: 'otaone',
      returned_currency: 'EUR',
      price_basis: 'stay_headline',
      source_property_id: 'rs/hostel-sara-beograd1',
    });
  });

  it('otafour: rows that fit the search, tax basis per row, cheapest headline; contract change 503; nothing fitting billed, no room type free', async () => {
    const r = await h.post('/v1/ota/otafour', { property_id: '2454174', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.property).toMatchObject({
      property_id: '2454174',
      name: 'Example Riverside Hotel',
      price_per_night: 95.5,
      currency: 'EUR',
      currency_display: '€',
      tax_inclusive: false,
      sold_out: false,
    });
    expect(r.body.property.rooms.map((x: any) => [x.name, x.offers.map((o: any) => [o.price, o.tax_inclusive, o.discount, o.free_cancellation])])).toEqual([
      ['Deluxe Double', [[118.4, true, '15%', true]]],
      ['Twin Room', [[95.5, false, null, false]]],
    ]);
    expect(r.body.property.provenance).toMatchObject({
      source: 'otafour',
      price_basis: 'nightly_before_taxes',
      upstream_rate_id: 'r-3',
      returned_currency: 'EUR',
    });
    expect(r.body.meta).toMatchObject({ room_types: 3, offers: 2, comparable_across_markets: true, nights: 2 });
    const sent = h.replay.requests.find((q) => q.path.endsWith('GetSecondaryData'))!;
    expect(sent.query).toMatchObject({ hotel_id: '2454174', checkIn: S('2026-12-01'), los: '2', currencyCode: 'EUR' });
    expect((await h.post('/v1/ota/otafour', { property_id: '1', check_in: S('2026-12-01') })).status).toBe(503);
    const soldOut = await h.post('/v1/ota/otafour', { property_id: '3', check_in: S('2026-12-01'), currency: 'EUR' });
    expect([soldOut.status, soldOut.charged]).toEqual([200, '8']);
    // nothing fits or is priced, and the grid states no sold-out flag: not reported as sold out
    expect(soldOut.body.property).toMatchObject({ sold_out: null, price_per_night: null, currency: null, rooms: [] });
    expect(soldOut.body.meta).toMatchObject({ room_types: 1, offers: 0 });
    const empty = await h.post('/v1/ota/otafour', { property_id: '4', check_in: S('2026-12-01'), currency: 'EUR' });
    expect([empty.status, empty.charged]).toEqual([200, '0']);
    // a grid that states no currency: none is reported (the requested one is in search_parameters)
    const unstated = await h.post('/v1/ota/otafour', { property_id: '5', check_in: S('2026-12-01'), nights: 2, currency: 'EUR' });
    expect(unstated.body.property).toMatchObject({ currency: null, price_per_night: 95.5, sold_out: false });
    expect(unstated.body.property.rooms.flatMap((x: any) => x.offers.map((o: any) => [o.currency, o.currency_code, o.price_text]))).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(unstated.body.property.provenance).toMatchObject({ requested_currency: 'EUR', returned_currency: null });
  });

  it('otafour search: hotel suggestions with their property id, 1 credit; no match free; a changed reply 503', async () => {
    const r = await h.post('/v1/ota/otafour/search', { query: 'riverside', limit: 5 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('1');
    expect(r.body.market).toBe('US');
    expect(r.body.results.map((x: any) => [x.property_id, x.name, x.region_id])).toEqual([
      ['2454174', 'Example Riverside Hotel', '16440'],
      ['88123', 'Riverside Suites Da Nang', '16440'],
    ]);
    const sent = h.replay.requests.find((q) => q.path.endsWith(SUGGEST_PATH) && q.query.searchText === 'riverside')!;
    expect(sent.query).toMatchObject({ origin: 'US', isHotelLandSearch: 'true' });
    const none = await h.post('/v1/ota/otafour/search', { query: 'nowhere' });
    expect([none.status, none.charged, none.body.results]).toEqual([200, '0', []]);
    const moved = await h.post('/v1/ota/otafour/search', { query: 'moved' });
    expect(moved.status).toBe(503);
    expect(moved.charged).toBe('0');
  });

  it('hostel: dorm and private rate plans with per-bed / per-room provenance; destination search', async () => {
    // The recorded reply prices the nights of 2026-06-20..22 (its priceBreakdown dates).
    const r = await h.post('/v1/ota/hostel', { property_id: '93919', check_in: S('2026-06-20'), nights: 3, guests: 1 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.rooms.map((x: any) => [x.room_id, x.kind, x.offers.map((o: any) => [o.rate_plan_id, o.total, o.refundable])])).toEqual([
      [
        '531215',
        'dorm',
        [
          ['152076', 187.9, null],
          ['2049031', 150.78, false],
        ],
      ],
      [
        '411044',
        'private',
        [
          ['152069', 532.57, null],
          ['2049040', 465.45, false],
        ],
      ],
    ]);
    expect(r.body.rooms[0].offers[0].provenance).toMatchObject({ source: 'hostel', price_basis: 'stay_total_per_bed', returned_currency: 'USD' });
    expect(r.body.rooms[1].offers[0].provenance.price_basis).toBe('stay_total_per_room');
    expect(h.replay.requests.find((q) => q.path.includes('/93919/availability'))!.query).toMatchObject({
      'date-start': S('2026-06-20'),
      'num-nights': '3',
      'number-of-guests': '1',
      currency: 'USD',
    });
    // Asked for other dates, the same reply is an upstream mismatch, never priced under the asked stay.
    const other = await h.post('/v1/ota/hostel', { property_id: '93919', check_in: S('2026-06-15'), nights: 3, guests: 1 });
    expect([other.status, other.charged, other.body.detail]).toEqual([
      502,
      '0',
      `StayMismatch: the upstream answered for ${S('2026-06-20')}..${S('2026-06-23')}`,
    ]);
    const minNights = await h.post('/v1/ota/hostel', { property_id: '93920', check_in: S('2026-06-15'), nights: 1 });
    expect([minNights.status, minNights.charged]).toEqual([200, '8']);
    expect(minNights.body).toMatchObject({ rooms: [], stay_rule_violations: [{ type: 'MIN_NIGHTS', value: 3 }] });
    const nothing = await h.post('/v1/ota/hostel', { property_id: '93921', check_in: S('2026-06-15'), nights: 1 });
    expect([nothing.status, nothing.charged]).toEqual([200, '0']);
    const s = await h.post('/v1/ota/hostel/search', { query: 'amsterdam', check_in: S('2026-06-15'), nights: 3 });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ city_id: '15', city: 'Amsterdam', total_results: 68 });
    expect(s.body.properties.map((p: any) => [p.property_id, p.lowest_price_per_night])).toEqual([
      ['93919', 26.04],
      ['13607', 30.97],
      ['265063', 31.47],
    ]);
  });

  it('travel-review metasearch over its MCP server: session kept, event-stream reply parsed, provenance per result', async () => {
    const r = await h.post('/v1/ota/travelreview/search', { query: 'Kotor', check_in: S('2026-10-22'), nights: 1, currency: 'EUR' });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.results.map((x: any) => [x.accommodation_id, x.name, x.price_per_stay, x.advertiser])).toEqual([
      ['c6afb5d8ce3f', 'Montebay Perla', 56, 'Expedia'],
      ['40c08dfc857c', 'Hotel Galia', 43, 'Booking.com'],
      ['be78b135f2ea', 'Old Town Homestel', 44, 'Booking.com'],
      ['06207aa1553c', 'Midpoint', 43, 'Booking.com'],
    ]);
    expect(r.body.results[0].provenance).toMatchObject({ source: 'travelreview', returned_currency: 'EUR', source_property_id: 'c6afb5d8ce3f' });
    const call = h.replay.requests.find((q) => rpc('tools/call')(q))!;
    expect(call.headers['mcp-session-id']).toBe('sess-1');
    expect(JSON.parse(call.body).params).toEqual({
      name: 'trivago-accommodation-search',
      arguments: { query: 'Kotor', checkin: S('2026-10-22'), checkout: S('2026-10-23'), adults: 2, rooms: 1, currency: 'EUR' },
    });
  });

  it('GET /v1/ota/sources lists every source with its routes and gaps, free', async () => {
    const r = await h.get('/v1/ota/sources');
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.body.sources.map((s: any) => [s.source, s]));
    expect(Object.keys(by)).toEqual(['otaone', 'otatwo', 'otathree', 'otafour', 'rentalone', 'rentaltwo', 'travelreview', 'hostel']);
    expect(by.otathree.routes).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/v1/ota/otathree/reviews', credits: 2 },
        { method: 'POST', path: '/v1/ota/otathree/search', credits: 1 },
      ]),
    );
    expect(by.rentaltwo.routes.map((x: any) => x.path)).toEqual(expect.arrayContaining(['/v1/serp/rentaltwo', '/v1/rentaltwo/calendar']));
    expect(by.otatwo.status).toBe('partial');
  });
});
