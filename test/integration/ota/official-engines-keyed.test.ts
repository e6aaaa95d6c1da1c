import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, nightsBetween } from '../../../src/domain/dates.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { asOneRoom } from '../../fixtures/ota-payloads.js';
import {
  HOSTAWAY_LISTING_ID,
  HOSTAWAY_TOKEN,
  hostawayCalendar,
  hostawayListing,
  hostawayPriceDetails,
  NEWBOOK_INSTANCE,
  RMS_KEY,
  RMS_LINK_ID,
  RMS_TOKEN,
  rmsAgentRates,
  rmsAuthToken,
  rmsCategories,
  rmsRateGrid,
  NEWBOOK_KEY,
  newbookAvailability,
  WUBOOK_LCODE,
  WUBOOK_TOKEN,
  wiredAnswer,
  wubookParityPrices,
  wubookRoomValues,
  wubookRooms,
} from '../../fixtures/official-keyed-engine-replies.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import type { ReplayRoute } from '../../replay/server.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused). */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite(
  "official rates of the engines priced with the property's own key (Hostaway, Newbook, WuBook, RMS Cloud), alone and beside an OTA",
  OFFERS,
);

const API = `/engines/hostaway/v1/listings/${HOSTAWAY_LISTING_ID}`;
const USD_LISTING = '463608';
const bearer = (q: { headers: Record<string, string | string[] | undefined> }) => q.headers.authorization === `Bearer ${HOSTAWAY_TOKEN}`;

/** `dd/mm/yyyy` → `yyyy-mm-dd`. */
const isoOf = (d: string) => `${d.slice(6, 10)}-${d.slice(3, 5)}-${d.slice(0, 2)}`;

/**
 * WuBook's Wired endpoint: one XML-RPC method per call, behind the property's token; answers built
 * for the asked days (dfrom to dto, both ends). The comparison's stay is priced at half the amounts.
 */
function wiredReply(body: string): string {
  const method = /<methodName>(\w+)<\/methodName>/.exec(body)?.[1];
  const dates = [...body.matchAll(/<string>(\d\d\/\d\d\/\d{4})<\/string>/g)].map((m) => isoOf(m[1]!));
  const days = dates.length === 2 ? nightsBetween(dates[0]!, dates[1]!) + 1 : 0;
  if (method === 'fetch_rooms') return wiredAnswer(wubookRooms());
  if (method === 'fetch_rooms_values') return wiredAnswer(wubookRoomValues(days));
  if (method === 'fetch_plan_prices') return wiredAnswer(wubookParityPrices(days, dates[0] === S('2023-06-04') ? 0.5 : 1));
  return wiredAnswer('Unknown method', -1);
}

/** One listing's three documented endpoints, behind the account's token; `factor` scales its prices. */
function listingRoutes(id: string, currency: string, factor: number): ReplayRoute[] {
  const api = `/engines/hostaway/v1/listings/${id}`;
  return [
    { path: api, match: bearer, body: { ...hostawayListing(currency), result: { ...hostawayListing(currency).result, id: Number(id) } } },
    {
      path: `${api}/calendar`,
      match: bearer,
      // the 2027-04 stay meets a reserved night
      reply: (q) =>
        hostawayCalendar(String(q.query.startDate), String(q.query.endDate), 120 * factor, q.query.startDate === '2027-04-07' ? ['2027-04-08'] : []),
    },
    {
      method: 'POST',
      path: `${api}/calendar/priceDetails`,
      match: bearer,
      reply: (q) => {
        const b = JSON.parse(q.body);
        return hostawayPriceDetails(nightsBetween(b.startingDate, b.endingDate), 120, factor);
      },
    },
  ];
}

describe(suite.title, () => {
  let h: Harness;
  let site: string;
  beforeAll(async () => {
    h = await startHarness(
      [
        // the host's own site embeds the vendor's calendar widget snippet (test/fixtures/README.md)
        {
          path: '/site/hostaway',
          body: `<html><head><title>Achzeit Lakeside</title></head><body><div id="hostaway-calendar-widget"></div>
<script src="https://d2q3n06xhbi0am.cloudfront.net/calendar.js"></script>
<script>window.hostawayCalendarWidget({ baseUrl: 'https://achzeit.holidayfuture.com/', listingId: ${HOSTAWAY_LISTING_ID}, numberOfMonths: 2, openInNewTab: true, rounded: true, button: { action: 'checkout', text: 'Book now' } })</script></body></html>`,
        },
        { path: '/site/hostaway-other', body: `<html><body><a href="https://zen.holidayfuture.com/listings/278625">Book now</a></body></html>` },
        {
          path: '/site/hostaway-booked',
          body: `<html><body><a href="https://achzeit.holidayfuture.com/listings/${HOSTAWAY_LISTING_ID}">Book now</a></body></html>`,
        },
        ...listingRoutes(HOSTAWAY_LISTING_ID, 'EUR', 1),
        // the comparison's listing prices in dollars, its nights at half the other's
        { path: '/site/hostaway-usd', body: `<html><body><a href="https://achzeit.holidayfuture.com/listings/${USD_LISTING}">Book now</a></body></html>` },
        ...listingRoutes(USD_LISTING, 'USD', 0.5),
        {
          path: '/site/newbook',
          body: `<html><body><a class="btn" href="https://bookingsus.newbook.cloud/online/${NEWBOOK_INSTANCE}">Book your stay</a></body></html>`,
        },
        {
          method: 'POST',
          path: '/engines/newbook/rest/bookings_availability_pricing',
          match: (q) => q.headers.authorization === `Basic ${Buffer.from(`${NEWBOOK_KEY.username}:${NEWBOOK_KEY.password}`).toString('base64')}`,
          reply: (q) => {
            const b = JSON.parse(q.body);
            const [from, to] = [b.period_from.slice(0, 10), b.period_to.slice(0, 10)];
            // the comparison's stay in dollars at 0.5 of the amounts (a US park)
            return newbookAvailability(from, nightsBetween(from, to), from === S('2023-06-04') ? 0.5 : 1);
          },
        },
        // the hotel's site embeds the vendor's booking widget snippet (test/fixtures/README.md)
        {
          path: '/site/wubook',
          body: `<html><body><div id="_baror_"></div><script src="https://wubook.net/js/wblib.jgz"></script>
<script>var WuBook = new _WuBook(${WUBOOK_LCODE}); var wbparams = { lang: 'en', layout: '', mobile: 1 }; WuBook.design_iframe("_baror_", wbparams);</script></body></html>`,
        },
        { path: '/site/wubook-other', body: `<html><body><a href="https://wubook.net/wbkd/wbk/?lcode=1484303494">Book now</a></body></html>` },
        {
          method: 'POST',
          path: '/engines/wubook/xrws/',
          match: (q) => q.body.includes(`<string>${WUBOOK_TOKEN}</string>`),
          headers: { 'content-type': 'text/xml' },
          reply: (q) => wiredReply(q.body),
        },
        {
          path: '/site/rms',
          body: `<html><body><a class="btn" target="_blank" href="https://bookings12.rmscloud.com/Search/Index/0C8B2754C6C8240A/1/">Book Now</a></body></html>`,
        },
        // the documented REST API: a token for the property's logins, then calls carrying it
        {
          method: 'POST',
          path: '/engines/rms-cloud/authToken',
          match: (q) => JSON.parse(q.body).clientPassword === RMS_KEY.clientPassword,
          body: rmsAuthToken(),
        },
        { path: `/engines/rms-cloud/agents/${RMS_KEY.onlineAgentId}/rates`, match: (q) => q.headers.authtoken === RMS_TOKEN, body: rmsAgentRates() },
        { path: '/engines/rms-cloud/categories', query: { propertyId: '1' }, match: (q) => q.headers.authtoken === RMS_TOKEN, body: rmsCategories() },
        {
          method: 'POST',
          path: '/engines/rms-cloud/rates/grid',
          match: (q) => q.headers.authtoken === RMS_TOKEN,
          reply: (q) => {
            const b = JSON.parse(q.body);
            // the comparison's stay at 0.4 of the rates
            return rmsRateGrid(b.arrival, nightsBetween(b.arrival, b.departure), b.arrival === S('2023-06-04') ? 0.4 : 1);
          },
        },
        { method: 'POST', path: '/otatwo/graphql', body: asOneRoom(S.json(readFixtureJson(OFFERS))) },
      ],
      {
        OFFICIAL_HOSTAWAY_KEYS: `${HOSTAWAY_LISTING_ID}=${HOSTAWAY_TOKEN},${USD_LISTING}=${HOSTAWAY_TOKEN}`,
        OFFICIAL_NEWBOOK_KEYS: `${NEWBOOK_INSTANCE}=${NEWBOOK_KEY.region}:${NEWBOOK_KEY.username}:${NEWBOOK_KEY.password}:${NEWBOOK_KEY.apiKey}`,
        OFFICIAL_WUBOOK_KEYS: `${WUBOOK_LCODE}=${WUBOOK_TOKEN}`,
        OFFICIAL_RMS_KEYS: `${RMS_LINK_ID.toUpperCase()}=${[RMS_KEY.agentId, RMS_KEY.agentPassword, RMS_KEY.moduleType, RMS_KEY.clientId, RMS_KEY.clientPassword, RMS_KEY.onlineAgentId].join(':')}`,
      },
    );
    site = `${h.replay.url}/site`;
  });
  afterAll(() => h?.close());

  const sent = (prefix: string) => h.replay.requests.filter((q) => q.path.startsWith(prefix));

  it("hostaway: with the account's own token, its documented price details from the calendar widget's listing id: total, taxes and fees stated as inside it", async () => {
    const r = await h.post('/v1/official', { website: `${site}/hostaway`, check_in: '2027-03-10', nights: 2, adults: 2, children: 1 });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'hostaway', hotel_id: HOSTAWAY_LISTING_ID, confidence: 0.8 });
    expect(r.body.offers).toHaveLength(1);
    expect(r.body.offers[0]).toMatchObject({
      room_name: 'Lakeside Loft with Sauna',
      total: 521,
      taxes: 21,
      fees: 260,
      taxes_and_fees_included: true,
      currency: 'EUR',
      nightly: [120, 120],
    });
    expect(r.body).toMatchObject({ sold_out: false, cheapest_total: 521, currency: 'EUR' });
    expect(JSON.parse(sent(`${API}/calendar/priceDetails`).at(-1)!.body)).toEqual({
      startingDate: '2027-03-10',
      endingDate: '2027-03-12',
      numberOfGuests: 3,
      version: 2,
    });
    expect(sent(`${API}/calendar`).at(0)!.query).toMatchObject({ startDate: '2027-03-10', endDate: '2027-03-11' });
  });

  it('hostaway, a reserved night: the listing is listed as sold out, its price not asked; a listing without a token is a free 422 naming the setting', async () => {
    const priced = sent(`${API}/calendar/priceDetails`).length;
    const booked = await h.post('/v1/official', { website: `${site}/hostaway-booked`, check_in: '2027-04-07', nights: 2, adults: 2 });
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ offers: [], listed: 1, sold_out: true, cheapest_total: null });
    expect(sent(`${API}/calendar/priceDetails`)).toHaveLength(priced);
    const other = await h.post('/v1/official', { website: `${site}/hostaway-other`, check_in: '2027-03-10', nights: 2, adults: 2 });
    expect([other.status, other.charged]).toEqual([422, '0']);
    expect(JSON.stringify(other.body)).toContain('OFFICIAL_HOSTAWAY_KEYS');
    const engines = await h.get('/v1/official/engines');
    expect(engines.body.engines.find((e: any) => e.id === 'hostaway')).toMatchObject({ priced: true, needs: null });
  });

  it('hostaway compare: beside the agency, the parity verdict on the official all-in price (stated by the engine, in the currency its listing states)', async () => {
    const r = await h.post('/v1/ota/compare', {
      check_in: S('2023-06-04'),
      nights: 10,
      adults: 2,
      currency: 'USD',
      sources: { official: { website: `${site}/hostaway-usd` }, otatwo: { property_id: '9209612' } },
    });
    expect([r.status, r.charged]).toEqual([200, '20']);
    expect(r.body.sources.map((s: any) => [s.source, s.status])).toEqual([
      ['official', 'ok'],
      ['otatwo', 'ok'],
    ]);
    expect(r.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total: 709.9, currency: 'USD', currency_stated_by: 'source', taxes_included_stated_by: 'source' },
      cheapest_agency: { source: 'otatwo', total: 782.6 },
      undercuts: [],
    });
    expect(r.body.check_out).toBe(addDays(S('2023-06-04'), 10));
  });

  it("newbook: with the property's own key, its availability pricing from the booking page's instance: tariffs per category, sold-out ones listed", async () => {
    const r = await h.post('/v1/official', { website: `${site}/newbook`, check_in: '2027-03-10', nights: 2, adults: 2 });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'newbook', hotel_id: NEWBOOK_INSTANCE, booking_host: 'bookingsus.newbook.cloud', confidence: 1 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.total, o.nightly, o.currency, o.taxes_and_fees_included])).toEqual([
      ['Airstream Suite', 'Best Available Rate', 300, [150, 150], null, null],
      ['Airstream Suite', 'Members Rate', 270, [135, 135], null, null],
    ]);
    expect(r.body).toMatchObject({ listed: 4, sold_out: false, cheapest_total: 270 });
    expect(JSON.parse(sent('/engines/newbook/').at(-1)!.body)).toMatchObject({
      region: 'us',
      period_from: '2027-03-10 14:00:00',
      period_to: '2027-03-12 10:00:00',
      adults: 2,
      children: 0,
    });
  });

  it("wubook: with the property's own token, the WuBook Parity prices of the rooms its widget's booking engine sells, over XML-RPC", async () => {
    const r = await h.post('/v1/official', { website: `${site}/wubook`, check_in: '2027-03-10', nights: 2, adults: 2 });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'wubook', hotel_id: WUBOOK_LCODE, confidence: 0.6 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.total, o.nightly, o.rooms_available, o.currency, o.taxes_and_fees_included])).toEqual([
      ['Double Room', 184.5, [89.5, 95], 2, null, null],
      ['Double Room with Breakfast', 215, [105, 110], 2, null, null],
    ]);
    expect(r.body.offers[0].booking_url).toBe(`https://wubook.net/wbkd/wbk/?lcode=${WUBOOK_LCODE}&dfrom=10/03/2027&nights=2`);
    expect(r.body).toMatchObject({ listed: 3, sold_out: false, cheapest_total: 184.5 });
    const calls = sent('/engines/wubook/').slice(-3);
    expect(calls.map((q) => /<methodName>(\w+)/.exec(q.body)![1])).toEqual(['fetch_rooms', 'fetch_rooms_values', 'fetch_plan_prices']);
    expect(calls[1]!.body).toContain('<string>10/03/2027</string></value></param><param><value><string>11/03/2027</string>');
    const other = await h.post('/v1/official', { website: `${site}/wubook-other`, check_in: '2027-03-10', nights: 2, adults: 2 });
    expect([other.status, other.charged]).toEqual([422, '0']);
    expect(JSON.stringify(other.body)).toContain('OFFICIAL_WUBOOK_KEYS');
    const engines = await h.get('/v1/official/engines');
    expect(engines.body.engines.find((e: any) => e.id === 'wubook')).toMatchObject({ priced: true, needs: null });
  });

  it("rms cloud: with the integrator's and the property's logins, its documented rates grid from the booking link's id: rates per category, closed ones listed", async () => {
    const r = await h.post('/v1/official', { website: `${site}/rms`, check_in: '2027-03-10', nights: 2, adults: 2, children: 1 });
    expect([r.status, r.charged]).toEqual([200, '4']);
    expect(r.body.engine).toMatchObject({ id: 'rms-cloud', hotel_id: '0C8B2754C6C8240A', confidence: 1 });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.total, o.nightly, o.currency, o.taxes_and_fees_included])).toEqual([
      ['Deluxe Queen', 'Best Available Rate', 370, [180, 190], null, null],
    ]);
    expect(r.body).toMatchObject({ listed: 3, sold_out: false, cheapest_total: 370 });
    expect(JSON.parse(sent('/engines/rms-cloud/rates/grid').at(-1)!.body)).toMatchObject({
      arrival: '2027-03-10',
      departure: '2027-03-12',
      adults: 2,
      children: 1,
      agentId: RMS_KEY.onlineAgentId,
      categoryIds: [4, 6],
      rateIds: [1416, 1420],
    });
    const engines = await h.get('/v1/official/engines');
    expect(engines.body.engines.find((e: any) => e.id === 'rms-cloud')).toMatchObject({ priced: true, needs: null });
  });

  // Newbook: the members rate, 10 nights at 67.5; WuBook: the double, 10 nights at half of 89.5/95; RMS: ten nights open the stay-3 rate, at 0.4 of 160
  it.each([
    ['newbook', 675],
    ['wubook', 461.25],
    ['rms', 640],
  ])('%s compare: states neither currency nor tax inclusion, so not comparable until the hotel states them; then the parity verdict', async (page, total) => {
    const compare = (official: Record<string, unknown>) =>
      h.post('/v1/ota/compare', {
        check_in: S('2023-06-04'),
        nights: 10,
        adults: 2,
        currency: 'USD',
        sources: { official, otatwo: { property_id: '9209612' } },
      });
    const bare = await compare({ website: `${site}/${page}` });
    expect(bare.body.parity).toMatchObject({ status: 'not_comparable', reason: expect.stringContaining('does not state its currency') });
    const stated = await compare({ website: `${site}/${page}`, currency: 'USD', taxes_included: true });
    expect(stated.body.parity).toMatchObject({
      status: 'official_cheapest',
      official: { total, currency: 'USD', currency_stated_by: 'caller', taxes_included_stated_by: 'caller' },
      undercuts: [],
    });
    for (const r of [bare, stated]) expect([r.status, r.charged]).toEqual([200, '20']);
  });
});
