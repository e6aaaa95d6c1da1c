import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { crownDetail, LONDON_TOKENS, page, PAGES, withData } from '../../fixtures/hotels-payloads.js';

const [CROWN, MATCHED] = LONDON_TOKENS;
const START = '2027-04-01';
const suite = fixtureSuite('calendar with basis mainstream and verify_sources (replayed calendar RPC and offers page)', PAGES.london);

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    const offersPage = withData(page(PAGES.london), crownDetail());
    replay = await startReplayServer([
      // calendar rows built on a real GBP rate block of the London page: 190 + day of month,
      // or exactly the cheapest major OTA's 202.58 for the MATCHED property
      calendarRoute((date, los, token) => (token === MATCHED ? 202.58 : (190 + Number(date.slice(8))) * los), {}, PAGES.london),
      // the offers page: Booking.com 202.58, Agoda 210.70, Expedia 216, the official site 231, Bluepillow 210 (an aggregator)
      { path: '/travel/search', query: { qs: encodePropertyQs(CROWN) }, body: offersPage },
      { path: '/travel/search', query: { qs: encodePropertyQs(MATCHED) }, body: offersPage },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key({ plan: 'starter' })).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('basis mainstream annotates every night with the cheapest major OTA and leaves rate_total alone', async () => {
    const res = await svc.call('/v1/calendar', {
      key,
      body: { token: CROWN, start: START, days: 3, market: 'GB', basis: 'mainstream', probe_min_stay: false },
    });
    expect(res.status).toBe(200);
    const cal = (await res.json()) as any;
    expect(cal.basis_applied).toBe('mainstream:annotated');
    expect(cal.rates.map((r: any) => [r.currency, r.rate_total, r.mainstream_source, r.rate_mainstream_total, r.aggregator_discount])).toEqual([
      ['GBP', 191, 'booking', 202.58, 11.58],
      ['GBP', 192, 'booking', 202.58, 10.58],
      ['GBP', 193, 'booking', 202.58, 9.58],
    ]);
    expect(res.headers.get('x-credits-charged')).toBe(String(5 + 3 * 3));
    expect(replay.requests.filter((r) => r.query.qs === encodePropertyQs(CROWN))).toHaveLength(3);
  });

  it('reports calendar-already-matched when the major OTAs price every night exactly as the calendar', async () => {
    const res = await svc.call('/v1/calendar', {
      key,
      body: { token: MATCHED, start: START, days: 2, market: 'GB', basis: 'mainstream', probe_min_stay: false },
    });
    const cal = (await res.json()) as any;
    expect(cal.basis_applied).toBe('mainstream:calendar-already-matched');
    expect(cal.rates.map((r: any) => r.aggregator_discount)).toEqual([0, 0]);
  });

  it('reports the requested currency beside the one the upstream priced in', async () => {
    const res = await svc.call('/v1/calendar', {
      key,
      body: { token: CROWN, start: START, days: 1, market: 'GB', currency: 'EUR', basis: 'mainstream', probe_min_stay: false },
    });
    const cal = (await res.json()) as any;
    // the replayed calendar answers in GBP whatever is asked: requested EUR, returned GBP, flagged
    expect(cal.rates[0].provenance).toMatchObject({ requested_currency: 'EUR', returned_currency: 'GBP' });
    expect(cal.validation.currency_mismatch).toBe(1);
  });

  it('verify_sources spot-checks evenly spread nights against the lowest offer, aggregators included', async () => {
    const res = await svc.call('/v1/calendar', { key, body: { token: CROWN, start: START, days: 10, market: 'GB', verify_sources: 2, probe_min_stay: false } });
    expect(res.status).toBe(200);
    const cal = (await res.json()) as any;
    expect(cal.source_check).toMatchObject({ requested: 2, checked: 2, matched: 0 });
    expect(cal.source_check.nights).toEqual([
      { date: '2027-04-03', calendar_total: 193, offers_lowest_total: 202.58, offers_lowest_source: 'booking', delta: 9.58, match: false },
      { date: '2027-04-08', calendar_total: 198, offers_lowest_total: 202.58, offers_lowest_source: 'booking', delta: 4.58, match: false },
    ]);
    expect(res.headers.get('x-credits-charged')).toBe(String(5 + 3 * 2));
  });

  it('a mainstream night whose offers page fails is reported and not charged', async () => {
    const res = await svc.call('/v1/calendar', {
      key,
      body: { token: 'ChkNoOffersPageHere', start: START, days: 2, basis: 'mainstream', probe_min_stay: false },
    });
    expect(res.status).toBe(200);
    const cal = (await res.json()) as any;
    expect(cal.rates.every((r: any) => typeof r.mainstream_error === 'string' && r.rate_mainstream_total === null)).toBe(true);
    expect(res.headers.get('x-credits-charged')).toBe('5');
  });
});
