/**
 * The shared result cache through the real doors (REST, the compatible search, MCP over the SDK
 * client), on the real service and its own PostgreSQL, the upstream replayed: the replay server
 * counts every upstream request. A repeated call is a free, marked hit equal to the first answer;
 * a call asking live, a zero-retention call, an aged entry, a failure, a blocked or an empty answer
 * are never served from it or never kept; fifty identical calls at once make one upstream request
 * and one charge; the hourly purge and the size cap bound it; /metrics and /v1/storage show it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchHotels, serpHotels } from '../../../tools/hotels.js';
import { cacheKey } from '../../../src/core/result-cache.js';
import { emptySearchPage, page, PAGES } from '../../fixtures/hotels-payloads.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-04-15');

type Json = Record<string, any>;
const SEARCH = '/travel/search';
const SORRY = '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>';
const STAY = { check_in: S('2026-04-15'), nights: 7, currency: 'GBP', gl: 'gb' };

const suite = fixtureSuite('the shared result cache', PAGES.london);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  let other: string;
  let admin: string;
  /** Upstream search requests made so far for the query `q`. */
  const fetched = (q: string) => replay.requests.filter((r) => r.path === SEARCH && r.query.q === q).length;
  const post = async (path: string, body: unknown, k = key) => {
    const res = await svc.call(path, { key: k, body });
    return {
      status: res.status,
      cache: res.headers.get('x-cache'),
      charged: res.headers.get('x-credits-charged'),
      id: res.headers.get('x-request-id')!,
      body: (await res.json()) as Json,
    };
  };
  const history = async (id: string, k = key) => (await (await svc.call(`/v1/requests/${id}`, { key: k })).json()) as Json;
  const rows = async () =>
    (await svc.deps.sql<{ operation: string; state: string }[]>`SELECT operation, state FROM result_cache`).map((r) => `${r.operation} ${r.state}`);

  beforeAll(async () => {
    const london = page(PAGES.london);
    replay = await startReplayServer([
      { path: SEARCH, query: { q: 'Boom' }, status: 500, body: 'upstream down' },
      { path: SEARCH, query: { q: 'Blocked' }, body: SORRY },
      { path: SEARCH, query: { q: 'Nowhere' }, body: emptySearchPage(london) },
      // slow enough that fifty calls sent at once are all in flight together
      { path: SEARCH, query: { q: 'Crowd' }, body: london, delayMs: 300 },
      { path: SEARCH, body: london },
    ]);
    svc = await startTestService({
      UPSTREAM_METASEARCH_URL: replay.url,
      UPSTREAM_RETRIES: '0',
      RESULT_CACHE_ENABLED: 'true',
      CREDITS_MODE: 'enforce',
      PUBLIC_BASE_URL: 'https://api.example.test',
    });
    key = (await svc.key({ plan: 'starter' })).key;
    other = (await svc.key({ plan: 'starter' })).key;
    admin = (await svc.key({ plan: 'starter', role: 'admin' })).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('the second identical call is a hit: free, marked, recorded as one, equal to the first answer; for another account too, whatever the key order and defaults', async () => {
    const first = await post('/v1/hotels/search', { q: 'London', ...STAY });
    expect([first.status, first.cache, first.charged]).toEqual([200, 'miss', '3']);
    expect(first.body).not.toHaveProperty('meta');
    // the same search: fields in another order, a default spelled out, another caller
    const second = await post('/v1/hotels/search', { gl: 'gb', currency: 'GBP', nights: 7, adults: 2, check_in: S('2026-04-15'), q: 'London' }, other);
    expect([second.status, second.cache, second.charged]).toEqual([200, 'hit', '0']);
    expect(fetched('London')).toBe(1);
    const { meta, ...answer } = second.body;
    expect(answer).toEqual(first.body);
    // when it was fetched: what the first answer's own pages say they observed
    expect(meta).toEqual({ cached: true, observed_at: expect.any(String) });
    expect(Date.parse(meta.observed_at)).toBeLessThanOrEqual(Date.parse(first.body.pages[0].observed_at));
    expect(await history(first.id)).toMatchObject({ credits: 3, cache_hit: false });
    expect(await history(second.id, other)).toMatchObject({ status: 200, credits: 0, cache_hit: true });
    expect(await rows()).toEqual(['search_hotels ready']);
  });

  it('cache: false fetches live, charged, and neither reads nor replaces the stored answer', async () => {
    const before = fetched('London');
    const live = await post('/v1/hotels/search', { q: 'London', ...STAY, cache: false });
    expect([live.status, live.cache, live.charged]).toEqual([200, 'miss', '3']);
    expect(fetched('London')).toBe(before + 1);
    expect(live.body).not.toHaveProperty('meta');
    // the answer stored by the first call is still the one served
    const again = await post('/v1/hotels/search', { q: 'London', ...STAY });
    expect([again.cache, fetched('London')]).toEqual(['hit', before + 1]);
  });

  it('the compatible search: a repeated search is a hit with its own id and links, no_cache=true is live, and its operation shares the entry of its own route', async () => {
    const params = S.text('engine=google_hotels&q=Madrid&check_in_date=2026-08-11&check_out_date=2026-08-13&currency=USD&gl=us');
    const get = async (query: string) => {
      const res = await fetch(`${svc.url}/api/v1/search?${query}&api_key=${key}`);
      return { status: res.status, cache: res.headers.get('x-cache'), charged: res.headers.get('x-credits-charged'), body: (await res.json()) as Json };
    };
    const first = await get(params);
    expect([first.status, first.cache, first.charged]).toEqual([200, 'miss', '3']);
    const second = await get(params);
    expect([second.status, second.cache, second.charged]).toEqual([200, 'hit', '0']);
    expect(fetched('Madrid')).toBe(1);
    const { id, json_url, html_url, cached, ...meta } = second.body.search_metadata;
    expect([id, cached, html_url]).toEqual([expect.stringMatching(/^req_/), true, undefined]);
    expect(id).not.toBe(first.body.search_metadata.id);
    expect(json_url).toBe(`https://api.example.test/api/v1/searches/${id}`);
    // the rest of the answer as first sent: the timings and observed_at of the fetch included
    const { id: _i, json_url: _j, html_url: _h, ...firstMeta } = first.body.search_metadata;
    expect(meta).toEqual(firstMeta);
    expect({ ...second.body, search_metadata: null }).toEqual({ ...first.body, search_metadata: null });
    // the hit is archived for its caller like any search
    const archived = await fetch(`${svc.url}/api/v1/searches/${id}?api_key=${key}`);
    expect(((await archived.json()) as Json).search_metadata.id).toBe(id);

    const live = await get(`${params}&no_cache=true`);
    expect([live.status, live.cache, live.charged, live.body.warnings]).toEqual([200, 'miss', '3', undefined]);
    expect(fetched('Madrid')).toBe(2);
    // the engine's operation at its own route, the same search: the same entry
    const own = await post('/v1/serp/metasearch_hotels', {
      q: 'Madrid',
      check_in_date: S('2026-08-11'),
      check_out_date: S('2026-08-13'),
      currency: 'USD',
      gl: 'us',
    });
    expect([own.status, own.cache, own.charged, own.body.search_metadata.cached]).toEqual([200, 'hit', '0', true]);
    expect(fetched('Madrid')).toBe(2);
  });

  it('a zero-retention call leaves no cache row (nor claim), yet may read one', async () => {
    const body = { q: 'Oslo', check_in_date: S('2026-08-11'), check_out_date: S('2026-08-13'), zero_retention: true };
    const first = await post('/v1/serp/metasearch_hotels', body);
    expect([first.status, first.cache, first.charged]).toEqual([200, 'miss', '3']);
    const input = serpHotels.input.parse(body);
    expect(await svc.deps.results.store.has(cacheKey(serpHotels, input))).toBe(false);
    expect(await rows()).not.toContain('serp_metasearch_hotels pending');
    const again = await post('/v1/serp/metasearch_hotels', body);
    expect([again.cache, fetched('Oslo')]).toEqual(['miss', 2]);
    // an answer another call stored is read by a zero-retention call (it keeps nothing, it takes public data)
    await post('/v1/serp/metasearch_hotels', { ...body, zero_retention: false });
    expect(await svc.deps.results.store.has(cacheKey(serpHotels, input))).toBe(true);
    const read = await post('/v1/serp/metasearch_hotels', body);
    expect([read.cache, read.charged, fetched('Oslo')]).toEqual(['hit', '0', 3]);
  });

  it('an entry older than its freshness is never served: the call fetches live and stores the new answer', async () => {
    const body = { q: 'Porto', ...STAY };
    await post('/v1/hotels/search', body);
    const key0 = cacheKey(searchHotels, searchHotels.input.parse(body));
    // eleven minutes ago: past the 10 minutes prices stay fresh (its expiry not yet reached)
    await svc.deps.sql`UPDATE result_cache SET observed_at = now() - interval '11 minutes' WHERE key = ${key0}`;
    const aged = await post('/v1/hotels/search', body);
    expect([aged.cache, aged.charged, fetched('Porto')]).toEqual(['miss', '3', 2]);
    expect((await post('/v1/hotels/search', body)).cache).toBe('hit');
    // past its expiry: the same
    await svc.deps.sql`UPDATE result_cache SET expires_at = now() - interval '1 second' WHERE key = ${key0}`;
    expect((await post('/v1/hotels/search', body)).cache).toBe('miss');
    expect(fetched('Porto')).toBe(3);
  });

  it('failures, blocked pages and empty answers are never cached', async () => {
    for (const [q, status] of [
      ['Boom', 502],
      ['Blocked', 502],
      ['Nowhere', 200],
    ] as const) {
      const a = await post('/v1/hotels/search', { q, ...STAY });
      const b = await post('/v1/hotels/search', { q, ...STAY });
      expect([a.status, b.status, a.charged, b.charged], q).toEqual([status, status, '0', '0']);
      expect([a.cache, b.cache], q).toEqual(status === 200 ? ['miss', 'miss'] : [null, null]);
      expect(fetched(q), q).toBe(2);
    }
    expect((await rows()).filter((r) => r.endsWith('pending'))).toEqual([]);
  });

  it('fifty identical calls at once make one upstream request and one charge; the other forty-nine are free hits', async () => {
    const body = { q: 'Crowd', ...STAY };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post('/v1/hotels/search', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(fetched('Crowd')).toBe(1);
    expect(answers.filter((a) => a.cache === 'miss').map((a) => a.charged)).toEqual(['3']);
    expect(answers.filter((a) => a.cache === 'hit')).toHaveLength(49);
    const ids = answers.map((a) => a.id);
    const recorded = await svc.deps.sql<{ credits: number; cache_hit: boolean; n: number }[]>`
      SELECT credits, cache_hit, count(*)::int AS n FROM request_history WHERE id = ANY(${ids}) GROUP BY 1, 2 ORDER BY 1`;
    expect(recorded).toEqual([
      { credits: 0, cache_hit: true, n: 49 },
      { credits: 3, cache_hit: false, n: 1 },
    ]);
    const charges = await svc.deps.sql`SELECT amount FROM credit_ledger WHERE request_id = ANY(${ids}) AND kind = 'charge'`;
    expect(charges.map((c) => c.amount)).toEqual([-3]);
    // each got the answer, with its own id where one is stated
    const { meta: _m, ...fetchedAnswer } = answers.find((a) => a.cache === 'miss')!.body;
    for (const a of answers) expect({ ...a.body, meta: undefined }).toEqual({ ...fetchedAnswer, meta: undefined });
  });

  it('over MCP: the hit is free and says so in _meta, the structured answer the same', async () => {
    const client = new Client({ name: 'cache', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      const args = { q: 'Lisbon', ...STAY };
      const first = await client.callTool({ name: 'search_hotels', arguments: args });
      const second = await client.callTool({ name: 'search_hotels', arguments: args });
      expect(first._meta).toMatchObject({ cached: false, credits_charged: 3 });
      expect(second._meta).toMatchObject({ cached: true, credits_charged: 0, observed_at: expect.any(String) });
      expect(second.structuredContent).toEqual(first.structuredContent);
      const live = await client.callTool({ name: 'search_hotels', arguments: { ...args, cache: false } });
      expect(live._meta).toMatchObject({ cached: false, credits_charged: 3 });
      expect(fetched('Lisbon')).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('/metrics counts hits and misses per operation and the cache size; /v1/storage shows the size to admin keys only', async () => {
    const text = await (await svc.call('/metrics', { key: admin })).text();
    const value = (line: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(line))
          ?.split(' ')
          .at(-1),
      );
    expect(value('hotelrates_result_cache_calls_total{operation="search_hotels",outcome="miss"}')).toBeGreaterThanOrEqual(5);
    expect(value('hotelrates_result_cache_calls_total{operation="search_hotels",outcome="hit"}')).toBeGreaterThanOrEqual(3);
    expect(value('hotelrates_result_cache_calls_total{operation="search_hotels",outcome="coalesced"}')).toBeGreaterThanOrEqual(1);
    expect(value('hotelrates_result_cache_calls_total{operation="search_hotels",outcome="bypass"}')).toBe(2);
    expect(value('hotelrates_result_cache_size{measure="entries"}')).toBeGreaterThanOrEqual(4);
    expect(value('hotelrates_result_cache_size{measure="bytes"}')).toBeGreaterThan(10_000);

    const mine = (await (await svc.call('/v1/storage', { key })).json()) as Json;
    expect(mine).not.toHaveProperty('result_cache');
    const ops = (await (await svc.call('/v1/storage', { key: admin })).json()) as Json;
    expect(ops.result_cache).toMatchObject({
      entries: expect.any(Number),
      bytes: expect.any(Number),
      max_bytes: 256 * 1024 * 1024,
      pending: 0,
      oldest_observed_at: expect.any(String),
    });
    expect(ops.result_cache.entries).toBeGreaterThanOrEqual(4);
  });

  it('bounded: the hourly purge deletes expired entries; past the size cap the entries nearest their expiry go first', async () => {
    const before = await rows();
    await svc.deps.sql`UPDATE result_cache SET expires_at = now() - interval '1 second' WHERE operation = 'serp_metasearch_hotels'`;
    const purged = await svc.deps.results.purge();
    const after = await rows();
    expect(purged).toBe(before.length - after.length);
    expect(after.some((r) => r.startsWith('serp_metasearch_hotels'))).toBe(false);
    // a cap of one entry's size keeps the one with the most time left
    const entries = await svc.deps.sql<
      { key: string; bytes: number; expires_at: Date }[]
    >`SELECT key, bytes, expires_at FROM result_cache ORDER BY expires_at DESC`;
    expect(entries.length).toBeGreaterThanOrEqual(2);
    await svc.deps.results.store.evict(entries[0].bytes);
    expect((await svc.deps.sql`SELECT key FROM result_cache`).map((r) => r.key)).toEqual([entries[0].key]);
  });
});
