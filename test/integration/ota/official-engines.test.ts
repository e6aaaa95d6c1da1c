import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nightsBetween } from '../../../src/domain/dates.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { asOneRoom, hotelSite } from '../../fixtures/ota-payloads.js';
import {
  EZEE_API_KEY,
  EZEE_HOTEL_CODE,
  EZEE_SLUG,
  LITTLE_HOTELIER_SLUG,
  MEWS_CONFIGURATION,
  MEWS_CONFIGURATION_ID,
  PROFITROOM_OFFERS,
  PROFITROOM_ROOMS,
  PROFITROOM_SITE,
  SYNXIS_AVAILABILITY,
  SYNXIS_PAGE,
  SYNXIS_WIDGET_KEY,
  ezeeRoomList,
  littleHotelierRates,
  mewsAvailability,
  profitroomAvailability,
} from '../../fixtures/official-engine-replies.js';
import {
  CHECKFRONT_ACCOUNT,
  checkfrontItems,
  LODGIFY_ACCOUNT,
  LODGIFY_API_KEY,
  LODGIFY_PROPERTY,
  LODGIFY_PROPERTY_ID,
  LODGIFY_UNQUOTED_ROOM,
  lodgifyQuote,
  SMOOBU_APARTMENTS,
  SMOOBU_CUSTOMER_ID,
  SMOOBU_KEY,
  smoobuAvailability,
} from '../../fixtures/official-more-engine-replies.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('official rates of the newly priced engines, alone and beside an OTA', OFFERS);

const MEWS_CLIENT = 'Rates Service Test 1.0';
const PR = `/engines/profitroom/api/${PROFITROOM_SITE}`;
const MEWS_WIDGET = `<html><head><script src="https://api.mews.com/distributor/distributor.min.js"></script></head><body>
<button class="distributor-open">Book now</button>
<script>Mews.Distributor({ configurationIds: ['${MEWS_CONFIGURATION_ID}'], openElements: '.distributor-open' });</script></body></html>`;

describe(suite.title, () => {
  let h: Harness;
  let site: string;
  beforeAll(async () => {
    h = await startHarness(
      [
        { path: '/site/profitroom', body: hotelSite(`https://booking.profitroom.com/en/${PROFITROOM_SITE}/home`) },
        { path: '/site/little-hotelier', body: hotelSite(`https://apac.littlehotelier.com/properties/${LITTLE_HOTELIER_SLUG}?locale=en`) },
        { path: '/site/synxis', body: hotelSite('https://be.synxis.com/?Hotel=10868&amp;Chain=24447&amp;locale=en-US') },
        { path: '/site/mews', body: MEWS_WIDGET },
        { path: '/site/ezee', body: hotelSite(`https://live.ipms247.com/booking/book-rooms-${EZEE_SLUG}`) },
        { path: '/site/ezee-unkeyed', body: hotelSite('https://live.ipms247.com/booking/book-rooms-anotherhotel') },
        {
          path: '/engines/ezee/booking/reservation_api/listing.php',
          reply: (q) => {
            const [checkIn, checkOut] = [q.query.check_in_date!, q.query.check_out_date!];
            if (q.query.APIKey !== EZEE_API_KEY) return { Errors: { ErrorCode: 'APIACCESSDENIED', ErrorMessage: 'Key is incorrect' } };
            // in USD for the comparison's stay (the recorded 2023 one, moved), as the profitroom hotel above
            return checkIn === S('2023-06-04')
              ? ezeeRoomList(checkIn, nightsBetween(checkIn, checkOut), 'USD', 0.05)
              : ezeeRoomList(checkIn, nightsBetween(checkIn, checkOut));
          },
        },
        {
          path: '/site/lodgify',
          body: hotelSite(`https://checkout.lodgify.com/en/${LODGIFY_ACCOUNT}/${LODGIFY_PROPERTY_ID}/reservation?currency=EUR&ref=bnbox`),
        },
        { path: '/site/lodgify-unkeyed', body: hotelSite(`https://checkout.lodgify.com/${LODGIFY_ACCOUNT}/700001/reservation`) },
        {
          path: `/engines/lodgify/v2/properties/${LODGIFY_PROPERTY_ID}`,
          match: (q) => q.headers['x-apikey'] === LODGIFY_API_KEY,
          body: LODGIFY_PROPERTY,
        },
        {
          path: `/engines/lodgify/v2/quote/${LODGIFY_PROPERTY_ID}`,
          query: { 'roomTypes[0].Id': LODGIFY_UNQUOTED_ROOM },
          status: 400,
          body: { message: 'refused' },
        },
        {
          path: `/engines/lodgify/v2/quote/${LODGIFY_PROPERTY_ID}`,
          match: (q) => q.headers['x-apikey'] === LODGIFY_API_KEY,
          reply: (q) => {
            const [checkIn, checkOut] = [q.query.arrival!, q.query.departure!];
            const args = [q.query['roomTypes[0].Id']!, checkIn, checkOut, nightsBetween(checkIn, checkOut), Number(q.query['roomTypes[0].People'])] as const;
            // in USD for the comparison's stay (the recorded 2023 one, moved), as the hotels above
            return checkIn === S('2023-06-04') ? lodgifyQuote(...args, { currency: 'USD', factor: 0.5 }) : lodgifyQuote(...args);
          },
        },
        { path: '/site/checkfront', body: hotelSite(`https://${CHECKFRONT_ACCOUNT}.checkfront.com/reserve/?category_id=2`) },
        {
          path: '/engines/checkfront/api/3.0/item',
          reply: (q) => {
            const [start, end] = [q.query.start_date!, q.query.end_date!].map((d) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`) as [string, string];
            const party = [Number(q.query['param[adults]']), Number(q.query['param[children]'])] as const;
            // in USD for the comparison's stay (the recorded 2023 one, moved), as the hotels above
            return start === S('2023-06-04')
              ? checkfrontItems(start, end, nightsBetween(start, end), ...party, 'USD', 0.5)
              : checkfrontItems(start, end, nightsBetween(start, end), ...party);
          },
        },
        {
          path: '/site/smoobu',
          body: `<html><head><script src="https://login.smoobu.com/js/Settings/BookingToolIframe.js"></script></head><body><div id="apartmentIframeAll"></div>
<script>BookingToolIframe.initialize({ "url": "https://login.smoobu.com/en/booking-tool/iframe/${SMOOBU_CUSTOMER_ID}", "baseUrl": "https://login.smoobu.com", "target": "#apartmentIframeAll" });</script></body></html>`,
        },
        { path: '/engines/smoobu/api/apartments', match: (q) => q.headers['x-api-key'] === SMOOBU_KEY.apiKey, body: SMOOBU_APARTMENTS },
        {
          method: 'POST',
          path: '/engines/smoobu/booking/checkApartmentAvailability',
          match: (q) => q.headers['x-api-key'] === SMOOBU_KEY.apiKey && typeof q.headers['x-signature'] === 'string',
          reply: (q) => {
            const b = JSON.parse(q.body);
            const nights = nightsBetween(b.arrivalDate, b.departureDate);
            // in USD for the comparison's stay (the recorded 2023 one, moved), as the hotels above
            return b.arrivalDate === S('2023-06-04') ? smoobuAvailability(nights, b.guests, 'USD', 0.6) : smoobuAvailability(nights, b.guests);
          },
        },
        { path: '/site/synxis-walled', body: hotelSite('https://be.synxis.com/?Hotel=20001&amp;Chain=24447') },
        // profitroom: the stay echoed, in USD for the comparison's stay (a hotel pricing in dollars)
        {
          path: `${PR}/availability`,
          reply: (q) =>
            q.query.checkIn === S('2023-06-04')
              ? profitroomAvailability(q.query.checkIn!, q.query.checkOut!, 'USD', 0.4)
              : profitroomAvailability(q.query.checkIn!, q.query.checkOut!),
        },
        { path: `${PR}/rooms`, body: PROFITROOM_ROOMS },
        { path: `${PR}/offers`, body: PROFITROOM_OFFERS },
        {
          path: `/engines/little-hotelier/api/v1/properties/${LITTLE_HOTELIER_SLUG}/rates.json`,
          reply: (q) => littleHotelierRates(q.query.start_date!, q.query.end_date!),
        },
        // synxis: the page sets the bot wall's session cookie, which the gateway insists on
        { path: '/engines/synxis/', query: { hotel: '20001' }, body: SYNXIS_PAGE },
        { path: '/engines/synxis/', headers: { 'set-cookie': 'visid_incap_1215874=abc123; Path=/; HttpOnly' }, body: SYNXIS_PAGE },
        {
          method: 'POST',
          path: '/engines/synxis/gw/product/v1/getProductAvailability',
          match: (q) => q.headers.cookie === 'visid_incap_1215874=abc123' && q.headers.authorization === `ApiKey ${SYNXIS_WIDGET_KEY}`,
          body: SYNXIS_AVAILABILITY,
        },
        {
          method: 'POST',
          path: '/engines/synxis/gw/product/v1/getProductAvailability',
          status: 403,
          body: '<html><title>Pardon Our Interruption</title></html>',
        },
        { method: 'POST', path: '/engines/mews/api/distributor/v1/configuration/get', body: MEWS_CONFIGURATION },
        {
          method: 'POST',
          path: '/engines/mews/api/distributor/v1/hotels/getAvailability',
          reply: (q) => {
            const b = JSON.parse(q.body);
            const nights = nightsBetween(b.StartUtc.slice(0, 10), b.EndUtc.slice(0, 10));
            return b.CurrencyCode === 'USD' ? mewsAvailability('USD', 3.2, nights) : mewsAvailability('EUR', 1, nights);
          },
        },
        // parity compares like with like: the recorded reply's key states two rooms, this copy one (test/fixtures/README.md)
        { method: 'POST', path: '/otatwo/graphql', body: asOneRoom(S.json(readFixtureJson(OFFERS))) },
      ],
      {
        OFFICIAL_MEWS_CLIENT: MEWS_CLIENT,
        OFFICIAL_EZEE_KEYS: `${EZEE_SLUG}=${EZEE_HOTEL_CODE}:${EZEE_API_KEY}`,
        OFFICIAL_LODGIFY_KEYS: `${LODGIFY_PROPERTY_ID}=${LODGIFY_API_KEY}`,
        OFFICIAL_SMOOBU_KEYS: `${SMOOBU_CUSTOMER_ID}=${SMOOBU_KEY.apiKey}:${SMOOBU_KEY.apiSecret}`,
      },
    );
    site = `${h.replay.url}/site`;
  });
  afterAll(() => h?.close());

  const stay = { check_in: '2027-03-10', nights: 2, adults: 2 };
  const sent = (prefix: string) => h.replay.requests.filter((q) => q.path.startsWith(prefix));

  it('profitroom: priced from its public API with the currency it states, names, refundability, remarks and a deep link; 4 credits', async () => {
    const r = await h.post('/v1/official', { website: `${site}/profitroom`, ...stay });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'profitroom', hotel_id: PROFITROOM_SITE, booking_host: 'booking.profitroom.com', chain_id: null, confidence: 1 });
    expect(r.body.engine.evidence[0]).toEqual({ kind: 'link', value: `https://booking.profitroom.com/en/${PROFITROOM_SITE}/home` });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.total, o.currency, o.refundable, o.discount_remarks])).toEqual([
      ['Hillside Igloo', 'Best Available Deal', 2480, 'EUR', false, []],
      ['Hillside Igloo', 'Early Booking', 2590, 'EUR', null, ['Early booking -10%']],
      ['Igloo Premium', 'Best Available Deal', 2640, 'EUR', false, []],
    ]);
    expect(r.body).toMatchObject({ available: true, cheapest_total: 2480, currency: 'EUR' });
    expect(r.body.offers[0].provenance).toMatchObject({
      collector: 'official.profitroom',
      returned_currency: 'EUR',
      requested_currency: null,
      price_basis: 'stay_total_as_quoted',
    });
    expect(sent(PR).find((q) => q.path.endsWith('/availability'))!.query).toEqual({
      checkIn: '2027-03-10',
      checkOut: '2027-03-12',
      'occupancy[0][adults]': '2',
      lang: 'en',
    });
    // its request takes no children: a party with children is refused, not priced for fewer guests
    const kids = await h.post('/v1/official', { website: `${site}/profitroom`, ...stay, children: 1 });
    expect([kids.status, kids.charged]).toEqual([422, '0']);
  });

  it('little hotelier: the sum of the nightly rates of its rates feed, asked on the host its settings name', async () => {
    const r = await h.post('/v1/official', { website: `${site}/little-hotelier`, ...stay });
    expect(r.status).toBe(200);
    expect(r.body.engine).toMatchObject({ id: 'little-hotelier', hotel_id: LITTLE_HOTELIER_SLUG, booking_host: 'apac.littlehotelier.com' });
    expect(r.body.offers.map((o: any) => [o.rate_name, o.nightly, o.total, o.rooms_available, o.currency])).toEqual([
      ['Queen Room - Flexible', [180, 195], 375, 2, null],
    ]);
    expect(r.body).toMatchObject({ listed: 3, cheapest_total: 375 });
    expect(sent('/engines/little-hotelier/').at(-1)!.query).toEqual({ start_date: '2027-03-10', end_date: '2027-03-11' });
  });

  it("synxis: the page's widget key and session cookie carried into the gateway's availability request of the same quote only", async () => {
    const r = await h.post('/v1/official', { website: `${site}/synxis`, ...stay, currency: 'USD' });
    expect(r.status).toBe(200);
    expect(r.body.engine).toMatchObject({ id: 'synxis', hotel_id: '10868', chain_id: '24447' });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.total, o.refundable, o.discount_remarks])).toEqual([
      ['King Room', 'Best Flexible Rate', 926.38, null, []],
      ['King Room', 'Pay Now and Save', 836.38, false, []],
      ['King Room', 'AAA Member Rate', 882.38, null, ['AAA Member Rate']],
    ]);
    expect(r.body.offers[1]).toMatchObject({ cancellation_policy: 'Non-refundable: the full stay is charged at booking.', currency: null });
    expect(r.body.offers[0].provenance).toMatchObject({ requested_currency: 'USD', returned_currency: null, price_basis: 'stay_total_with_fees_as_quoted' });
    const [page, gateway] = sent('/engines/synxis/').slice(-2);
    expect(page!.query).toMatchObject({ chain: '24447', hotel: '10868', arrive: '2027-03-10', depart: '2027-03-12', adult: '2', level: 'hotel' });
    expect(page!.headers.cookie).toBeUndefined();
    expect(gateway!.headers.cookie).toBe('visid_incap_1215874=abc123');
    // a second call starts with no cookie: nothing of the first quote's session is kept
    await h.post('/v1/official', { website: `${site}/synxis`, ...stay, check_in: '2027-04-01' });
    expect(sent('/engines/synxis/').at(-2)!.headers.cookie).toBeUndefined();
  });

  it('mews: with a registered client, its documented API from the widget snippet id: gross totals, taxes and currency stated', async () => {
    const r = await h.post('/v1/official', { website: `${site}/mews`, ...stay });
    expect(r.status).toBe(200);
    expect(r.body.engine).toMatchObject({ id: 'mews', hotel_id: MEWS_CONFIGURATION_ID, booking_url: null, confidence: 0.6 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.total, o.taxes, o.currency])).toEqual([
      ['Double Castleroom', 'Flexible', 218, 18, 'EUR'],
      ['Double Castleroom', 'Saver', 196.2, 16.2, 'EUR'],
    ]);
    expect(r.body).toMatchObject({ listed: 3, sold_out: false, cheapest_total: 196.2 });
    expect(JSON.parse(sent('/engines/mews/').at(-1)!.body)).toMatchObject({
      Client: MEWS_CLIENT,
      HotelId: MEWS_CONFIGURATION.Configurations[0]!.Enterprise.Id,
    });
    const engines = await h.get('/v1/official/engines');
    expect(engines.body.priced).toBe(11);
    expect(engines.body.engines.find((e: any) => e.id === 'mews')).toMatchObject({ priced: true, needs: null });
  });

  it("ezee: with the hotel's own key, its documented RoomList: all-in totals, taxes and currency stated; another eZee hotel is a free 422", async () => {
    const r = await h.post('/v1/official', { website: `${site}/ezee`, ...stay });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'ezee', hotel_id: EZEE_SLUG, booking_host: 'live.ipms247.com', confidence: 1 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.total, o.taxes, o.taxes_and_fees_included, o.currency, o.refundable])).toEqual([
      ['Deluxe', 'Deluxe EP', 2730, 130, true, 'INR', null],
      ['Deluxe', 'Deluxe CP Early Bird', 2457, 117, true, 'INR', false],
    ]);
    expect(r.body).toMatchObject({ listed: 3, sold_out: false, cheapest_total: 2457, currency: 'INR' });
    expect(r.body.offers[0].provenance).toMatchObject({ collector: 'official.ezee', returned_currency: 'INR', price_basis: 'stay_total_inclusive_as_quoted' });
    expect(sent('/engines/ezee/').at(-1)!.query).toMatchObject({ HotelCode: EZEE_HOTEL_CODE, number_adults: '2', number_children: '0' });
    const other = await h.post('/v1/official', { website: `${site}/ezee-unkeyed`, ...stay });
    expect([other.status, other.charged]).toEqual([422, '0']);
    expect(other.body.detail).toContain('OFFICIAL_EZEE_KEYS');
  });

  it("lodgify: with the account's own key, its documented quote per room type: all-in totals with taxes, fees, currency and terms; another property is a free 422", async () => {
    const r = await h.post('/v1/official', { website: `${site}/lodgify`, ...stay, children: 1 });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'lodgify', hotel_id: LODGIFY_PROPERTY_ID, booking_host: 'checkout.lodgify.com', confidence: 1 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.total, o.taxes, o.fees, o.taxes_and_fees_included, o.currency, o.discount_remarks])).toEqual([
      ['Garden Studio', 261.8, 10.8, 35, true, 'EUR', ['Early booking 10%']],
      ['Sea View Apartment', 413, 18, 35, true, 'EUR', []],
    ]);
    // the villa the engine refused to quote is listed, not offered
    expect(r.body).toMatchObject({ listed: 3, sold_out: false, cheapest_total: 261.8, currency: 'EUR' });
    expect(r.body.offers[0].booking_url).toBe(
      `https://checkout.lodgify.com/en/${LODGIFY_ACCOUNT}/${LODGIFY_PROPERTY_ID}/reservation?arrival=2027-03-10&departure=2027-03-12&adults=2`,
    );
    expect(r.body.offers[0].provenance).toMatchObject({
      collector: 'official.lodgify',
      returned_currency: 'EUR',
      price_basis: 'stay_total_including_vat_as_quoted',
    });
    expect(sent('/engines/lodgify/v2/quote/').at(-1)!.query).toMatchObject({ arrival: '2027-03-10', departure: '2027-03-12', 'roomTypes[0].People': '3' });
    const other = await h.post('/v1/official', { website: `${site}/lodgify-unkeyed`, ...stay });
    expect([other.status, other.charged]).toEqual([422, '0']);
    expect(other.body.detail).toContain('OFFICIAL_LODGIFY_KEYS');
  });

  it('checkfront: keyless, its documented rated item list on the account host: sub-totals in the account currency for the party and nights asked', async () => {
    const r = await h.post('/v1/official', { website: `${site}/checkfront`, ...stay });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({
      id: 'checkfront',
      hotel_id: CHECKFRONT_ACCOUNT,
      booking_host: `${CHECKFRONT_ACCOUNT}.checkfront.com`,
      confidence: 1,
    });
    expect(r.body.offers.map((o: any) => [o.room_name, o.total, o.currency, o.taxes_and_fees_included, o.rooms_available])).toEqual([
      ['Lakeview Queen Room', 290, 'CAD', null, 3],
      ['Loft Suite', 420, 'CAD', null, 1],
    ]);
    // the sold-out cabin and the daily rental (priced for days, not nights) are listed, not offered
    expect(r.body).toMatchObject({ listed: 4, sold_out: false, cheapest_total: 290, currency: 'CAD' });
    expect(r.body.offers[0].provenance).toMatchObject({
      collector: 'official.checkfront',
      returned_currency: 'CAD',
      price_basis: 'stay_sub_total_before_booking_taxes_as_quoted',
    });
    expect(sent('/engines/checkfront/').at(-1)!.query).toEqual({ start_date: '20270310', end_date: '20270312', 'param[adults]': '2', 'param[children]': '0' });
  });

  it("smoobu: with the account's own key and secret, its documented availability check from the booking-tool embed: stay prices and currency stated, refused units listed", async () => {
    const r = await h.post('/v1/official', { website: `${site}/smoobu`, ...stay });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'smoobu', hotel_id: SMOOBU_CUSTOMER_ID, booking_host: 'login.smoobu.com', confidence: 0.8 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.total, o.currency, o.taxes_and_fees_included])).toEqual([
      ['Apartment Sonnenblick', 220, 'EUR', null],
      ['Studio Seeblick', 170, 'EUR', null],
    ]);
    expect(r.body).toMatchObject({ listed: 3, sold_out: false, cheapest_total: 170, currency: 'EUR' });
    const sentBody = JSON.parse(sent('/engines/smoobu/booking/').at(-1)!.body);
    expect(sentBody).toEqual({ arrivalDate: '2027-03-10', departureDate: '2027-03-12', apartments: [], customerId: Number(SMOOBU_CUSTOMER_ID), guests: 2 });
  });

  // one stay beside the recorded second OTA (782.6 USD all-in for 2023-06-04, 10 nights)
  const compare = (official: Record<string, unknown>) =>
    h.post('/v1/ota/compare', { check_in: S('2023-06-04'), nights: 10, adults: 2, currency: 'USD', sources: { official, otatwo: { property_id: '9209612' } } });

  it('compare: each engine beside the agency, with the parity verdict on its official price', async () => {
    // profitroom states its currency; the hotel states its totals include tax
    const pr = await compare({ website: `${site}/profitroom`, taxes_included: true });
    expect(pr.body.parity).toMatchObject({
      status: 'undercut',
      official: { total: 992, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'caller' },
      undercuts: [{ source: 'otatwo', total: 782.6, amount: 209.4, pct: 21.1 }],
    });
    // mews states currency and gross (tax-inclusive) totals: no word of the hotel needed
    const mews = await compare({ website: `${site}/mews` });
    expect(mews.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total: 627.84, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'source' },
      cheapest_agency: { source: 'otatwo', total: 782.6 },
      undercuts: [],
    });
    // little hotelier and synxis state neither: unstated, not comparable; stated by the hotel, compared
    const lh = await compare({ website: `${site}/little-hotelier` });
    expect(lh.body.parity).toMatchObject({ status: 'not_comparable', reason: expect.stringContaining('does not state its currency') });
    const lhStated = await compare({ website: `${site}/little-hotelier`, currency: 'USD', taxes_included: true });
    expect(lhStated.body.parity).toMatchObject({ status: 'undercut', official: { total: 1500, currency_stated_by: 'caller' }, undercuts: [{ amount: 717.4 }] });
    const sx = await compare({ website: `${site}/synxis`, currency: 'USD', taxes_included: true });
    expect(sx.body.parity).toMatchObject({ status: 'undercut', official: { total: 836.38 }, undercuts: [{ source: 'otatwo', amount: 53.78, pct: 6.4 }] });
    // ezee states its currency and all-in totals (the early-bird rate, 10 nights at 61.43 USD)
    const ez = await compare({ website: `${site}/ezee` });
    expect(ez.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total: 614.3, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'source' },
      undercuts: [],
    });
    // lodgify states its currency and its total including VAT (the studio, 10 nights: 584.5 USD)
    const lg = await compare({ website: `${site}/lodgify` });
    expect(lg.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total: 584.5, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'source' },
      undercuts: [],
    });
    // checkfront states its currency but not whether its sub-total includes taxes: unstated, not comparable; stated by the hotel, compared (10 nights at 72.5 USD)
    const cf = await compare({ website: `${site}/checkfront` });
    expect(cf.body.parity).toMatchObject({ status: 'not_comparable', reason: expect.stringContaining('does not state whether its total includes taxes') });
    const cfStated = await compare({ website: `${site}/checkfront`, taxes_included: true });
    expect(cfStated.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total: 725, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'caller' },
    });
    // smoobu states its currency, not tax inclusion: the hotel says its prices are all-in (the studio, 10 nights at 51 USD)
    const sm = await compare({ website: `${site}/smoobu`, taxes_included: true });
    expect(sm.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total: 510, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'caller' },
    });
    for (const r of [pr, mews, lh, lhStated, sx, ez, lg, cf, cfStated, sm]) {
      expect(r.status).toBe(200);
      expect(r.charged).toBe('20');
      expect(r.body.sources.map((s: any) => [s.source, s.status])).toEqual([
        ['official', 'ok'],
        ['otatwo', 'ok'],
      ]);
    }
    expect(pr.body.sources[0].offer).toMatchObject({
      total: 992,
      currency: 'USD',
      taxes_and_fees_included: null,
      description: 'Profitroom: Hillside Igloo, Best Available Deal',
    });
    expect(pr.body.check_out).toBe(S('2023-06-14'));
  });

  it('synxis behind its bot wall (the gateway refusing a request without the session cookie) is a 502 naming it, free', async () => {
    const r = await h.post('/v1/official', { website: `${site}/synxis-walled`, ...stay });
    expect([r.status, r.body.detail, r.charged]).toEqual([502, 'ImpervaBlock', '0']);
  });
});
