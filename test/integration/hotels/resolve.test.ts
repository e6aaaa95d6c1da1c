import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { decodeTs } from '../../../src/sources/metasearch/hotels/ts-param.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { crownDetail, detailData, emptySearchPage, LONDON_TOKENS, page, PAGES, propertyPayload, withData } from '../../fixtures/hotels-payloads.js';

const SEARCH = '/travel/search';
const [CROWN, EXMOUTH, ROSE] = LONDON_TOKENS;
const QUERY = 'The Crown Battersea London';

const suite = fixtureSuite('resolve a hotel name (replayed result and property pages)', PAGES.london, PAGES.tokyo);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  const searches = () => replay.requests.filter((r) => r.path === SEARCH && !r.query.qs);
  const lookups = () => replay.requests.filter((r) => r.path === SEARCH && r.query.qs);

  beforeAll(async () => {
    const london = page(PAGES.london);
    const empty = emptySearchPage(london);
    replay = await startReplayServer([
      { path: SEARCH, query: { qs: encodePropertyQs(CROWN) }, body: withData(london, crownDetail()) },
      { path: SEARCH, query: { qs: encodePropertyQs(EXMOUTH) }, body: london },
      { path: SEARCH, query: { qs: encodePropertyQs(ROSE) }, body: withData(london, detailData(london, propertyPayload(london, 2))) },
      { path: SEARCH, match: (r) => !!r.query.qs, status: 500, body: 'down' },
      { path: SEARCH, query: { q: 'Zzzz Nowhere' }, body: empty },
      { path: SEARCH, query: { q: 'Koko Hotel Tokyo' }, body: page(PAGES.tokyo) },
      { path: SEARCH, query: { gl: 'fr' }, body: empty },
      { path: SEARCH, body: london },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('falls back to the next market on zero candidates, verifies each candidate and orders them', async () => {
    const before = { searches: searches().length, lookups: lookups().length };
    const res = await svc.call('/v1/search', { key, body: { name: 'The Crown Battersea', city: 'London', market: 'FR', limit: 3 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('1');
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      query: QUERY,
      gl: 'us',
      requested_market: 'FR',
      attempted_markets: ['FR', 'US'],
      matched_market: 'US',
      market_fallback_used: true,
      search_status: 'matched',
      external_fallback_recommended: false,
    });
    expect(body.matches).toEqual([
      { token: CROWN, rank: 0, verified: true, name: 'The Crown, Battersea (PUBLOVE)', name_score: 0.8571 },
      { token: ROSE, rank: 2, verified: true, name: 'The Rose & Crown, London Bridge (PUBLOVE)', name_score: 0.4444 },
      { token: EXMOUTH, rank: 1, verified: false, name: null, name_score: 0 },
    ]);

    const [fr, us] = searches().slice(before.searches);
    expect(fr.query).toMatchObject({ q: QUERY, gl: 'fr', hl: 'en' });
    expect(decodeTs(fr.query.ts).search.currency).toBe('EUR');
    expect(us.query).toMatchObject({ q: QUERY, gl: 'us' });
    expect(decodeTs(us.query.ts).search.currency).toBe('USD');
    const checked = lookups()
      .slice(before.lookups)
      .map((r) => r.query.qs)
      .sort();
    expect(checked).toEqual([CROWN, EXMOUTH, ROSE].map(encodePropertyQs).sort());
  });

  it('verify off skips the property pages (MCP)', async () => {
    const before = lookups().length;
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    const res = await client.callTool({ name: 'resolve_hotel', arguments: { name: 'The Crown Battersea', city: 'London', limit: 3, verify: false } });
    expect(res.isError).toBeFalsy();
    const sc = res.structuredContent as any;
    expect(sc).toMatchObject({ attempted_markets: ['US'], matched_market: 'US', market_fallback_used: false, search_status: 'matched' });
    expect(sc.matches.map((m: any) => [m.token, m.verified, m.name, m.name_score])).toEqual([
      [CROWN, null, null, 0.8571],
      [ROSE, null, null, 0.4444],
      [EXMOUTH, null, null, 0],
    ]);
    expect((res._meta as any).credits_charged).toBe(1);
    expect(lookups().length).toBe(before);
    await client.close();
  });

  it('nothing in any market is not_found, recommends an external fallback and is free', async () => {
    const res = await svc.call('/v1/search', { key, body: { name: 'Zzzz Nowhere', fallback_markets: ['GB', 'DE'] } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect((await res.json()) as any).toMatchObject({
      gl: 'gb',
      requested_market: null,
      attempted_markets: ['GB', 'DE'],
      matched_market: null,
      market_fallback_used: false,
      search_status: 'not_found',
      external_fallback_recommended: true,
      matches: [],
    });
  });

  it('every verification failing upstream is a 502, not a verdict', async () => {
    const res = await svc.call('/v1/search', { key, body: { name: 'Koko Hotel', city: 'Tokyo', limit: 2 } });
    expect(res.status).toBe(502);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(((await res.json()) as any).detail).toBe('UpstreamHttp500');
  });

  it('bad input is 422', async () => {
    const res = await svc.call('/v1/search', { key, body: { name: '', market: 'fr', fallback_markets: ['US', 'GB', 'DE', 'FR', 'ES', 'IT'], limit: 11 } });
    expect(res.status).toBe(422);
    const locs = (((await res.json()) as any).detail as any[]).map((d) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.market', 'body.fallback_markets', 'body.limit']));
  });
});
