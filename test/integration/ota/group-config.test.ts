import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/sources/shared/group-graphql.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { REPLAY_URL, startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded stays moved ahead by whole weeks (past dates are refused); replies that state their stay are served moved the same way. */
const S = shiftFrom('2023-06-01');

const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('travel-group points of sale and query hashes supplied by the operator', OFFERS);

// Values an operator would take from the site; these are made up for the test.
const CA_THREE = { siteId: 300000777, tpid: 3777, eapid: 77, locale: 'en_CA' };
const AU_TWO = { siteId: 777, tpid: 777, eapid: 0, locale: 'en_AU' };
const ROTATED = 'ab'.repeat(32);

describe(suite.title, () => {
  let h: Harness;
  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    // The AU point of sale goes to its own site (on the replay server).
    const replayRoutes = [
      { method: 'POST' as const, path: '/otathree/graphql', body: [offers] },
      { method: 'POST' as const, path: '/otatwo/graphql', body: offers },
      { method: 'POST' as const, path: '/otatwo-au/graphql', body: offers },
    ];
    h = await startHarness(replayRoutes, {
      GROUP_POS_CONTEXTS: JSON.stringify({ otathree: { CA: CA_THREE }, otatwo: { AU: { ...AU_TWO, baseUrl: `${REPLAY_URL}/otatwo-au/` } } }),
      GROUP_QUERY_HASHES: JSON.stringify({ [OPERATIONS.roomsAndRates.name]: ROTATED }),
    });
  });
  afterAll(() => h?.close());

  it('a configured market is served with its context and its currency; the rotated hash is sent', async () => {
    const ca = await h.post('/v1/ota/otathree', { property_id: '9209612', check_in: S('2023-06-04'), nights: 10, market: 'CA' });
    expect(ca.status).toBe(200);
    expect(ca.body.search_parameters).toMatchObject({ market: 'CA', currency: 'CAD' });
    const sent = JSON.parse(h.replay.requests.find((q) => q.path === '/otathree/graphql')!.body)[0];
    expect(sent.variables.context).toMatchObject({ ...CA_THREE, currency: 'CAD' });
    expect(sent.extensions.persistedQuery.sha256Hash).toBe(ROTATED);

    const au = await h.post('/v1/ota/otatwo/rooms', { property_id: '9209612', check_in: S('2023-06-04'), nights: 10, market: 'AU' });
    expect(au.status).toBe(200);
    expect(au.body).toMatchObject({ market: 'AU', requested_currency: 'AUD' });
    // sent to the point of sale's own site, not the brand's host
    expect(h.replay.requests.some((q) => q.path === '/otatwo/graphql')).toBe(false);
    const sentTwo = JSON.parse(h.replay.requests.find((q) => q.path === '/otatwo-au/graphql')!.body)[0];
    expect(sentTwo.variables.context).toMatchObject({ ...AU_TWO, currency: 'AUD' });
    expect(sentTwo.variables.context.baseUrl).toBeUndefined();
  });

  it('markets without a context still answer 503 naming the setting; the sources list follows the configuration', async () => {
    const de = await h.post('/v1/ota/otatwo/rooms', { property_id: '9209612', check_in: S('2023-06-04'), market: 'DE' });
    expect(de.status).toBe(503);
    expect(de.body.detail).toContain('GROUP_POS_CONTEXTS');
    expect(de.charged).toBe('0');
    const sources = await h.get('/v1/ota/sources');
    const by = Object.fromEntries(sources.body.sources.map((s: any) => [s.source, s]));
    expect(by.otathree).toMatchObject({ markets: ['US', 'CA'], status: 'served', notes: [] });
    expect(by.otatwo.markets).toEqual(['AU', 'EU', 'GB', 'US']);
    expect(by.otatwo.status).toBe('partial');
    expect(by.otatwo.notes[0]).toMatch(/^CA, DE, FR, IE, IT, NL, NZ answer 503/);
  });
});
