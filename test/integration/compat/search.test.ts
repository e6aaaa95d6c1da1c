import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAYS_SEARCH_HASH } from '../../../src/sources/rentaltwo/operations.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-03-10');

/**
 * A client of the compatible search API that only changes its base address: GET /api/v1/search
 * with that API's query parameters, the key as api_key or Bearer, engine picking the operation.
 */
const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
const LONDON = 'google-hotels/travel-search-london-long-stay.html';
const NONSTOP = 'google-flights/results-nonstop-sfo_jfk_economy.html.zst';
const suite = fixtureSuite('GET /api/v1/search as a drop-in for the compatible search API', LYON, LONDON, NONSTOP);

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  const get = (query: string, headers: Record<string, string> = {}) => fetch(`${svc.url}/api/v1/search?${query}`, { headers });

  beforeAll(async () => {
    replay = await startReplayServer([
      { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, body: readFixtureJson(LYON) },
      { path: '/travel/search', fixture: LONDON },
      { path: '/travel/flights/search', fixture: NONSTOP, encoding: 'zstd' },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RENTALTWO_URL: `${replay.url}/rentaltwo`, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('engine is required, as that API requires it (no default rental search); engine=rentaltwo with api_key in the query costs 8 credits', async () => {
    const none = await get(S.text(`q=Lyon&check_in_date=2026-11-06&check_out_date=2026-11-11&adults=2&currency=USD&api_key=${key}`));
    expect([none.status, none.headers.get('x-credits-charged')]).toEqual([400, '0']);
    const refused = (await none.json()) as any;
    expect(refused.error).toMatch(/^Missing required parameter engine: engine is required; engines answered here: google_hotels, .*; and ours: rentaltwo, /);
    expect(refused.detail[0].loc).toEqual(['query', 'engine']);
    const res = await get(S.text(`engine=rentaltwo&q=Lyon&check_in_date=2026-11-06&check_out_date=2026-11-11&adults=2&currency=USD&api_key=${key}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('8');
    const body = (await res.json()) as any;
    expect(body.search_metadata).toMatchObject({ status: 'Success', id: res.headers.get('x-request-id') });
    expect(body.search_parameters).toMatchObject({ engine: 'rentaltwo', q: 'Lyon', adults: '2', currency: 'USD' });
    expect(body.properties.map((p: any) => p.id)).toEqual(['1344016074576611955', '968734101213290865', '1532589801839552925']);
  });

  it('engine=metasearch_hotels with a Bearer key answers the hotel search shape, 3 credits', async () => {
    const res = await get(S.text('engine=metasearch_hotels&q=London&check_in_date=2026-04-15&check_out_date=2026-04-22&currency=GBP&gl=gb&adults=2'), {
      authorization: `Bearer ${key}`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body.search_parameters).toMatchObject({ engine: 'metasearch_hotels', q: 'London', currency: 'GBP' });
    expect(body.properties[0]).toMatchObject({ name: 'The Crown, Battersea (PUBLOVE)', type: 'hotel' });
    expect(body.properties[0].price_per_night).toMatchObject({ price: '£29', extracted_price: 29 });
    expect(body.properties[0].total_price).toMatchObject({ price: '£203' });
  });

  it('engine=metasearch_flights answers best and other flights with departure tokens, 3 credits', async () => {
    const res = await get(S.text(`engine=metasearch_flights&departure_id=SFO&arrival_id=JFK&outbound_date=2026-03-10&flight_type=one_way&api_key=${key}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(body.best_flights).toHaveLength(3);
    expect(body.other_flights).toHaveLength(41);
    expect(body.best_flights[0].flights[0]).toMatchObject({ flight_number: 'B6 16' });
  });

  it('errors carry detail and error; a missing key is 401 in the same shape', async () => {
    const missing = await get('engine=metasearch_hotels&q=London');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ detail: 'missing or invalid API key', error: 'missing or invalid API key' });
    const bad = await get(S.text(`engine=metasearch_hotels&check_in_date=2026-04-15&api_key=${key}`));
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as any;
    expect(body.detail.map((d: any) => d.loc.join('.'))).toEqual(expect.arrayContaining(['query.q', 'query.check_out_date']));
    expect(body.error).toContain('Missing required parameter q');
  });
});
