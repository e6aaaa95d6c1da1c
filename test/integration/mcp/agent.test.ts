/**
 * An agent that holds only the 18 MCP tools: every id a tool needs comes from another tool or from
 * something a person has (a hotel name, a public listing URL), every input field is described,
 * and the listing it pays for in every conversation stays small.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { shiftFrom } from '../../helpers/dates.js';
import { LOCATION_LONDON, CALENDAR_GRAPH_RETURN } from '../../fixtures/flights-rpc-payloads.js';
import { asRental, RENTALONE_LISTING_PAGE, TYPEAHEAD } from '../../fixtures/ota-payloads.js';
import { REPLAY_URL, startHarness, type Harness } from '../../helpers/ota-harness.js';
import { STAYS_SEARCH_HASH } from '../../../src/sources/rentaltwo/operations.js';

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
/** The recorded stay (the travel group's reply states it) and flight dates, moved ahead by whole weeks. */
const STAY = shiftFrom('2023-06-04');
const FLIGHT = shiftFrom('2026-07-15');
/**
 * 48 KB before issue 38, which added to each tool its cost (first description line and _meta), the
 * real site beside each alias, the conditions said in words instead of if/then, and each field's
 * values, bounds and default in words for the adapters that drop those keywords (mcp-use). Then
 * 300 bytes for the MCP Apps' links (issue 41: `"ui":{"resourceUri":"ui://hotelrates/<app>"}` on the
 * eight tools with an app, about 50 bytes each; the calendar's and the parity app's fitted in before).
 * Then 100 bytes for the engines get_official_rate names as priced (issue 43: each engine costs its
 * name; the ones needing the hotel's key are grouped under one "if configured").
 */
const LISTING_BUDGET = 54_400;

/** Inputs that carry an id or token, and what their tool or field description must name as its source. */
const FEEDERS: Record<string, RegExp> = {
  property_token: /resolve_hotel|search_hotels/,
  departure_token: /search_flights/,
  booking_token: /search_flights|get_return_flights/,
  departure_id: /search_flight_locations/,
  arrival_id: /search_flight_locations/,
  property_id: /search_rentals|URL|look it up|search route/,
  listing_id: /URL/,
  website: /get_hotel_details|website/,
};

const suite = fixtureSuite('an agent with only the MCP tools', OFFERS, LYON);
describe(suite.title, () => {
  let h: Harness;
  let client: Client;

  beforeAll(async () => {
    const offers = STAY.json(readFixtureJson(OFFERS));
    h = await startHarness(
      [
        { path: '/otatwo/api/v4/typeahead/golden', body: TYPEAHEAD },
        { path: '/rentalone/api/v4/typeahead/golden', body: TYPEAHEAD },
        { method: 'POST', path: '/otatwo/graphql', body: offers },
        { method: 'POST', path: '/rentalone/graphql', body: [asRental(offers)] },
        { path: '/rentalone/321456ha', body: RENTALONE_LISTING_PAGE },
        { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, body: readFixtureJson(LYON) },
        { method: 'POST', path: '/_/FlightsFrontendUi/data/batchexecute', query: { rpcids: 'H028ib' }, body: LOCATION_LONDON },
        { method: 'POST', path: '/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetCalendarGraph', body: CALENDAR_GRAPH_RETURN },
      ],
      { UPSTREAM_METASEARCH_URL: REPLAY_URL },
    );
    client = await h.mcp();
  });
  afterAll(async () => {
    await client?.close();
    await h?.close();
  });

  it(`lists 18 tools in at most ${LISTING_BUDGET} bytes, each with an output schema and every input field described`, async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(18);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(LISTING_BUDGET);
    const undescribed: string[] = [];
    const unfed: string[] = [];
    const visit = (tool: (typeof tools)[number], schema: Record<string, any>, path: string) => {
      for (const [name, field] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
        const f = field.$ref ? (tool.inputSchema as any).$defs[field.$ref.split('/').pop()] : field;
        const text = `${f.description ?? ''} ${field.description ?? ''}`;
        if (!text.trim()) undescribed.push(`${tool.name}.${path}${name}`);
        if (FEEDERS[name] && !FEEDERS[name].test(`${text} ${tool.description}`)) unfed.push(`${tool.name}.${path}${name}`);
        if (f.properties) visit(tool, f, `${path}${name}.`);
      }
    };
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      visit(t, t.inputSchema, '');
    }
    expect(undescribed).toEqual([]);
    expect(unfed).toEqual([]);
  });

  it('compare_hotel_prices finds each OTA property from the hotel name and says which one it used', async () => {
    const res = await client.callTool({
      name: 'compare_hotel_prices',
      arguments: { hotel: 'golden', check_in: STAY('2023-06-04'), nights: 10, sources: { otatwo: {}, rentalone: {} } },
    });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    const out = res.structuredContent as { sources: { source: string; status: string; matched: unknown }[]; offers: unknown[] };
    expect(out.sources.map((s) => [s.source, s.status, s.matched])).toEqual([
      ['otatwo', 'ok', { name: 'Golden Time Hotel, Ho Chi Minh City, Vietnam', id: '9209612' }],
      ['rentalone', 'ok', { name: 'Golden Time Hotel, Ho Chi Minh City, Vietnam', id: '9209612' }],
    ]);
    expect(out.offers).toHaveLength(2);
    // without a name, an OTA listed without its id is the caller's mistake, said before anything runs
    const missing = await client.callTool({ name: 'compare_hotel_prices', arguments: { check_in: STAY('2023-06-04'), sources: { otatwo: {} } } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse((missing.content as { text: string }[])[0].text)[0]).toMatchObject({ loc: ['body', 'sources', 'otatwo'] });
  });

  it('get_rental_quote takes the public listing URL a person has', async () => {
    const res = await client.callTool({
      name: 'get_rental_quote',
      arguments: { url: 'https://www.vrbo.com/321456ha?adults=2', check_in: STAY('2023-06-04'), nights: 10 },
    });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    const out = res.structuredContent as { search_parameters: Record<string, unknown>; property: { total: number }; meta: { listing_resolved: boolean } };
    expect(out.search_parameters).toMatchObject({ property_id: '9209612', listing_id: '321456ha' });
    expect(out.meta.listing_resolved).toBe(true);
    expect(out.property.total).toBe(782.6);
    const notListing = await client.callTool({
      name: 'get_rental_quote',
      arguments: { url: 'https://www.vrbo.com/search?q=lake', check_in: STAY('2023-06-04') },
    });
    expect(notListing.isError).toBe(true);
    expect((notListing._meta as { status: number }).status).toBe(422);
  });

  it('get_rental_quote refuses an Airbnb listing from search_rentals (id or URL) with a 422 naming the tool that prices it, sending nothing to Vrbo', async () => {
    const found = await client.callTool({ name: 'search_rentals', arguments: { q: 'Lyon' } });
    expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
    const id = (found.structuredContent as { properties: { id: string }[] }).properties[0].id;
    const before = h.replay.requests.filter((r) => r.path.startsWith('/rentalone')).length;
    const refusals = [
      [{ property_id: id }, 'property_id'],
      [{ listing_id: id }, 'listing_id'],
      [{ url: `https://www.airbnb.com/rooms/${id}` }, 'url'],
      [{ url: 'https://www.example.com/321456ha' }, 'url'],
    ] as const;
    for (const [listing, field] of refusals) {
      const res = await client.callTool({ name: 'get_rental_quote', arguments: { ...listing, check_in: STAY('2023-06-04') } });
      expect(res.isError, field).toBe(true);
      expect((res._meta as { status: number }).status).toBe(422);
      const [problem] = JSON.parse((res.content as { text: string }[])[0].text) as { loc: string[]; msg: string }[];
      expect(problem.loc).toEqual(['body', field]);
      expect(problem.msg).toMatch(field === 'url' && !listing.url.includes('airbnb') ? /not a Vrbo listing URL/ : /Airbnb.*get_rental_calendar/);
    }
    expect(h.replay.requests.filter((r) => r.path.startsWith('/rentalone'))).toHaveLength(before);
    // the other way round: a Vrbo listing number is no Airbnb id, and the calendar says which tool takes it
    const vrbo = await client.callTool({ name: 'get_rental_calendar', arguments: { property_id: '321456ha' } });
    expect(vrbo.isError).toBe(true);
    expect((vrbo.content as { text: string }[])[0].text).toContain('get_rental_quote');
  });

  it('get_flight_calendar runs on the airport codes search_flight_locations returns', async () => {
    const loc = await client.callTool({ name: 'search_flight_locations', arguments: { q: 'london' } });
    const code = (loc.structuredContent as { locations: { airports: { code: string }[] }[] }).locations[0].airports[0].code;
    const cal = await client.callTool({
      name: 'get_flight_calendar',
      arguments: { departure_id: code, arrival_id: 'JFK', outbound_date: FLIGHT('2026-07-15'), return_date: FLIGHT('2026-07-22') },
    });
    expect(cal.isError, JSON.stringify(cal.content)).toBeFalsy();
    expect((cal.structuredContent as { calendar: unknown[] }).calendar.length).toBeGreaterThan(0);
  });
});
