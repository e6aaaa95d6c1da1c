/**
 * Self-repair of a moved identifier, end to end: the rental platform has rotated its persisted-query
 * hashes (test/replay/rotated-hash.ts). The first search meets `PersistedQueryNotFound`, finds the
 * current hash in the site's chunks (bounded), keeps it in PostgreSQL and retries once; the next
 * search, and a second service on the same database, send the kept hash at once. An operation whose
 * hash no chunk holds within the bound is a free 503 contract_changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAYS_SEARCH_HASH, CALENDAR_HASH } from '../../../src/sources/rentaltwo/operations.js';
import { MAX_CHUNK_FETCHES } from '../../../src/sources/rentaltwo/persisted-query.js';
import { UpstreamIdentifierStore } from '../../../src/platform/upstream-identifiers.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { rotatedHashSite } from '../../replay/rotated-hash.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-11-06');

const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
const NEW_HASH = '5e1d2c3b4a59687766554433221100ffeeddccbbaa99887766554433221100ff';
const SEARCH = { q: 'Lyon', check_in_date: S('2026-11-06'), check_out_date: S('2026-11-11'), adults: 2, currency: 'USD' };
const suite = fixtureSuite('rentaltwo: a rotated persisted-query hash found again in the site chunks and kept for every process', LYON);

describe(suite.title, () => {
  let h: Harness;
  let second: TestService | null = null;
  const site = rotatedHashSite('/rentaltwo', { StaysSearch: NEW_HASH });
  const searches = (hash: string) => h.replay.requests.filter((r) => r.path === `/rentaltwo/api/v3/StaysSearch/${hash}`).length;

  beforeAll(async () => {
    h = await startHarness([
      { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${STAYS_SEARCH_HASH}`, body: { errors: [{ message: 'PersistedQueryNotFound' }] } },
      { method: 'POST', path: `/rentaltwo/api/v3/StaysSearch/${NEW_HASH}`, body: readFixtureJson(LYON) },
      {
        path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}`,
        body: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] },
      },
      ...site.routes,
    ]);
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  it('the first search finds the current hash in a chunk near the route module, keeps it and is answered (8 credits)', async () => {
    const r = await h.post('/v1/serp/rentaltwo', SEARCH);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.charged).toBe('8');
    expect(r.body.properties).toHaveLength(3);
    expect([searches(STAYS_SEARCH_HASH), searches(NEW_HASH)]).toEqual([1, 1]);
    // the loader, the route module, two chunks after it, the one holding the hash
    expect(site.scriptsServed(h.replay.requests)).toBe(5);
    const kept = await new UpstreamIdentifierStore(h.svc.deps.sql).read('rentaltwo', 'StaysSearch');
    expect(kept).toMatchObject({ value: NEW_HASH, replaced: STAYS_SEARCH_HASH });
    const admin = (await h.svc.key({ role: 'admin' })).key;
    const metrics = await (await h.svc.call('/metrics', { key: admin })).text();
    expect(metrics).toMatch(/hotelrates_upstream_path_events_total\{source="rentaltwo",event="identifier_repair"\} 1\b/);
  });

  it('the next search sends the kept hash at once: no refusal, no scan', async () => {
    const scripts = site.scriptsServed(h.replay.requests);
    const r = await h.post('/v1/serp/rentaltwo', SEARCH);
    expect(r.status).toBe(200);
    expect([searches(STAYS_SEARCH_HASH), searches(NEW_HASH)]).toEqual([1, 2]);
    expect(site.scriptsServed(h.replay.requests)).toBe(scripts);
  });

  it('another service on the same database sends the kept hash from its first call', async () => {
    second = await startTestService(
      { UPSTREAM_RENTALTWO_URL: `${h.replay.url}/rentaltwo`, UPSTREAM_RETRIES: '0' },
      { databaseUrl: h.svc.deps.config.DATABASE_URL },
    );
    const key = (await second.key()).key;
    const res = await second.call('/v1/serp/rentaltwo', { key, body: SEARCH });
    expect(res.status).toBe(200);
    expect([searches(STAYS_SEARCH_HASH), searches(NEW_HASH)]).toEqual([1, 3]);
  });

  it('an operation whose hash no chunk holds within the bound: free 503 contract_changed, at most the bound of script fetches', async () => {
    const scripts = site.scriptsServed(h.replay.requests);
    const r = await h.post('/v1/rentaltwo/calendar', { property_id: '38817969', months: 1 });
    expect(r.status).toBe(503);
    expect(r.charged).toBe('0');
    expect(r.body).toMatchObject({ source: 'rentaltwo', failure: 'contract_changed' });
    expect(r.body.detail).toMatch(/persisted query not found/);
    expect(site.scriptsServed(h.replay.requests) - scripts).toBe(MAX_CHUNK_FETCHES);
  });
});
