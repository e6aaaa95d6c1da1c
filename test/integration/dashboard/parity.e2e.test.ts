import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountForSignIn, createDashboardAccount } from '../../../src/doors/dashboard/accounts.js';
import { createAccountKey } from '../../../src/doors/dashboard/api-key.js';
import { addDays, nightsBetween } from '../../../src/domain/dates.js';
import { BROWSER_SUITE, DESKTOP, PHONE, dashboardPageProblems, hasChromium, launchChromium, screenshot, skippedNote } from '../../helpers/browser.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { firstSignIn } from '../../helpers/dashboard-sign-in.js';
import { shiftFrom, shiftJson } from '../../helpers/dates.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { REPLAY_URL, startHarness, type Harness } from '../../helpers/ota-harness.js';
import { waitFor } from '../../helpers/wait.js';
import { siteminderReply } from '../../fixtures/official-engine-payloads.js';
import { HOTEL_SITE_SITEMINDER, asOneRoom, asRental } from '../../fixtures/ota-payloads.js';

/**
 * The parity page in headless Chromium at 1280 px and 390 px: a competitor set's parity range
 * (the own hotel's official site, the SiteMinder engine's replies in their documented shape times a
 * factor per check-in date, against the recorded agency replies moved to each stay) as GET
 * /v1/compsets/{id}/parity/{range_id} answers it: per agency the counts and shares, every cell of
 * the date × length-of-stay grid, every disparity with both prices' provenance, the agencies selling
 * while the site is sold out, the metasearch-displayed price apart; the CSV download equal to the
 * API's; nothing wider than the screen, contrast at least 4.5:1, no serious axe-core finding;
 * another account's set or range is a 404 page.
 */
const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('the parity page in headless Chromium', OFFERS);
const RECORDED = '2023-06-04';
const START = shiftFrom(RECORDED)(RECORDED);
const DAYS = 6;
const EMAIL = 'revenue-parity@example.com';
const PASSWORD = 'a long passphrase of my own';
const OWN = 'dash-parity-own-01';
/** The metasearch's displayed price of every stay (its calendar), reported apart. */
const DISPLAYED = 650;
/**
 * The official quotes (380 in the recorded shape) times this per check-in date: 760 against the
 * rental's 700.50 (a disparity), 703 (a rounding gap: a meet), sold out (both agencies selling),
 * 380 and 570 (the site cheapest), 836 (both agencies under it).
 */
const FACTORS: (number | null)[] = [2, 703 / 380, null, 1, 2.2, 1.5];
const factorOf = (date: string) => {
  const factor = FACTORS[nightsBetween(START, date)];
  return factor === undefined ? 1 : factor;
};

/** The recorded group reply with its stay moved to the check-in date the request asks for. */
function movedTo(payload: unknown, body: string): unknown {
  const asked = JSON.parse(body)[0].variables.searchCriteria.primary.dateRange.checkInDate;
  const pad = (n: number) => String(n).padStart(2, '0');
  return shiftJson(payload, nightsBetween(RECORDED, `${asked.year}-${pad(asked.month)}-${pad(asked.day)}`));
}

/** How the page writes a number, a signed difference and a length of stay (heat-map.ts). */
const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
const signed = (v: number) => (v > 0 ? `+${num(v)}` : v < 0 ? `−${num(-v)}` : '±0');

/** What a grid cell must say of a stay of the API's answer, line by line. */
function expectedLines(s: any): string[] {
  const own = s.official ? `${num(s.official.total)} ${s.official.currency}` : s.status === 'official_sold_out' ? 'sold out' : '—';
  const verdicts = s.agencies.map((a: any) =>
    ['win', 'meet', 'loss'].includes(a.outcome)
      ? `${a.source} ${a.outcome} ${signed(-a.amount)} (${signed(-a.pct)} %)`
      : a.outcome === 'selling_while_sold_out'
        ? `${a.source} sells at ${num(a.total)}${a.currency ? ` ${a.currency}` : ''}`
        : `${a.source} not compared`,
  );
  const shown = s.metasearch
    ? `metasearch shows ${num(s.metasearch.total)}${s.metasearch.currency ? ` ${s.metasearch.currency}` : ''}`
    : 'metasearch: no price';
  return [own, ...verdicts, shown];
}

describe.skipIf(!hasChromium)(`${suite.title}${skippedNote}`, BROWSER_SUITE, () => {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key: string;
  let temporary: string;
  let setId: string;
  let range: any;

  beforeAll(async () => {
    const offers = readFixtureJson(OFFERS);
    const rental = asRental(offers);
    rental.data.propertyOffers.singleUnitOffer.ratePlans[0].priceDetails[0].price.total.amount = 700.5;
    h = await startHarness(
      [
        { path: '/site/sm', body: HOTEL_SITE_SITEMINDER },
        {
          method: 'POST',
          path: '/engines/siteminder/api/graphql',
          reply: (q) => {
            const reply = JSON.parse(JSON.stringify(siteminderReply(q.body)));
            const factor = factorOf(JSON.parse(q.body).variables.checkInDate);
            const quote = reply.data?.quote;
            if (!quote?.price) return reply;
            // sold out: every rate quotes as the full house's does (an availability error)
            if (factor === null)
              return {
                data: { quote: { ...quote, price: { net: 0, tax: 0, gross: 0, amount: 0 }, errors: [{ type: 'AVAILABILITY', key: 'room_unavailable' }] } },
              };
            for (const k of ['net', 'tax', 'gross', 'amount']) quote.price[k] = Math.round(Number(quote.price[k]) * factor * 100) / 100;
            return reply;
          },
        },
        { method: 'POST', path: '/rentalone/graphql', reply: (q) => [movedTo(rental, q.body)] },
        { method: 'POST', path: '/otatwo/graphql', reply: (q) => movedTo(asOneRoom(offers), q.body) as object },
        calendarRoute((_date, los, token) => (token === OWN && los === 10 ? DISPLAYED : null)),
      ],
      { UPSTREAM_METASEARCH_URL: REPLAY_URL, WORKER_CONCURRENCY: '2' },
    );
    temporary = (await createDashboardAccount(h.svc.deps.sql, { email: EMAIL, plan: 'starter', name: 'Revenue team' })).temporaryPassword;
    const outcome = await createAccountKey(h.svc.deps.sql, (await accountForSignIn(h.svc.deps.sql, EMAIL))!);
    if (!outcome.ok) throw new Error(outcome.reason);
    key = outcome.key.key;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const api = async (path: string, body?: unknown) => {
    const res = await h.svc.call(path, { key, body, method: body === undefined ? 'GET' : 'POST' });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as any;
  };
  const finished = (pollUrl: string) =>
    waitFor(
      async () => {
        const r = await api(pollUrl);
        return r.finished_at ? r : null;
      },
      { what: pollUrl, timeoutMs: 120_000 },
    );

  it('signs in; the set links to its parity page, which shows the newest range, every grid cell the API’s stay', async () => {
    const set = await api('/v1/compsets', {
      name: 'Riverside',
      own: { property_token: OWN, name: 'Example Inn' },
      competitors: [{ property_token: 'dash-parity-rival-01', name: 'Rival Inn' }],
    });
    setId = set.id;
    const sources = {
      official: { website: `${h.replay.url}/site/sm`, currency: 'USD' },
      rentalone: { property_id: '9209612' },
      otatwo: { property_id: '9209612' },
    };
    await finished((await api(`/v1/compsets/${setId}/parity`, { start: START, days: 2, los: [10], sources, tolerance_pct: 0 })).poll_url);
    range = await finished((await api(`/v1/compsets/${setId}/parity`, { start: START, days: DAYS, los: [10], sources })).poll_url);
    expect(range).toMatchObject({ status: 'succeeded', items_failed: 0 });

    await firstSignIn(page, h.svc.url, { email: EMAIL, temporary, password: PASSWORD });
    await page.goto(`${h.svc.url}/dashboard/compsets/${setId}`);
    await page.click('text=Parity of your site against the agencies');
    await page.waitForURL(`**/dashboard/compsets/${setId}/parity`);
    await expect(page.locator('header nav a.active').textContent()).resolves.toBe('Comp sets');
    // two ranges: a tab each, the newest current
    await expect(page.locator('nav.tabs a').count()).resolves.toBe(2);
    await expect(page.locator('nav.tabs a[aria-current=page]').getAttribute('href')).resolves.toBe(`/dashboard/compsets/${setId}/parity/${range.id}`);

    const rows = page.locator('table.heat tbody tr');
    await expect(rows.count()).resolves.toBe(DAYS);
    await expect(page.locator('table.heat thead th').allTextContents()).resolves.toEqual(['Check-in', '10 nights']);
    const shown = await rows.evaluateAll((trs) =>
      trs.flatMap((tr) =>
        [...tr.querySelectorAll('td')].map((td) => ({
          date: tr.querySelector('th')!.textContent!.trim().slice(-10),
          tint: td.className,
          lines: [...td.querySelectorAll('span')].map((s) => s.textContent!.trim()),
        })),
      ),
    );
    expect(shown).toHaveLength(range.stays.length);
    const tints: Record<string, string> = {};
    shown.forEach((cell, i) => {
      const s = range.stays[i];
      expect(cell.date).toBe(s.date);
      expect(cell.lines).toEqual(expectedLines(s));
      tints[s.date] = cell.tint;
    });
    // the worst verdict tints the cell: a disparity, sold out while selling, a meet, the site cheapest
    expect(Object.values(tints)).toEqual(['h-p3', 'h-0', 'h-p2', 'h-n2', 'h-p3', 'h-n2']);
    // the metasearch's displayed price is in every cell, apart from the agencies
    expect(shown.every((c) => c.lines.at(-1) === `metasearch shows ${DISPLAYED} EUR`)).toBe(true);
  });

  it('shows per agency the counts and shares, every disparity with both prices’ provenance, the agencies selling while the site is sold out', async () => {
    const agencies = await page
      .locator('table.agencies tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    const share = (n: number, pct: number | null) => (pct === null ? String(n) : `${n} (${num(pct)} %)`);
    expect(agencies).toEqual(
      range.agencies.map((a: any) => [
        a.source,
        share(a.win, a.win_pct),
        share(a.meet, a.meet_pct),
        share(a.loss, a.loss_pct),
        String(a.compared),
        String(a.not_compared),
        String(a.selling_while_sold_out),
      ]),
    );
    // the planted disparities: rentalone at 760 and 836, otatwo at 836
    expect(range.disparities.map((d: any) => [d.date, d.source])).toEqual([
      [START, 'rentalone'],
      [addDays(START, 4), 'otatwo'],
      [addDays(START, 4), 'rentalone'],
    ]);
    const disparities = await page
      .locator('table.disparities tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.label!, td.textContent!.replace(/\s+/g, ' ').trim()]))),
      );
    expect(disparities).toHaveLength(range.disparities.length);
    disparities.forEach((row, i) => {
      const d = range.disparities[i];
      expect(row.Stay).toBe(`${d.date} → ${d.check_out} (10 nights)`);
      expect(row.Agency).toBe(d.source);
      expect(row['Under yours']).toBe(`${signed(-d.amount)} (${signed(-d.pct)} %)`);
      expect(row.Basis).toBe('all in total, USD, 10 nights, 2 adults, 1 room');
      // each price with where it came from
      expect(row['Your site']).toContain(`${num(d.official_total)} USD`);
      expect(row['Your site']).toContain(d.official_provenance.observation_id);
      expect(row['Agency price']).toContain(`${num(d.agency_total)} USD`);
      expect(row['Agency price']).toContain(d.agency_provenance.observation_id);
      expect(row['Agency price']).toContain(d.agency_provenance.source);
      expect(row['Check it']).toContain('POST /v1/ota/compare');
    });
    const soldOut = await page
      .locator('table.soldout tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim())));
    expect(soldOut.map((r) => r.slice(0, 2))).toEqual(range.selling_while_sold_out.map((x: any) => [`${x.date} → ${x.check_out} (10 nights)`, x.source]));
    soldOut.forEach((r, i) => expect(r[2]).toContain(range.selling_while_sold_out[i].provenance.observation_id));
  });

  it('downloads the CSV the API answers; another account’s set or range is a 404 page', async () => {
    const href = await page.locator('a', { hasText: 'Download CSV' }).getAttribute('href');
    expect(href).toBe(`/dashboard/compsets/${setId}/parity/${range.id}/parity.csv`);
    const download = await page.request.get(h.svc.url + href);
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const fromApi = await (await h.svc.call(`${range.poll_url}?format=csv`, { key })).text();
    expect(await download.text()).toBe(fromApi);
    expect(fromApi.split('\r\n').filter(Boolean)).toHaveLength(1 + DAYS * 2);

    const foreignSet = await h.post('/v1/compsets', {
      name: 'Not yours',
      own: { property_token: 'dash-parity-foreign', name: 'Theirs' },
      competitors: [{ property_token: OWN, name: 'Example Inn' }],
    });
    expect((await page.goto(`${h.svc.url}/dashboard/compsets/${foreignSet.body.id}/parity`))!.status()).toBe(404);
    expect((await page.goto(`${h.svc.url}/dashboard/compsets/${setId}/parity/parityrange_nope`))!.status()).toBe(404);
    expect((await page.goto(`${h.svc.url}/dashboard/compsets/${foreignSet.body.id}/parity/${range.id}/parity.csv`))!.status()).toBe(404);
  });

  for (const [viewport, size] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`at ${viewport} px: nothing wider than the screen, every cell inside its card, contrast at least 4.5:1, no serious axe finding`, async () => {
      const view = await (await browser.newContext({ viewport: size, storageState: await context.storageState() })).newPage();
      await view.goto(`${h.svc.url}/dashboard/compsets/${setId}/parity`);
      const problems = await dashboardPageProblems(view, 'parity');
      await screenshot(view, `dashboard-parity-${viewport}`);
      // the disparities' checks opened (their bodies are the longest text on the page)
      for (const d of await view.locator('table.disparities details').all()) await d.evaluate((el) => el.setAttribute('open', ''));
      problems.push(...(await dashboardPageProblems(view, 'parity, checks open')));
      expect(problems).toEqual([]);
      await view.context().close();
    });
  }
});
