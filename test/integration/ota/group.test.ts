import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/sources/shared/group-graphql.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { OTATHREE_REVIEWS, RENTALONE_LISTING_PAGE, TYPEAHEAD, asRental } from '../../fixtures/ota-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('travel-group OTAs (otatwo, otathree, rentalone) through REST and MCP', OFFERS);

const op = (name: string) => (r: { body: string }) => r.body.includes(`"operationName":"${name}"`);
const forProperty = (id: string) => (r: { body: string }) => r.body.includes(`"propertyId":"${id}"`);

describe(suite.title, () => {
  let h: Harness;
  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    h = await startHarness([
      { method: 'POST', path: '/otathree/graphql', match: (r) => op('PropertyFilteredReviewsQuery')(r), body: OTATHREE_REVIEWS },
      { method: 'POST', path: '/otathree/graphql', match: forProperty('9209612'), body: [offers] },
      {
        method: 'POST',
        path: '/otathree/graphql',
        match: forProperty('404'),
        body: [{ errors: [{ message: 'Property not found' }], data: { propertyOffers: null } }],
      },
      { method: 'POST', path: '/otathree/graphql', match: forProperty('503'), body: [{ errors: [{ message: 'PersistedQueryNotFound' }] }] },
      { method: 'POST', path: '/otathree/graphql', status: 500, body: 'upstream down' },
      { method: 'POST', path: '/otatwo/graphql', body: offers },
      { path: '/otatwo/api/v4/typeahead/golden', body: TYPEAHEAD },
      { path: '/rentalone/321456ha', body: RENTALONE_LISTING_PAGE },
      { method: 'POST', path: '/rentalone/graphql', match: op('AncillaryPropertyOffersQuery'), body: [asRental(offers)] },
    ]);
  });
  afterAll(() => h?.close());

  it('otathree: headline, rooms and offers with provenance and derived taxes; 8 credits; the persisted request', async () => {
    const r = await h.post('/v1/ota/otathree', { property_id: '9209612', check_in: S('2023-06-04'), nights: 10, adults: 2 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.property).toMatchObject({
      property_id: '9209612',
      total: 782.6,
      price_per_night: 32,
      basis: 'sticky_bar',
      total_text: '$783 total',
      nightly_text: '$32',
      taxes_and_fees_included: true,
      currency: 'USD',
      currency_verified: true,
      available: true,
      cheapest_total: 782.6,
    });
    expect(r.body.property.provenance).toMatchObject({
      source: 'otathree',
      source_kind: 'ota_offer',
      price_basis: 'stay_headline',
      derivation: 'upstream',
      requested_market: 'US',
      requested_currency: 'USD',
      returned_currency: 'USD',
      egress_mode: 'direct',
    });
    expect(r.body.rooms.map((x: any) => [x.unit_id, x.name, x.offers.length])).toEqual([
      ['200801954', 'Superior Triple Room, Balcony', 1],
      ['200801951', 'Superior Room, Balcony', 0],
      ['200801948', 'Superior Room, Mountain View', 0],
      ['201648574', 'Standard Double Room, 1 Queen Bed', 0],
      ['200801957', 'Grand Deluxe', 0],
    ]);
    const offer = r.body.rooms[0].offers[0];
    expect(offer).toMatchObject({ plan_id: '203998903', total: 782.6, nightly: 32.48, taxes_and_fees: 133, payment_model: 'PAY_NOW', currency: 'USD' });
    expect(offer.provenance).toMatchObject({
      source_kind: 'ota_rate_plan',
      price_basis: 'stay_rate_plan',
      upstream_rate_id: '203998903',
      collection_id: r.body.meta.collection_id,
    });
    expect(offer.taxes_and_fees_provenance).toMatchObject({ price_basis: 'taxes_and_fees_combined', derivation: 'total_minus_nightly_times_nights' });
    expect(r.body.meta).toMatchObject({ source: 'otathree', nights: 10, room_types: 5, offers: 1, comparable_across_markets: false });
    expect(r.body.search_parameters).toEqual({
      engine: 'ota_otathree',
      property_id: '9209612',
      check_in_date: S('2023-06-04'),
      check_out_date: S('2023-06-14'),
      adults: 2,
      market: 'US',
      currency: 'USD',
      rooms: true,
    });
    const sent = JSON.parse(h.replay.requests.find((q) => q.path === '/otathree/graphql' && forProperty('9209612')(q))!.body)[0];
    expect(sent.operationName).toBe(OPERATIONS.roomsAndRates.name);
    expect(sent.extensions.persistedQuery.sha256Hash).toBe(OPERATIONS.roomsAndRates.sha256);
    expect(sent.variables.context).toMatchObject({ siteId: 300000001, tpid: 3001, eapid: 1, locale: 'en_US', currency: 'USD' });
    expect(sent.variables.searchCriteria.primary.dateRange).toEqual(
      S.json({
        checkInDate: { day: 4, month: 6, year: 2023 },
        checkOutDate: { day: 14, month: 6, year: 2023 },
      }),
    );
  });

  it('otathree: unknown id 404, stale hash 503, upstream 5xx 502, other stay dates 502, CA context 503, bad input 422 — never charged', async () => {
    const stay = { check_in: S('2023-06-04'), nights: 2 };
    const cases = [
      [{ property_id: '404', ...stay }, 404],
      [{ property_id: '503', ...stay }, 503],
      [{ property_id: '777', ...stay }, 502],
      [{ property_id: '9209612', market: 'CA', ...stay }, 503],
      [{ property_id: 'abc', ...stay }, 422],
      [{ property_id: '9209612', check_in: S('2023-06-04'), check_out: S('2023-06-01') }, 400],
      // the recorded grid answers 10 nights: a 2-night stay is an upstream mismatch
      [{ property_id: '9209612', ...stay }, 502],
    ] as const;
    for (const [body, status] of cases) {
      const r = await h.post('/v1/ota/otathree', body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.charged).toBe('0');
    }
    const ca = await h.post('/v1/ota/otathree', { property_id: '9209612', market: 'CA', ...stay });
    expect(ca.body.detail).toContain('market CA');
    const stale = await h.post('/v1/ota/otathree', { property_id: '503', ...stay });
    expect(stale.body.detail).toMatch(/otathree upstream contract changed: persisted query not found/);
  });

  it('otathree reviews: 2 credits, ratings from the score labels, paging sent as counts', async () => {
    const r = await h.post('/v1/ota/otathree/reviews', { property_id: '9209612', size: 2, start_index: 4 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('2');
    expect(r.body).toMatchObject({ source: 'otathree', property_id: '9209612', total: 149, offset: 4, limit: 2, rating_scale: 10, count: 2, warnings: [] });
    expect(r.body.reviews[0]).toEqual({
      source: 'otathree',
      review_id: 'rev-1',
      rating: 10,
      title: 'Great view',
      text: 'Quiet room with a balcony.',
      date: 'Dec 9, 2023',
      author: 'Anna',
      management_reply: 'Thank you, Anna!',
      language: 'en_US',
      helpful_votes: 4,
      labels: ['Liked: Cleanliness', 'Verified traveler'],
      stay_info: 'Stayed 3 nights in Dec 2023',
    });
    expect(r.body.reviews[1].rating).toBe(8);
    const sent = JSON.parse(h.replay.requests.find((q) => op('PropertyFilteredReviewsQuery')(q))!.body)[0];
    expect(sent.variables.searchCriteria.secondary.counts).toEqual([
      { id: 'startIndex', value: 4 },
      { id: 'size', value: 2 },
    ]);
    expect(sent.query).toContain('reviewInfo(searchCriteria: $searchCriteria)');
  });

  it('otatwo rooms and headline: rate plans with lead price, refundability and provenance; search resolves the id', async () => {
    const rooms = await h.post('/v1/ota/otatwo/rooms', { property_id: '9209612', check_in: S('2023-06-04'), nights: 10 });
    expect(rooms.status).toBe(200);
    expect(rooms.charged).toBe('8');
    expect(rooms.body).toMatchObject({
      property_id: '9209612',
      market: 'US',
      currency: 'USD',
      requested_currency: 'USD',
      currency_verified: true,
      available: true,
      sold_out: false,
      cheapest_rate: 32.48,
    });
    expect(rooms.body.rooms[0].rate_plans[0]).toMatchObject({
      plan_id: '203998903',
      price: 32.48,
      total: 782.6,
      pay_now: true,
      refundable: true,
      refundable_until: `${S('2023-05-30')}T14:00`,
      taxes_and_fees: 133,
    });
    expect(rooms.body.rooms[0].rate_plans[0].provenance).toMatchObject({ source: 'otatwo', price_basis: 'nightly_lead_price', upstream_rate_id: '203998903' });
    const sent = JSON.parse(h.replay.requests.find((q) => q.path === '/otatwo/graphql')!.body)[0];
    expect(sent.variables.context).toMatchObject({ siteId: 1, tpid: 1, eapid: 0, locale: 'en_US', currency: 'USD' });
    const head = await h.post('/v1/ota/otatwo', { property_id: '9209612', check_in: S('2023-06-04'), nights: 10, market: 'GB' });
    expect(head.status).toBe(200);
    expect(head.body).toMatchObject({ market: 'GB', requested_currency: 'GBP', currency: 'USD', currency_verified: false, room_types: 5, rate_plans: 1 });
    expect(head.body.cheapest).toMatchObject({ room_name: 'Superior Triple Room, Balcony', price: 32.48 });
    const au = await h.post('/v1/ota/otatwo/rooms', { property_id: '9209612', check_in: S('2023-06-04'), market: 'AU' });
    expect(au.status).toBe(503);
    // the recorded grid prices 2023-06-04..14: for another stay it is an upstream mismatch, never priced
    for (const path of ['/v1/ota/otatwo/rooms', '/v1/ota/otatwo']) {
      const other = await h.post(path, { property_id: '9209612', check_in: S('2023-06-05'), nights: 10 });
      expect([other.status, other.charged, other.body.detail]).toEqual([
        502,
        '0',
        `StayMismatch: the upstream answered for ${S('2023-06-04')}..${S('2023-06-14')}`,
      ]);
    }
    const search = await h.post('/v1/ota/otatwo/search', { query: 'golden' });
    expect(search.status).toBe(200);
    expect(search.charged).toBe('1');
    expect(search.body.results).toEqual([
      {
        position: 1,
        property_id: '9209612',
        name: 'Golden Time Hotel',
        full_name: 'Golden Time Hotel, Ho Chi Minh City, Vietnam',
        type: 'HOTEL',
        region_id: '1000',
        latitude: 10.77,
        longitude: 106.69,
      },
    ]);
    const tq = h.replay.requests.find((q) => q.path.startsWith('/otatwo/api/v4/typeahead'))!;
    expect(tq.query).toMatchObject({ siteid: '1', locale: 'en_US', lob: 'HOTELS' });
  });

  it('rentalone: listing id resolved with one page load, quote over REST and MCP get_rental_quote', async () => {
    const r = await h.post('/v1/ota/rentalone', { listing_id: '321456ha', check_in: S('2023-06-04'), nights: 10 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.property).toMatchObject({
      property_id: '9209612',
      listing_id: '321456ha',
      total: 782.6,
      basis: 'cheapest_offer',
      payment_model: 'PAY_NOW',
      available: true,
    });
    expect(r.body.offers[0]).toMatchObject({ refundable: null, cancellation_text: '', extras: null, extras_text: '' });
    expect(r.body.offers[0].provenance).toMatchObject({ source: 'rentalone', source_kind: 'vacation_rental_stay_quote' });
    expect(r.body.meta).toMatchObject({ listing_resolved: true, nights: 10 });
    expect(r.body.search_parameters).toMatchObject({ property_id: '9209612', listing_id: '321456ha', currency: 'USD' });
    const sent = JSON.parse(h.replay.requests.find((q) => q.path === '/rentalone/graphql')!.body)[0];
    expect(sent.variables).toMatchObject({ propertyId: '9209612', context: { siteId: 9001001, eapid: 1 } });
    expect(h.replay.requests.find((q) => q.path === '/rentalone/graphql')!.headers['x-parent-brand-id']).toBe('vrbo');
    expect(h.replay.requests.find((q) => q.path === '/otatwo/graphql')!.headers['x-parent-brand-id']).toBeUndefined();
    const missing = await h.post('/v1/ota/rentalone', { listing_id: '999', check_in: S('2023-06-04') });
    expect(missing.status).toBe(404);
    const neither = await h.post('/v1/ota/rentalone', { check_in: S('2023-06-04') });
    expect(neither.status).toBe(400);
    const client = await h.mcp();
    const res = await client.callTool({ name: 'get_rental_quote', arguments: { property_id: '9209612', check_in: S('2023-06-04'), nights: 10 } });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as any).property).toMatchObject({ total: 782.6, listing_id: null });
    expect((res._meta as any).credits_charged).toBe(8);
    await client.close();
  });
});
