/**
 * Self-repair of a moved identifier for the travel group's brands: the gateway no longer knows the
 * built-in persisted-query hash of the offers operation (`PersistedQueryNotFound`, as it answers a
 * stale one); the brand reads its site's scripts (bounded), finds the current hash beside the
 * operation's name, keeps it in PostgreSQL and sends the request once more; the next call sends the
 * kept hash at once. Where no script holds it, the refusal stands: a free 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/sources/shared/group-graphql.js';
import { MAX_GROUP_CHUNK_FETCHES } from '../../../src/sources/shared/group-hash-repair.js';
import { UpstreamIdentifierStore } from '../../../src/platform/upstream-identifiers.js';
import { shiftFrom } from '../../helpers/dates.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';

const S = shiftFrom('2023-06-01');
const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const NEW_HASH = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const OP = OPERATIONS.roomsAndRates;
const suite = fixtureSuite('travel group: a rotated persisted-query hash found again in the site scripts and kept for every process', OFFERS);

const sends = (hash: string) => (r: { body: string }) => r.body.includes(`"sha256Hash":"${hash}"`);
/** A bundle chunk as a persisted-query build writes one: the document's name beside its hash. */
const chunk = (name: string, hash: string) =>
  `"use strict";(self.webpackChunk=self.webpackChunk||[]).push([[311],{4711:(e,t)=>{t.document={operationName:"${name}",extensions:{persistedQuery:{version:1,sha256Hash:"${hash}"}}}}}]);`;

describe(suite.title, () => {
  let h: Harness;
  const scripts = () => h.replay.requests.filter((r) => r.path.startsWith('/otatwo/_assets/')).length;
  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    const fillers = Array.from({ length: 30 }, (_, i) => `/otatwo/_assets/vendor-${i}.js`);
    h = await startHarness([
      { method: 'POST', path: '/otatwo/graphql', match: sends(NEW_HASH), body: offers },
      { method: 'POST', path: '/otatwo/graphql', body: [{ errors: [{ message: 'PersistedQueryNotFound' }] }] },
      {
        path: '/otatwo/',
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: `<html><head>${[...fillers.slice(0, 3), '/otatwo/_assets/property-offers.8f3a.js', ...fillers.slice(3)]
          .map((src) => `<script src="${src}"></script>`)
          .join('')}</head><body></body></html>`,
      },
      { path: '/otatwo/_assets/property-offers.8f3a.js', headers: { 'content-type': 'text/javascript' }, body: chunk(OP.name, NEW_HASH) },
      // the rental brand's site holds no script (its page is not there): nothing to find
      { method: 'POST', path: '/rentalone/graphql', body: [{ errors: [{ message: 'PersistedQueryNotFound' }] }] },
    ]);
  });
  afterAll(() => h?.close());

  it('the first call finds the current hash in the offers chunk, keeps it and is answered; the next sends it at once', async () => {
    const stay = { property_id: '9209612', check_in: S('2023-06-04'), nights: 10 };
    const r = await h.post('/v1/ota/otatwo/rooms', stay);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const posted = () => h.replay.requests.filter((q) => q.path === '/otatwo/graphql');
    expect(posted().map((q) => (sends(NEW_HASH)(q) ? 'new' : sends(OP.sha256)(q) ? 'built-in' : 'other'))).toEqual(['built-in', 'new']);
    // the preferred chunk is read first: one script fetch
    expect(scripts()).toBe(1);
    const kept = await new UpstreamIdentifierStore(h.svc.deps.sql).read('otatwo', OP.name);
    expect(kept).toMatchObject({ value: NEW_HASH, replaced: OP.sha256 });

    const again = await h.post('/v1/ota/otatwo/rooms', { ...stay, nights: 10, adults: 1 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(
      posted()
        .slice(2)
        .map((q) => sends(NEW_HASH)(q)),
    ).toEqual([true]);
    expect(scripts()).toBe(1);
  });

  it(`an operation no script names within ${MAX_GROUP_CHUNK_FETCHES} fetches keeps its refusal: a free 503 contract_changed`, async () => {
    const stay = { property_id: '9209612', check_in: S('2023-06-04'), nights: 10 };
    const r = await h.post('/v1/ota/rentalone', stay);
    expect([r.status, r.charged]).toEqual([503, '0']);
    expect(r.body.detail).toMatch(/persisted query not found/);
  });
});
