import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import {
  BEDS24_AVAILABILITY,
  HOTEL_SITE_BEDS24,
  HOTEL_SITE_CLOUDBEDS,
  HOTEL_SITE_NO_ENGINE,
  HOTEL_SITE_OTHER_ENGINE,
  HOTEL_SITE_SITEMINDER,
  asRental,
  hotelSite,
} from '../../fixtures/ota-payloads.js';
import {
  CLOUDBEDS_PROPERTY_INFO,
  CLOUDBEDS_ROOMS,
  SITEMINDER_QUOTES,
  SITEMINDER_ROOM_TYPES,
  cloudbedsReply,
  siteminderReply,
} from '../../fixtures/official-engine-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('official site rate and the OTA comparison', OFFERS);

describe(suite.title, () => {
  let h: Harness;
  let site: string;
  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    const cheaperRental = asRental(offers);
    cheaperRental.data.propertyOffers.singleUnitOffer.ratePlans[0].priceDetails[0].price.total.amount = 700.5;
    h = await startHarness([
      { path: '/site/inn', body: HOTEL_SITE_BEDS24 },
      { path: '/site/other', body: HOTEL_SITE_OTHER_ENGINE },
      { path: '/site/cloud', body: HOTEL_SITE_CLOUDBEDS },
      { path: '/site/cloud-full', body: hotelSite('https://hotels.cloudbeds.com/reservation/FuLlUp') },
      { path: '/site/cloud-empty', body: hotelSite('https://hotels.cloudbeds.com/reservation/NoRooms') },
      { path: '/site/cloud-gone', body: hotelSite('https://hotels.cloudbeds.com/en/reservation/NoSuch') },
      { path: '/site/sm', body: HOTEL_SITE_SITEMINDER },
      { path: '/site/sm-full', body: hotelSite('https://direct-book.com/properties/fullhousedirect') },
      { path: '/site/sm-empty', body: hotelSite('https://direct-book.com/properties/noroomsdirect') },
      { path: '/site/sm-gone', body: hotelSite('https://direct-book.com/properties/nosuchdirect?locale=en') },
      { path: '/site/none', body: HOTEL_SITE_NO_ENGINE },
      { path: '/site/mews', body: hotelSite('https://app.mews.com/distributor/942d3e9f-2347-4bc6-a69f-ab8a00d6b06b') },
      { path: '/site/blocked', status: 403, body: '<html><head><title>Just a moment...</title></head></html>' },
      // the engine echoes the dates it was asked for beside the rooms
      {
        method: 'POST',
        path: '/engines/beds24/json/getAvailabilities',
        reply: (req) => {
          const { checkIn, checkOut } = JSON.parse(req.body);
          return { ...BEDS24_AVAILABILITY, checkIn, checkOut, lastNight: undefined };
        },
      },
      { method: 'POST', path: '/engines/cloudbeds/booking/property_info', reply: (q) => cloudbedsReply(q.path, q.body) },
      { method: 'POST', path: '/engines/cloudbeds/booking/rooms', reply: (q) => cloudbedsReply(q.path, q.body) },
      { method: 'POST', path: '/engines/siteminder/api/graphql', reply: (q) => siteminderReply(q.body) },
      { method: 'POST', path: '/otathree/graphql', body: [offers] },
      { method: 'POST', path: '/otatwo/graphql', body: offers },
      { method: 'POST', path: '/rentalone/graphql', body: [cheaperRental] },
      {
        path: '/otafour/api/cronos/property/BelowFoldParams/GetSecondaryData',
        query: { hotel_id: '7777' },
        delayMs: 3_000,
        body: { hotelInfo: {}, roomGridData: { masterRooms: [] } },
      },
      { path: '/otafour/api/cronos/property/BelowFoldParams/GetSecondaryData', status: 500, body: 'down' },
    ]);
    site = `${h.replay.url}/site`;
  });
  afterAll(() => h?.close());

  it('official: engine detected from the website, stay quoted from its public endpoint, 4 credits', async () => {
    const r = await h.post('/v1/official', { website: `${site}/inn`, check_in: '2027-03-10', nights: 2, adults: 2 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('4');
    expect(r.body.engine).toMatchObject({ id: 'beds24', hotel_id: '123456', booking_url: 'https://beds24.com/booking2.php?propid=123456&referer=site' });
    expect(r.body.offers.map((o: any) => [o.room_id, o.rooms_available, o.total, o.currency])).toEqual([
      ['500101', 2, 240, null],
      ['500103', 1, 199.5, null],
    ]);
    expect(r.body).toMatchObject({ available: true, cheapest_total: 199.5, check_out: '2027-03-12', nights: 2 });
    expect(r.body.offers[1].provenance).toMatchObject({
      source: 'official',
      source_kind: 'official',
      source_property_id: '123456',
      upstream_rate_id: '500103',
      returned_currency: null,
      derivation: 'upstream',
    });
    const sent = h.replay.requests.find((q) => q.path.endsWith('getAvailabilities'))!;
    expect(JSON.parse(sent.body)).toEqual({ checkIn: '20270310', checkOut: '20270312', propId: '123456', numAdult: '2', numChild: '0' });
    expect(r.body.offers[0]).toMatchObject({ room_name: null, rate_name: null, nightly: null, taxes: null });
  });

  it('official cloudbeds: property id from the booking code, total = sum of one rate per night, currency requested not returned', async () => {
    const r = await h.post('/v1/official', { website: `${site}/cloud`, check_in: '2027-03-10', nights: 2, adults: 2, currency: 'EUR' });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('4');
    expect(r.body.engine).toMatchObject({ id: 'cloudbeds', hotel_id: 'AbCdEf', booking_url: 'https://hotels.cloudbeds.com/reservation/AbCdEf' });
    expect(r.body.offers.map((o: any) => [o.room_id, o.room_name, o.rooms_available, o.total, o.nightly, o.currency])).toEqual([
      ['301', 'Double Room', 3, 230.5, [110, 120.5], null],
      ['302', 'Family Suite', 1, null, null, null],
    ]);
    expect(r.body).toMatchObject({ available: true, cheapest_total: 230.5, currency: null, check_out: '2027-03-12' });
    expect(r.body.offers[0].provenance).toMatchObject({
      collector: 'official.cloudbeds',
      source_property_id: 'AbCdEf',
      upstream_rate_id: '551718',
      requested_currency: 'EUR',
      returned_currency: null,
      price_basis: 'stay_total_sum_of_nightly',
      derivation: 'sum_of_upstream_nightly_rates',
    });
    const sent = h.replay.requests.filter((q) => q.path.startsWith('/engines/cloudbeds/')).map((q) => [q.path, q.body, q.headers['content-type']]);
    expect(sent).toEqual([
      [
        '/engines/cloudbeds/booking/property_info',
        'booking_engine_source=hosted&iframe=false&lang=en&property_code=AbCdEf',
        'application/x-www-form-urlencoded',
      ],
      [
        '/engines/cloudbeds/booking/rooms',
        'checkin=2027-03-10&checkout=2027-03-12&currency_code=EUR&lang=en&widget_property=201001',
        'application/x-www-form-urlencoded',
      ],
    ]);
    expect(r.body.wire_bytes).toBe(HOTEL_SITE_CLOUDBEDS.length + JSON.stringify(CLOUDBEDS_PROPERTY_INFO).length + JSON.stringify(CLOUDBEDS_ROOMS).length);
  });

  it('official siteminder: every rate quoted, bookable quotes priced at their gross with tax, rooms left unknown', async () => {
    const before = h.replay.requests.length;
    const r = await h.post('/v1/official', { website: `${site}/sm`, check_in: '2027-03-10', check_out: '2027-03-12', adults: 2 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('4');
    expect(r.body.engine).toMatchObject({ id: 'siteminder', hotel_id: 'exampleinndirect' });
    expect(r.body.offers.map((o: any) => [o.room_name, o.rate_name, o.rooms_available, o.total, o.taxes, o.nightly, o.currency])).toEqual([
      ['Queen Room', 'Best Available Rate', null, 412.5, 37.5, null, null],
      ['Queen Room', 'Stay Longer and Save', null, 380, 34.55, null, null],
    ]);
    expect(r.body).toMatchObject({ available: true, cheapest_total: 380, nights: 2 });
    expect(r.body.offers[1].provenance).toMatchObject({
      collector: 'official.siteminder',
      source_property_id: 'exampleinndirect',
      upstream_rate_id: '880002',
      requested_currency: null,
      returned_currency: null,
      price_basis: 'stay_total_gross_as_quoted',
      derivation: 'upstream',
    });
    const calls = h.replay.requests.slice(before).filter((q) => q.path === '/engines/siteminder/api/graphql');
    expect(calls.map((q) => JSON.parse(q.body).variables.channelCode ?? JSON.parse(q.body).variables.roomRateId).sort()).toEqual(
      [880001, 880002, 880003, 'exampleinndirect'].sort(),
    );
    expect(calls[0].headers.origin).toBe('https://direct-book.com');
    const replies = [SITEMINDER_ROOM_TYPES, SITEMINDER_QUOTES[880001], SITEMINDER_QUOTES[880002], SITEMINDER_QUOTES[880003]];
    expect(r.body.wire_bytes).toBe(HOTEL_SITE_SITEMINDER.length + replies.reduce((n, x) => n + JSON.stringify(x).length, 0));
  });

  it('official cloudbeds and siteminder: sold out is 200, sold_out and billed; no room listed is free; an unknown property is 404, free', async () => {
    for (const path of ['cloud-full', 'sm-full']) {
      const r = await h.post('/v1/official', { website: `${site}/${path}`, check_in: '2027-03-10', nights: 2 });
      expect(r.status, path).toBe(200);
      expect(r.body, path).toMatchObject({ available: false, sold_out: true, listed: 1, offers: [], cheapest_total: null });
      expect(r.charged, path).toBe('4');
    }
    for (const path of ['cloud-empty', 'sm-empty']) {
      const r = await h.post('/v1/official', { website: `${site}/${path}`, check_in: '2027-03-10', nights: 2 });
      expect(r.status, path).toBe(200);
      expect(r.body, path).toMatchObject({ available: false, sold_out: false, listed: 0, offers: [] });
      expect(r.charged, path).toBe('0');
    }
    const cloud = await h.post('/v1/official', { website: `${site}/cloud-gone`, check_in: '2027-03-10', nights: 2 });
    expect([cloud.status, cloud.body.detail, cloud.charged]).toEqual([404, 'cloudbeds property NoSuch not found', '0']);
    const sm = await h.post('/v1/official', { website: `${site}/sm-gone`, check_in: '2027-03-10', nights: 2 });
    expect([sm.status, sm.body.detail, sm.charged]).toEqual([404, 'siteminder property nosuchdirect not found', '0']);
  });

  it('official: unsupported engine and no engine are 422 with a string; missing site 404; blocked site 502; all free', async () => {
    const other = await h.post('/v1/official', { website: `${site}/other`, check_in: '2027-03-10' });
    expect(other.status).toBe(422);
    expect(other.body.detail).toBe(
      'booking engine D-Edge (Availpro) (d-edge) is not supported for pricing; supported: beds24, cloudbeds, siteminder, little-hotelier, profitroom, synxis, mews, ezee, lodgify, checkfront, smoobu, hostaway, newbook, wubook, rms-cloud',
    );
    // Mews is quoted only with a client name registered with Mews, which this service is not given here
    const mews = await h.post('/v1/official', { website: `${site}/mews`, check_in: '2027-03-10' });
    expect([mews.status, mews.charged]).toEqual([422, '0']);
    expect(mews.body.detail).toBe(
      'booking engine Mews (mews) is not priced here: its Booking Engine API needs a client name registered with Mews; set OFFICIAL_MEWS_CLIENT to price Mews hotels',
    );
    const none = await h.post('/v1/official', { website: `${site}/none`, check_in: '2027-03-10' });
    expect(none.status).toBe(422);
    expect(none.body.detail).toBe('no booking engine detected on 127.0.0.1');
    expect((await h.post('/v1/official', { website: `${site}/missing`, check_in: '2027-03-10' })).status).toBe(404);
    const blocked = await h.post('/v1/official', { website: `${site}/blocked`, check_in: '2027-03-10' });
    expect(blocked.status).toBe(502);
    expect(blocked.body.detail).toBe('CloudflareChallenge');
    for (const r of [other, none, blocked]) expect(r.charged).toBe('0');
    const engines = await h.get('/v1/official/engines');
    expect(engines.status).toBe(200);
    // Mews needs a registered client name, eZee, Lodgify, Smoobu, Hostaway, Newbook, WuBook and RMS Cloud the hotel's own key, none given here
    expect(engines.body.priced).toBe(7);
    expect(engines.body.engines.filter((e: any) => e.priced).map((e: any) => e.id)).toEqual([
      'synxis',
      'cloudbeds',
      'siteminder',
      'little-hotelier',
      'profitroom',
      'beds24',
      'checkfront',
    ]);
    expect(engines.body.engines.find((e: any) => e.id === 'lodgify')).toMatchObject({ priced: false, needs: expect.stringContaining('OFFICIAL_LODGIFY_KEYS') });
    expect(engines.body.engines.find((e: any) => e.id === 'beds24')).toEqual({
      id: 'beds24',
      name: 'Beds24',
      hosts: ['beds24.com'],
      priced: true,
      needs: null,
    });
    expect(engines.body.engines.find((e: any) => e.id === 'mews')).toMatchObject({ priced: false, needs: expect.stringContaining('OFFICIAL_MEWS_CLIENT') });
    expect(engines.body.engines.find((e: any) => e.id === 'd-edge')).toMatchObject({ priced: false, needs: null });
  });

  it('compare: sources in parallel, the cheapest comparable total marked, a failing source reported, 20 credits', async () => {
    const r = await h.post('/v1/ota/compare', {
      check_in: S('2023-06-04'),
      nights: 10,
      adults: 2,
      currency: 'USD',
      sources: {
        official: { website: `${site}/inn` },
        otatwo: { property_id: '9209612' },
        otathree: { property_id: '9209612' },
        otafour: { property_id: '2454174' },
        rentalone: { property_id: '9209612' },
      },
    });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('20');
    expect(r.body.sources.map((s: any) => [s.source, s.status, s.error])).toEqual([
      ['official', 'ok', null],
      ['otatwo', 'ok', null],
      ['otathree', 'ok', null],
      ['otafour', 'error', { status: 502, detail: 'UpstreamHttp500' }],
      ['rentalone', 'ok', null],
    ]);
    expect(r.body.cheapest).toEqual({ source: 'rentalone', total: 700.5, currency: 'USD' });
    expect(r.body.comparison_currency).toBe('USD');
    expect(r.body.offers.map((o: any) => [o.source, o.total, o.currency, o.comparable, o.cheapest])).toEqual([
      ['rentalone', 700.5, 'USD', true, true],
      ['otatwo', 782.6, 'USD', true, false],
      ['otathree', 782.6, 'USD', true, false],
      ['official', 199.5, null, false, false],
    ]);
    expect(r.body.offers.every((o: any) => o.provenance && o.provenance.observation_id.startsWith('rateobs_'))).toBe(true);
    expect(r.body).toMatchObject({ sources_ok: 4, sources_failed: 1, check_out: S('2023-06-14') });
  });

  it('compare: a source still running after timeout_s is reported as 504 and does not hold the answer', async () => {
    // the slow source would answer a valid empty grid after 3 s: its 504 shows the deadline won
    const r = await h.post('/v1/ota/compare', {
      check_in: S('2023-06-04'),
      nights: 10,
      timeout_s: 1,
      sources: { otafour: { property_id: '7777' }, otatwo: { property_id: '9209612' } },
    });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('20');
    expect(r.body.sources.map((s: any) => [s.source, s.status, s.error])).toEqual([
      ['otatwo', 'ok', null],
      ['otafour', 'error', { status: 504, detail: 'no answer within 1 s' }],
    ]);
    expect((await h.post('/v1/ota/compare', { check_in: S('2023-06-04'), timeout_s: 0, sources: { otatwo: { property_id: '9209612' } } })).status).toBe(422);
  });

  it("compare: every source failing is a failure (502, free, each source's reason); no source named is 422; MCP tools validate", async () => {
    const r = await h.post('/v1/ota/compare', {
      check_in: S('2023-06-04'),
      sources: { otafour: { property_id: '2454174' }, otathree: { property_id: '9209612', market: 'CA' } },
    });
    expect(r.status).toBe(502);
    expect(r.charged).toBe('0');
    expect(r.body.detail).toMatch(/^every source failed: otathree: otathree upstream contract changed: .* \(503\); otafour: UpstreamHttp500 \(502\)$/);
    // one source may pass on a retry: the whole comparison may
    expect(r.body).toMatchObject({ retryable: true });
    expect((await h.post('/v1/ota/compare', { check_in: S('2023-06-04'), sources: {} })).status).toBe(422);
    const client = await h.mcp();
    const cmp = await client.callTool({
      name: 'compare_hotel_prices',
      arguments: { check_in: S('2023-06-04'), nights: 10, sources: { otathree: { property_id: '9209612' }, rentalone: { property_id: '9209612' } } },
    });
    expect(cmp.isError).toBeFalsy();
    expect((cmp.structuredContent as any).cheapest).toEqual({ source: 'rentalone', total: 700.5, currency: 'USD' });
    const official = await client.callTool({ name: 'get_official_rate', arguments: { website: `${site}/inn`, check_in: '2027-03-10', nights: 2 } });
    expect(official.isError).toBeFalsy();
    expect((official.structuredContent as any).cheapest_total).toBe(199.5);
    expect((official._meta as any).credits_charged).toBe(4);
    const { tools } = await client.listTools();
    const mine = ['search_rentals', 'get_rental_calendar', 'get_rental_quote', 'get_official_rate', 'compare_hotel_prices'];
    expect(
      tools
        .map((t) => t.name)
        .filter((n) => mine.includes(n))
        .sort(),
    ).toEqual([...mine].sort());
    expect(tools.map((t) => t.name)).not.toContain('get_otathree_stay');
    await client.close();
  });
});
