/**
 * What is billed on the OTA stay routes: an answer that says why the stay does not sell (sold out,
 * minimum stay) costs the route's credits like any answer; a reply with nothing in it is free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { asRental } from '../../fixtures/ota-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('OTA stay routes: sold-out and minimum-stay answers billed, empty replies free', OFFERS);

const forProperty = (id: string) => (r: { body: string }) => r.body.includes(`"propertyId":"${id}"`);
const MIN_STAY = 'This property has a 3-night minimum stay';

/** The recorded grid with every rate plan gone: the rooms are listed, none sells. */
function soldOut(offers: any, message?: string): any {
  const copy = structuredClone(offers);
  const root = copy.data.propertyOffers;
  for (const unit of root.units) unit.ratePlans = [];
  root.soldOut = message ? false : true;
  if (message) root.errorMessage = { title: message };
  return copy;
}

/** The recorded grid's envelope with no room at all and nothing said. */
function emptyGrid(offers: any): any {
  const copy = structuredClone(offers);
  copy.data.propertyOffers.units = [];
  copy.data.propertyOffers.soldOut = false;
  return copy;
}

const OTAONE_MIN_STAY = `<html><body><p>For your check-in date, there's a minimum length of stay of 3 nights.</p><script>b_hotel_id: '4242001', b_rooms_available_and_soldout: [],</script></body></html>`;
const OTAONE_NO_ROOMS = `<html><body><h2>Hotel Example</h2><script>b_hotel_id: '4242002', b_rooms_available_and_soldout: [],</script></body></html>`;

describe(suite.title, () => {
  let h: Harness;
  const stay = { check_in: S('2023-06-04'), nights: 10 };
  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    const rentalMinStay = asRental(offers);
    rentalMinStay.data.propertyOffers.singleUnitOffer.ratePlans = [];
    rentalMinStay.data.propertyOffers.errorMessage = { title: MIN_STAY };
    const rentalEmpty = asRental(offers);
    rentalEmpty.data.propertyOffers.singleUnitOffer.ratePlans = [];
    h = await startHarness([
      { path: '/otaone/hotel/rs/min-stay.en-gb.html', body: OTAONE_MIN_STAY },
      { path: '/otaone/hotel/rs/no-rooms.en-gb.html', body: OTAONE_NO_ROOMS },
      { method: 'POST', path: '/otatwo/graphql', match: forProperty('1001'), body: soldOut(offers) },
      { method: 'POST', path: '/otatwo/graphql', match: forProperty('1002'), body: emptyGrid(offers) },
      { method: 'POST', path: '/otathree/graphql', match: forProperty('2001'), body: [soldOut(offers, MIN_STAY)] },
      { method: 'POST', path: '/otathree/graphql', match: forProperty('2002'), body: [emptyGrid(offers)] },
      { method: 'POST', path: '/rentalone/graphql', match: forProperty('3001'), body: [rentalMinStay] },
      { method: 'POST', path: '/rentalone/graphql', match: forProperty('3002'), body: [rentalEmpty] },
    ]);
  });
  afterAll(() => h?.close());

  it('first OTA: a minimum-stay page is billed with its reason; a page with no room table is free', async () => {
    const min = await h.post('/v1/ota/otaone/rooms', { pagename: 'min-stay', country: 'rs', ...stay, currency: 'EUR' });
    expect([min.status, min.charged]).toEqual([200, '8']);
    expect(min.body).toMatchObject({ sold_out: true, unavailable_reason: "For your check-in date, there's a minimum length of stay of 3 nights", rooms: [] });
    const none = await h.post('/v1/ota/otaone/rooms', { pagename: 'no-rooms', country: 'rs', ...stay, currency: 'EUR' });
    expect([none.status, none.charged]).toEqual([200, '0']);
    expect(none.body).toMatchObject({ sold_out: null, unavailable_reason: null, rooms: [] });
  });

  it('second OTA: a sold-out grid is billed on both routes; a grid with no room is free', async () => {
    const rooms = await h.post('/v1/ota/otatwo/rooms', { property_id: '1001', ...stay });
    expect([rooms.status, rooms.charged]).toEqual([200, '8']);
    expect(rooms.body).toMatchObject({ available: false, sold_out: true, cheapest_rate: null });
    expect(rooms.body.rooms).toHaveLength(5);
    const head = await h.post('/v1/ota/otatwo', { property_id: '1001', ...stay });
    expect([head.status, head.charged]).toEqual([200, '8']);
    expect(head.body).toMatchObject({ sold_out: true, cheapest: null, room_types: 5, rate_plans: 0 });
    for (const path of ['/v1/ota/otatwo/rooms', '/v1/ota/otatwo']) {
      const empty = await h.post(path, { property_id: '1002', ...stay });
      expect([empty.status, empty.charged], path).toEqual([200, '0']);
    }
  });

  it('third OTA: a minimum stay is unavailable with the site’s reason and billed; an empty grid is free', async () => {
    const min = await h.post('/v1/ota/otathree', { property_id: '2001', ...stay });
    expect([min.status, min.charged]).toEqual([200, '8']);
    expect(min.body.property).toMatchObject({ available: false, unavailable_reason: MIN_STAY, total: null });
    const empty = await h.post('/v1/ota/otathree', { property_id: '2002', ...stay });
    expect([empty.status, empty.charged]).toEqual([200, '0']);
    expect(empty.body.rooms).toEqual([]);
  });

  it('vacation rental: a minimum stay is billed with its reason; a quote with nothing in it is free', async () => {
    const min = await h.post('/v1/ota/rentalone', { property_id: '3001', ...stay });
    expect([min.status, min.charged]).toEqual([200, '8']);
    expect(min.body.property).toMatchObject({ available: false, unavailable_reason: MIN_STAY });
    const empty = await h.post('/v1/ota/rentalone', { property_id: '3002', ...stay });
    expect([empty.status, empty.charged]).toEqual([200, '0']);
    expect(empty.body.offers).toEqual([]);
  });
});
