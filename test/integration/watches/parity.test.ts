import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { waitFor } from '../../helpers/wait.js';
import { SITEMINDER_FULL_CHANNEL, siteminderScaledRoute } from '../../fixtures/official-engine-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { BEDS24_AVAILABILITY, HOTEL_SITE_BEDS24, HOTEL_SITE_SITEMINDER, asRental, hotelSite } from '../../fixtures/ota-payloads.js';
import { shiftFrom } from '../../helpers/dates.js';

/** The recorded agency replies' stay (June 2023) moved ahead by whole weeks, the replies with it: a past stay is refused, and a watch of one ends. */
const S = shiftFrom('2023-06-04');

/**
 * Parity on the recorded agency payloads (the second and third OTA's propertyOffers, the rental
 * platform's single-unit copy of it) against the official site's booking-engine replies (built in
 * the engines' documented shapes, test/fixtures/README.md): the compare answer says on one basis
 * whether an agency undercuts the official site, and a compare watch with rule undercut fires when one does.
 */
const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('rate parity and undercut watches', OFFERS);
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

describe(suite.title, () => {
  let h: Harness;
  let site: string;
  /** The official site's quotes are the recorded-shape SiteMinder replies times this. */
  let officialFactor = 1;

  beforeAll(async () => {
    const offers = S.json(readFixtureJson(OFFERS));
    const cheaperRental = asRental(offers);
    cheaperRental.data.propertyOffers.singleUnitOffer.ratePlans[0].priceDetails[0].price.total.amount = 700.5;
    h = await startHarness(
      [
        { path: '/site/sm', body: HOTEL_SITE_SITEMINDER },
        { path: '/site/inn', body: HOTEL_SITE_BEDS24 },
        { path: '/site/full', body: hotelSite(`https://direct-book.com/properties/${SITEMINDER_FULL_CHANNEL}?locale=en`) },
        siteminderScaledRoute(() => officialFactor),
        {
          method: 'POST',
          path: '/engines/beds24/json/getAvailabilities',
          reply: (req) => {
            const { checkIn, checkOut } = JSON.parse(req.body);
            return { ...BEDS24_AVAILABILITY, checkIn, checkOut, lastNight: undefined };
          },
        },
        { method: 'POST', path: '/otathree/graphql', body: [offers] },
        { method: 'POST', path: '/otatwo/graphql', body: offers },
        { method: 'POST', path: '/rentalone/graphql', body: [cheaperRental] },
        { path: '/otafour/api/cronos/property/BelowFoldParams/GetSecondaryData', status: 500, body: 'down' },
      ],
      { WEBHOOK_SIGNING_SECRET: SECRET },
    );
    site = `${h.replay.url}/site`;
  });
  afterAll(() => h?.close());

  const stay = { check_in: S('2023-06-04'), nights: 10, adults: 2, currency: 'USD' };
  const agencies = {
    otatwo: { property_id: '9209612' },
    otathree: { property_id: '9209612' },
    rentalone: { property_id: '9209612' },
    otafour: { property_id: '2454174' },
  };

  it('compare: the official site whose engine states no currency is not comparable, with the reason; stated by the hotel, it is', async () => {
    const unstated = await h.post('/v1/ota/compare', { ...stay, sources: { official: { website: `${site}/sm` }, ...agencies } });
    expect(unstated.status).toBe(200);
    expect(unstated.body.parity).toMatchObject({
      status: 'not_comparable',
      reason: "the official site's booking engine does not state its currency: give sources.official.currency (the currency your site prices in)",
      basis: null,
      undercuts: [],
    });
    const stated = await h.post('/v1/ota/compare', { ...stay, sources: { official: { website: `${site}/sm`, currency: 'USD' }, ...agencies } });
    // the engine's gross quote includes taxes (its price basis says so); 380 is below every agency
    expect(stated.body.parity).toMatchObject({
      status: 'official_cheapest',
      reason: null,
      basis: { price: 'all_in_total', currency: 'USD', nights: 10, adults: 2, rooms: 1 },
      official: { source: 'official', total: 380, currency: 'USD', currency_stated_by: 'caller', taxes_included_stated_by: 'source' },
      undercuts: [],
      warnings: [],
    });
    // defect 3: the recorded agency replies price two rooms (their natural key says so): not compared with a one-room quote
    expect(stated.body.sources.find((s: any) => s.source === 'otatwo').offer.rooms).toBe(2);
    expect(stated.body.parity.excluded).toEqual(
      expect.arrayContaining([
        { source: 'otatwo', reason: 'priced for 2 rooms, not 1' },
        { source: 'otathree', reason: 'priced for 2 rooms, not 1' },
      ]),
    );
    expect(stated.body.parity.cheapest_agency).toMatchObject({ source: 'rentalone', total: 700.5 });
    expect(stated.body.parity.official.provenance.price_basis).toBe('stay_total_gross_as_quoted');
    // defect 2: the cheapest and the official offer agree with parity (the currency is the hotel's word, marked so)
    expect(stated.body.cheapest).toEqual({ source: 'official', total: 380, currency: 'USD' });
    expect(stated.body.offers.find((o: any) => o.source === 'official')).toMatchObject({
      currency: 'USD',
      currency_stated_by: 'caller',
      comparable: true,
      cheapest: true,
    });
    expect(stated.body.sources.find((s: any) => s.source === 'official').offer.currency).toBeNull();
    expect(unstated.body.offers.find((o: any) => o.source === 'official')).toMatchObject({ currency: null, currency_stated_by: null, comparable: false });
    expect(stated.body.parity.excluded).toEqual(expect.arrayContaining([{ source: 'otafour', reason: 'failed: UpstreamHttp500' }]));
    // a total whose taxes are not stated by the engine (beds24) needs the hotel's word too
    const beds = await h.post('/v1/ota/compare', { ...stay, sources: { official: { website: `${site}/inn`, currency: 'USD' }, ...agencies } });
    expect(beds.body.parity.status).toBe('not_comparable');
    expect(beds.body.parity.reason).toContain('does not state whether its total includes taxes and fees');
    // defect 3: the hotel's taxes_included: false against an engine quoting gross totals is said, not silently overruled
    const contradicted = await h.post('/v1/ota/compare', {
      ...stay,
      sources: { official: { website: `${site}/sm`, currency: 'USD', taxes_included: false }, rentalone: agencies.rentalone },
    });
    expect(contradicted.body.parity.status).toBe('official_cheapest');
    expect(contradicted.body.parity.warnings).toEqual([
      "you state taxes_included: false, but the booking engine states its total includes taxes and fees: the engine's statement is used",
    ]);
  });

  it('compare: an agency selling while the official site is sold out is flagged (defect 3)', async () => {
    const r = await h.post('/v1/ota/compare', { ...stay, sources: { official: { website: `${site}/full`, currency: 'USD' }, ...agencies } });
    expect(r.status).toBe(200);
    expect(r.body.sources.find((s: any) => s.source === 'official')).toMatchObject({ status: 'ok', offer: { available: false, total: null } });
    expect(r.body.parity).toMatchObject({ status: 'official_sold_out', basis: null, undercuts: [] });
    expect(r.body.parity.selling_while_sold_out.map((s: any) => [s.source, s.total])).toEqual([
      ['rentalone', 700.5],
      ['otatwo', 782.6],
      ['otathree', 782.6],
    ]);
    expect(r.body.parity.reason).toBe('the official site offers nothing for this stay while rentalone, otatwo, otathree still sell it');
    expect(r.body.parity.selling_while_sold_out[0].provenance.observation_id).toMatch(/^rateobs_/);
  });

  it('compare: an official price above the agencies is undercut — which agency, by how much, cheapest first', async () => {
    officialFactor = 3;
    try {
      const r = await h.post('/v1/ota/compare', { ...stay, sources: { official: { website: `${site}/sm`, currency: 'USD' }, ...agencies } });
      expect(r.body.parity.status).toBe('undercut');
      expect(r.body.parity.official.total).toBe(1140);
      const agencyTotals = Object.fromEntries(r.body.offers.filter((o: any) => o.source !== 'official').map((o: any) => [o.source, o.total]));
      expect(r.body.parity.undercuts.map((u: any) => [u.source, u.total, u.amount, u.pct])).toEqual(
        r.body.parity.undercuts.map((u: any) => [
          u.source,
          agencyTotals[u.source],
          Math.round((1140 - agencyTotals[u.source]) * 100) / 100,
          Math.round(((1140 - agencyTotals[u.source]) / 1140) * 1000) / 10,
        ]),
      );
      expect(r.body.parity.undercuts[0]).toMatchObject({ source: 'rentalone', total: 700.5, amount: 439.5, pct: 38.6 });
      expect(r.body.parity.cheapest_agency).toMatchObject({ source: 'rentalone', total: 700.5 });
      for (const u of r.body.parity.undercuts) expect(u.provenance.observation_id).toMatch(/^rateobs_/);
    } finally {
      officialFactor = 1;
    }
  });

  it('a compare watch whose every source fails has a failed check: nothing recorded or charged, last_error listing each reason, retried', async () => {
    const created = await h.post('/v1/watches', {
      target: { operation: 'compare', ...stay, sources: { otafour: agencies.otafour } },
      rule: { type: 'any_change' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const failed = await waitFor(
      async () => {
        const w = (await h.get(`/v1/watches/${id}`)).body;
        return w.last_error ? w : null;
      },
      { what: 'the first check to fail' },
    );
    expect(failed.last_error).toMatch(/^req_\w+: every source failed: otafour: UpstreamHttp500 \(502\)$/);
    expect(failed).toMatchObject({ checks_total: 0, credits_spent: 0, periods_missed: 0 });
    const asked = await h.post(`/v1/watches/${id}/check`, {});
    expect([asked.status, asked.body.retryable]).toEqual([502, true]);
    expect((await h.get(`/v1/watches/${id}`)).body).toMatchObject({ checks_total: 0, credits_spent: 0 });
  });

  it('a compare watch with rule undercut: quiet while the official site is cheapest, fires when an agency goes below it', async () => {
    const target = {
      operation: 'compare',
      ...stay,
      sources: { official: { website: `${site}/sm`, currency: 'USD' }, otatwo: agencies.otatwo, rentalone: agencies.rentalone },
    };
    const created = await h.post('/v1/watches', { target, rule: { type: 'undercut' }, name: 'parity' });
    expect(created.status).toBe(201);
    expect(created.body.credits_per_check).toBe(20);
    const id = created.body.id;
    const first = await waitFor(
      async () => {
        const w = (await h.get(`/v1/watches/${id}`)).body;
        return w.checks_total ? w : null;
      },
      { what: 'the first check' },
    );
    expect(first.checks[0]).toMatchObject({ fired: false, credits: 20, parity: { status: 'official_cheapest' } });
    // each source's stay is a stored rate of the account, under the source's own property id
    const rates = await h.get(S.text('/v1/rates?property_token=otatwo:9209612&los=10&from=2023-06-04&to=2023-06-04'));
    expect(rates.body.rates).toHaveLength(1);
    expect(rates.body.rates[0].provenance.source).toBe('otatwo');

    officialFactor = 3;
    try {
      const checked = await h.post(`/v1/watches/${id}/check`, {});
      expect(checked.status).toBe(200);
      expect(checked.charged).toBe('20');
      expect(checked.body.check).toMatchObject({ fired: true, parity: { status: 'undercut' } });
      expect(checked.body.check.changes.find((c: any) => c.key === 'official')).toMatchObject({ before: { total: 380 }, after: { total: 1140 } });
      const data = checked.body.event.data;
      expect(data.reason).toBe('undercut on the official site: rentalone by 439.5 USD (38.6%)');
      expect(data.parity.undercuts.map((u: any) => u.source)).toEqual(['rentalone']);
      // defect 6: the change that made it fire is the official price that moved; agencies whose price stayed put are not listed
      expect(data.changes.map((c: any) => [c.key, c.before.total, c.after.total, c.delta])).toEqual([['official', 380, 1140, 760]]);
      expect(data.changes[0].after.provenance.observation_id).toMatch(/^rateobs_/);
      // the official site's price counts in the currency the hotel states for it
      expect(data.before.cheapest).toMatchObject({ key: 'official', total: 380, currency: 'USD' });
      // still undercut by the same agencies: nothing new to tell
      const again = await h.post(`/v1/watches/${id}/check`, {});
      expect(again.body.check).toMatchObject({ fired: false, parity: { status: 'undercut' } });
    } finally {
      officialFactor = 1;
    }
  });
});
