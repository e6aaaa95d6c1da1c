import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rentalCalendarSerp, searchRentals } from '../../../tools/rentals.js';
import { CALENDAR_HASH, PDP_SECTIONS_HASH, STAYS_SEARCH_HASH } from '../../../src/sources/rentaltwo/operations.js';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { futureCalendar, pdpQuote } from '../../fixtures/ota-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-11-06');

const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
const CALENDAR = 'airbnb/PdpAvailabilityCalendar-excerpt-2026-09.json';
const suite = fixtureSuite('rentaltwo search and calendar through REST and MCP', LYON, CALENDAR);

describe(suite.title, () => {
  const today = todayUtc();
  const quoteFor = (checkIn: string) => (r: { query: Record<string, string> }) => JSON.parse(r.query.variables ?? '{}').checkIn === checkIn;
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness([
      {
        method: 'POST',
        path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`,
        query: { operationName: 'StaysSearch' },
        match: (r) => !r.body.includes('"query"') || r.body.includes('Lyon'),
        body: readFixtureJson(LYON),
      },
      { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, body: { errors: [{ message: 'PersistedQueryNotFound' }] } },
      {
        path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`,
        match: (r) => r.query.variables?.includes('"38817969"') && r.query.variables.includes('"month":9'),
        body: readFixtureJson(CALENDAR),
      },
      {
        path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`,
        match: (r) => r.query.variables?.includes('"38817969"'),
        body: futureCalendar(today),
      },
      { path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`, status: 404, body: 'not found' },
      { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, match: quoteFor(addDays(today, 10)), body: pdpQuote(1, '$150', '$150') },
      {
        path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`,
        match: quoteFor(addDays(today, 11)),
        body: { errors: [{ message: 'Those dates are not available' }], data: null },
      },
      {
        path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`,
        match: (r) => quoteFor(addDays(today, 14))(r) && JSON.parse(r.query.variables).checkOut === addDays(today, 15),
        body: {
          data: {
            presentation: { stayProductDetailPage: { sections: { sections: [{ sectionId: 'BOOK_IT_SIDEBAR', section: { __typename: 'BookItSection' } }] } } },
          },
        },
      },
      { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, match: quoteFor(addDays(today, 14)), body: pdpQuote(2, '$120', '$240') },
      { path: `/rentaltwo/api/v3/StaysPdpSections/${PDP_SECTIONS_HASH}`, status: 500, body: 'boom' },
    ]);
  });
  afterAll(() => h?.close());

  it('search: recorded cards as compatible Property objects with provenance, 8 credits, the request the site sends', async () => {
    const r = await h.post('/v1/serp/rentaltwo', {
      q: 'Lyon',
      check_in_date: S('2026-11-06'),
      check_out_date: S('2026-11-11'),
      adults: 2,
      currency: 'USD',
      type_of_place: 'entire_home',
    });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.properties.map((p: any) => [p.id, p.title, p.price.extracted_total_price, p.rating, p.reviews])).toEqual([
      ['1344016074576611955', 'Example Suite - 2 bedrooms', 2245, 4.95, 74],
      ['968734101213290865', 'Example Flat - 1 bedroom', 797, 4.85, 155],
      ['1532589801839552925', 'Example Hotel Lyon', 810, 4.77, 64],
    ]);
    const first = r.body.properties[0];
    expect(first.link).toBe('https://www.airbnb.com/rooms/1344016074576611955');
    expect(first.price.qualifier).toBe('5 nights');
    expect(first.price.price_per_qualifier).toBe('$446.94');
    expect(first.price.provenance).toMatchObject({
      source: 'rentaltwo',
      source_kind: 'vacation_rental_search',
      source_property_id: '1344016074576611955',
      requested_currency: 'USD',
      returned_currency: 'USD',
      derivation: 'normalized_upstream',
    });
    expect(r.body.search_parameters).toMatchObject({
      engine: 'rentaltwo',
      q: 'Lyon',
      adults: '2',
      rentaltwo_domain: 'airbnb.com',
      type_of_place: 'entire_home',
    });
    expect(r.body.search_information).toMatchObject({ query_displayed: 'Lyon', results: 3, guests: '2 guests' });
    expect(r.body.pagination).toBeUndefined();
    const sent = h.replay.requests.find((q) => q.path.includes('StaysSearch'))!;
    expect(sent.headers['x-airbnb-api-key']).toBeTruthy();
    const raw = JSON.parse(sent.body).variables.staysSearchRequest.rawParams;
    expect(raw).toEqual(
      expect.arrayContaining([
        { filterName: 'query', filterValues: ['Lyon'] },
        { filterName: 'roomTypes', filterValues: ['Entire home/apt'] },
        { filterName: 'checkin', filterValues: [S('2026-11-06')] },
      ]),
    );
  });

  it('search: the engine schema accepts query-string forms; bad input is 400 with error and detail, a stale hash 503', async () => {
    const parsed = searchRentals.input.parse({ q: 'Lyon', adults: '2', include_taxes: 'true', bedrooms: '1' });
    expect(parsed).toMatchObject({ adults: 2, include_taxes: true, bedrooms: 1, rentaltwo_domain: 'airbnb.com' });
    expect(rentalCalendarSerp.input.parse({ property_id: '1', months: '3', price_nights: 'sample' })).toMatchObject({ months: 3 });
    const bad = await h.post('/v1/serp/rentaltwo', { q: 'Lyon', adults: 40, nope: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('adults:');
    expect(bad.body.detail.map((d: any) => [d.type, d.loc.join('.')])).toEqual(
      expect.arrayContaining([
        ['less_than_equal', 'body.adults'],
        ['extra_forbidden', 'body.nope'],
      ]),
    );
    const noQ = await h.post('/v1/serp/rentaltwo', { adults: 2 });
    expect(noQ.status).toBe(400);
    const mixed = await h.post('/v1/serp/rentaltwo', { q: 'Lyon', time_period: 'one_week', check_in_date: S('2026-12-01') });
    expect(mixed.status).toBe(400);
    const stale = await h.post('/v1/serp/rentaltwo', { q: 'Paris' });
    expect(stale.status).toBe(503);
    expect(stale.body.detail).toContain('rentaltwo');
    expect(stale.charged).toBe('0');
  });

  it('calendar without prices: recorded days as they are, 8 credits, one upstream request', async () => {
    const r = await h.post('/v1/serp/rentaltwo_property_availability_calendar', { property_id: '38817969', start_month: 9, start_year: 2026, months: 2 });
    expect(r.status).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.months.map((m: any) => [m.year, m.month, m.days.length])).toEqual([
      [2026, 9, 3],
      [2026, 10, 3],
    ]);
    expect(r.body.months[1].days[1]).toEqual({
      date: '2026-10-14',
      is_available: true,
      is_available_for_checkin: true,
      is_available_for_checkout: false,
      is_bookable: true,
      min_nights: 1,
      max_nights: 1125,
    });
    expect(r.body.price_summary).toBeUndefined();
    expect(r.body.search_metadata).toMatchObject({ status: 'Success', upstream_requests: 1 });
    expect(r.body.search_parameters).toEqual({
      engine: 'rentaltwo_property_availability_calendar',
      property_id: '38817969',
      rentaltwo_domain: 'airbnb.com',
      start_month: '9',
      start_year: '2026',
      months: '2',
      price_nights: 'none',
    });
  });

  it('calendar all: past days, quote cap, refused quote and prices per status; charged 8 + priced nights', async () => {
    const r = await h.post('/v1/rentaltwo/calendar', { property_id: '38817969', price_nights: 'all', max_price_quotes: 3, currency: 'USD', adults: 2 });
    expect(r.status).toBe(200);
    const days = Object.fromEntries(r.body.months.flatMap((m: any) => m.days).map((d: any) => [d.date, d]));
    const status = (offset: number) => days[addDays(today, offset)].price_status;
    expect([-1, 10, 11, 12, 13, 14, 15, 16, 17].map(status)).toEqual([
      'past',
      'priced',
      'quote_refused',
      'unavailable',
      'check_in_not_allowed',
      'priced',
      'quote_cap_reached',
      'quote_cap_reached',
      'not_requested',
    ]);
    expect(days[addDays(today, 14)].price).toMatchObject({
      check_in_date: addDays(today, 14),
      check_out_date: addDays(today, 16),
      currency: 'USD',
      price_per_night: '$120',
      extracted_price_per_night: 120,
      total_price: '$240',
      extracted_total_price: 240,
      provenance: { source: 'rentaltwo', source_kind: 'vacation_rental_stay_quote', returned_currency: 'USD' },
    });
    expect(days[addDays(today, 14)].price.provenance.source_property_id).toBe('38817969');
    expect(r.body.price_summary).toMatchObject({ days: 9, priced: 2, min_price_per_night: 120, max_price_per_night: 150, median_price_per_night: 135 });
    expect(r.body.price_summary.price_status).toMatchObject({ past: 1, priced: 2, quote_refused: 1, quote_cap_reached: 2, not_requested: 1 });
    expect(r.body.search_metadata.upstream_requests).toBe(4);
    expect(r.body.search_parameters).toMatchObject({ price_nights: 'all', max_price_quotes: '3', adults: '2' });
    expect(r.charged).toBe('10');
  });

  it('calendar sample spreads the quotes; a failing quote is reported per day; MCP get_rental_calendar validates', async () => {
    const client = await h.mcp();
    const res = await client.callTool({
      name: 'get_rental_calendar',
      arguments: { property_id: '38817969', price_nights: 'sample', max_price_quotes: 4, stay_nights: 1 },
    });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as any;
    const statuses = sc.months.flatMap((m: any) => m.days).map((d: any) => d.price_status);
    // valid: +10, +11, +14, +15, +16 (one night each); four spread over five leaves +16 out
    expect(statuses).toEqual([
      'past',
      'priced',
      'quote_refused',
      'unavailable',
      'check_in_not_allowed',
      'no_price',
      'quote_failed',
      'not_sampled',
      'not_requested',
    ]);
    expect(sc.price_summary.price_status).toMatchObject({ priced: 1, quote_refused: 1, no_price: 1, quote_failed: 1, not_sampled: 1 });
    expect((res._meta as any).credits_charged).toBe(9);
    await client.close();
  });

  it('unknown listing is 404, free; search_rentals over MCP returns the cards', async () => {
    const missing = await h.post('/v1/rentaltwo/calendar', { property_id: '1' });
    expect(missing.status).toBe(404);
    expect(missing.charged).toBe('0');
    const client = await h.mcp();
    const res = await client.callTool({ name: 'search_rentals', arguments: { q: 'Lyon' } });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as any).properties).toHaveLength(3);
    await client.close();
  });
});
