import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../../fixtures/hotels-payloads.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded page's stay (April 2026) moved ahead by whole weeks: a past stay is refused, and a watch of one ends. */
const S = shiftFrom('2026-04-15');

/**
 * A watch of one stay's offers (POST /v1/offers as its target) on the replayed property page:
 * each seller is observed with its provenance, the stay's cheapest seller is a stored rate of the
 * account, and the `available` rule fires once, when the stay is first seen bookable.
 */
const CROWN = LONDON_TOKENS[0];
const GONE = LONDON_TOKENS[1];
const suite = fixtureSuite('a watch of a stay’s offers (replayed property page)', PAGES.london);

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/travel/search', query: { qs: encodePropertyQs(CROWN) }, body: withData(page(PAGES.london), crownDetail()) },
      // a property the upstream no longer knows: its page answers 404
      { path: '/travel/search', query: { qs: encodePropertyQs(GONE) }, status: 404, body: '<html><body>Not Found</body></html>' },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key({ plan: 'starter' })).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('observes every seller, stores the cheapest as the stay’s rate, fires `available` once', async () => {
    const target = { operation: 'offers', property_token: CROWN, check_in: S('2026-04-15'), nights: 7, market: 'GB' };
    const res = await svc.call('/v1/watches', { key, body: { target, rule: { type: 'available' } } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as any;
    expect(created.credits_per_check).toBe(3);
    const w = await waitFor(
      async () => {
        const r = (await (await svc.call(`/v1/watches/${created.id}`, { key })).json()) as any;
        return r.checks_total ? r : null;
      },
      { what: 'the first check' },
    );
    const [first] = w.checks;
    expect(first).toMatchObject({ fired: true, credits: 3, currency: 'GBP' });
    const offers = (await (await svc.call('/v1/offers', { key, body: { ...target, operation: undefined, token: undefined } })).json()) as any;
    const offersName = offers.name;
    expect(offersName).toBeTruthy();
    const cheapest = offers.offers.filter((o: any) => o.total !== null).sort((a: any, b: any) => a.total - b.total)[0];
    expect(first.cheapest).toMatchObject({ key: cheapest.source, total: cheapest.total, currency: 'GBP' });
    expect(first.cheapest.provenance.source_kind).toBe(cheapest.provenance.source_kind);
    const events = (await (await svc.call(`/v1/watches/${created.id}/events`, { key })).json()) as any;
    expect(events.events).toHaveLength(1);
    expect(events.events[0].data.reason).toMatch(/^the stay became bookable \(\d+ sellers\)$/);
    // defect 10: the event names the hotel, not only its token
    expect(events.events[0].data.hotel).toEqual({ property_token: CROWN, name: offersName });

    const rates = (await (
      await svc.call(S.text(`/v1/rates?property_token=${CROWN}&market=GB&currency=GBP&los=7&from=2026-04-15&to=2026-04-15`), { key })
    ).json()) as any;
    expect(rates.rates).toHaveLength(1);
    expect(rates.rates[0]).toMatchObject({ date: S('2026-04-15'), rate_total: cheapest.total, seller: cheapest.source, nights: 7, check_out: S('2026-04-22') });

    const again = (await (await svc.call(`/v1/watches/${created.id}/check`, { key, method: 'POST' })).json()) as any;
    expect(again.check).toMatchObject({ fired: false, changed: 0, stored: { rows_written: 0, rows_changed: 0 } });
  });

  it('a watch on a property the source says is gone (its page answers 404) pauses with reason gone after one attempt, charged nothing', async () => {
    // the replay knows only CROWN's page: another property's page is a 404, the failure table's not_found
    const target = { operation: 'offers', property_token: GONE, check_in: S('2026-04-15'), nights: 7, market: 'GB' };
    const res = await svc.call('/v1/watches', { key, body: { target, rule: { type: 'available' } } });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const paused = await waitFor(
      async () => {
        const r = (await (await svc.call(`/v1/watches/${id}`, { key })).json()) as any;
        return r.status === 'paused' ? r : null;
      },
      { what: 'the watch to pause' },
    );
    expect(paused).toMatchObject({ paused_reason: 'gone', next_check_at: null, checks_total: 0, credits_spent: 0, periods_missed: 0 });
    expect(paused.last_error).toMatch(/^req_\w+: property not found$/);
    // defect 4: it is told, by a watch.paused event naming the hotel (delivered like watch.triggered)
    const events = (await (await svc.call(`/v1/watches/${id}/events`, { key })).json()) as any;
    expect(events.events).toHaveLength(1);
    expect(events.events[0]).toMatchObject({
      type: 'watch.paused',
      check_id: null,
      data: { reason: 'gone', detail: paused.last_error, hotel: { property_token: GONE, name: null }, watch: { id, status: 'paused' } },
    });
    const record = (await (await svc.call(`/v1/requests/${events.events[0].request_id}`, { key })).json()) as any;
    expect(record).toMatchObject({ method: 'SCHEDULE', status: 404, credits: 0 });
    // a check asked for says the same, charged nothing
    const asked = await svc.call(`/v1/watches/${id}/check`, { key, method: 'POST' });
    expect([asked.status, ((await asked.json()) as any).detail]).toEqual([404, 'property not found']);
    expect((await (await svc.call(`/v1/watches/${id}`, { key })).json()) as any).toMatchObject({ checks_total: 0, credits_spent: 0 });
    // the caller may resume it (the property came back, or to try again)
    const resumed = (await (await svc.call(`/v1/watches/${id}`, { key, method: 'PATCH', body: { status: 'active' } })).json()) as any;
    expect(resumed).toMatchObject({ status: 'active', paused_reason: null });
  });
});
