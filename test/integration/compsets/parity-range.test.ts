import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, nightsBetween } from '../../../src/domain/dates.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { shiftFrom, shiftJson } from '../../helpers/dates.js';
import { REPLAY_URL, startHarness, type Harness } from '../../helpers/ota-harness.js';
import { waitFor } from '../../helpers/wait.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import { TOOLS } from '../../../tools/index.js';
import { runCheck } from '../../../src/core/watches/check.js';
import { newId } from '../../../src/domain/ids.js';
import { keyById } from '../../../src/platform/keys.js';
import { rangeOfRequest } from '../../../src/platform/parity-ranges.js';
import { findWatch } from '../../../src/platform/watches.js';
import { siteminderReply } from '../../fixtures/official-engine-payloads.js';
import { HOTEL_SITE_SITEMINDER, asOneRoom, asRental } from '../../fixtures/ota-payloads.js';

/*
 * Parity over a range through real pg-boss workers: the own hotel's official site (the SiteMinder
 * engine's replies in its documented shape, test/fixtures/README.md) against the recorded agency
 * replies (the rental platform's and the second OTA's propertyOffers, their dates moved to each
 * stay asked), for three check-in dates of 10 nights (the recording's stay length). Planted: a
 * disparity on the first date (official 760 against the rental's 700.50), a currency-rounding gap
 * on the second (official 703 against 700.50: 0.36 %, under the default 1 % tolerance) and a
 * sell-out of the official site on the third while both agencies sell.
 */
const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const suite = fixtureSuite('parity over a range', OFFERS);
const RECORDED = '2023-06-04';
const S = shiftFrom(RECORDED);
const START = S(RECORDED);
const [DISPARITY, ROUNDING, SOLD_OUT] = [0, 1, 2].map((n) => addDays(START, n));
const OWN = 'ownhotel-parity-0001';
/** The metasearch's displayed price of every stay (its calendar), reported apart. */
const DISPLAYED = 650;

/** The official engine's quotes are the recorded-shape replies times this, per check-in date (null: sold out). */
const officialFactor: Record<string, number | null> = { [DISPARITY]: 2, [ROUNDING]: 703 / 380, [SOLD_OUT]: null };

/** The recorded group reply with its stay moved to the check-in date the request asks for. */
function movedTo(payload: unknown, body: string): unknown {
  const asked = JSON.parse(body)[0].variables.searchCriteria.primary.dateRange.checkInDate;
  const pad = (n: number) => String(n).padStart(2, '0');
  return shiftJson(payload, nightsBetween(RECORDED, `${asked.year}-${pad(asked.month)}-${pad(asked.day)}`));
}

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

describe(suite.title, () => {
  let h: Harness;
  let hook: http.Server;
  let hookUrl: string;
  const received: { headers: Record<string, string>; body: string }[] = [];
  let setId: string;
  let range: any;
  const agencies = { rentalone: { property_id: '9209612' }, otatwo: { property_id: '9209612' } };
  const sources = () => ({ official: { website: `${h.replay.url}/site/sm`, currency: 'USD' }, ...agencies });

  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
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
            const factor = officialFactor[JSON.parse(q.body).variables.checkInDate];
            const quote = reply.data?.quote;
            if (!quote?.price) return reply;
            // sold out: every rate quotes as the full house's does (an availability error)
            if (factor === null)
              return {
                data: { quote: { ...quote, price: { net: 0, tax: 0, gross: 0, amount: 0 }, errors: [{ type: 'AVAILABILITY', key: 'room_unavailable' }] } },
              };
            for (const k of ['net', 'tax', 'gross', 'amount']) quote.price[k] = Math.round(Number(quote.price[k]) * factor! * 100) / 100;
            return reply;
          },
        },
        { method: 'POST', path: '/rentalone/graphql', reply: (q) => [movedTo(rental, q.body)] },
        { method: 'POST', path: '/otatwo/graphql', reply: (q) => movedTo(asOneRoom(offers), q.body) as object },
        calendarRoute((_date, los, token) => (token === OWN && los === 10 ? DISPLAYED : null)),
      ],
      { UPSTREAM_METASEARCH_URL: REPLAY_URL, WORKER_CONCURRENCY: '2', WEBHOOK_SIGNING_SECRET: SECRET },
    );
    const set = await h.post('/v1/compsets', {
      name: 'Parity',
      own: { property_token: OWN, name: 'Example Inn' },
      competitors: [{ property_token: 'rival-parity-0001', name: 'Rival' }],
    });
    setId = set.body.id;
  });
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((r) => (hook ? hook.close(() => r()) : r()));
  });

  const finished = (pollUrl: string) =>
    waitFor(
      async () => {
        const r = (await h.get(pollUrl)).body;
        return r.finished_at ? r : null;
      },
      { what: pollUrl, timeoutMs: 120_000 },
    );

  it('counts the planted disparity, not the rounding gap, and flags the agencies selling while the site is sold out', async () => {
    const started = await h.post(`/v1/compsets/${setId}/parity`, { start: START, days: 3, los: [10], sources: sources() });
    expect(started.status).toBe(202);
    // three comparisons and the one calendar of the metasearch's displayed prices
    expect(started.body).toMatchObject({ status: 'queued', items_total: 4, compset_id: setId, request: { tolerance_pct: 1, hotel: 'Example Inn' } });
    expect(started.body.stays.map((s: any) => s.status)).toEqual(['pending', 'pending', 'pending']);
    // the 202 as its operation's output schema states it (the harness checks every 200)
    assertOutputConforms(
      TOOLS.find((t) => t.name === 'run_parity_range')!,
      started.body,
    );
    range = await finished(started.body.poll_url);
    expect(range).toMatchObject({ status: 'succeeded', items_succeeded: 4, items_failed: 0 });
    const [d, r, s] = range.stays;
    expect(d).toMatchObject({ date: DISPARITY, los: 10, status: 'undercut', official: { total: 760, currency: 'USD' } });
    expect(d.basis).toEqual({ price: 'all_in_total', currency: 'USD', nights: 10, adults: 2, rooms: 1 });
    expect(d.agencies.map((a: any) => [a.source, a.outcome, a.total, a.amount, a.pct])).toEqual([
      ['otatwo', 'win', 782.6, -22.6, -3],
      ['rentalone', 'loss', 700.5, 59.5, 7.8],
    ]);
    // the comparison itself says undercut by 2.50; within the tolerance it is a meet
    expect(r).toMatchObject({ date: ROUNDING, status: 'undercut', official: { total: 703 } });
    expect(r.agencies.map((a: any) => [a.source, a.outcome, a.amount])).toEqual([
      ['otatwo', 'win', -79.6],
      ['rentalone', 'meet', 2.5],
    ]);
    expect(s).toMatchObject({ date: SOLD_OUT, status: 'official_sold_out', official: null, basis: null });
    expect(s.agencies.map((a: any) => [a.source, a.outcome, a.total])).toEqual([
      ['otatwo', 'selling_while_sold_out', 782.6],
      ['rentalone', 'selling_while_sold_out', 700.5],
    ]);
    // the metasearch's displayed price, apart from the agencies' bookable ones
    for (const stay of range.stays) {
      // in the currency the replayed calendar's rate block states
      expect(stay.metasearch).toMatchObject({ total: DISPLAYED, currency: 'EUR' });
      expect(stay.metasearch.provenance.observation_id).toMatch(/^rateobs_/);
    }
    expect(range.agencies).toEqual([
      { source: 'otatwo', win: 2, meet: 0, loss: 0, compared: 2, not_compared: 0, selling_while_sold_out: 1, win_pct: 100, meet_pct: 0, loss_pct: 0 },
      { source: 'rentalone', win: 0, meet: 1, loss: 1, compared: 2, not_compared: 0, selling_while_sold_out: 1, win_pct: 0, meet_pct: 50, loss_pct: 50 },
    ]);
    expect(range.disparities).toHaveLength(1);
    const [disparity] = range.disparities;
    expect(disparity).toMatchObject({
      date: DISPARITY,
      los: 10,
      source: 'rentalone',
      official_total: 760,
      agency_total: 700.5,
      currency: 'USD',
      amount: 59.5,
      pct: 7.8,
      basis: { price: 'all_in_total', currency: 'USD', nights: 10, adults: 2, rooms: 1 },
    });
    expect(disparity.agency_provenance.observation_id).toMatch(/^rateobs_/);
    expect(range.selling_while_sold_out.map((x: any) => [x.date, x.source, x.total])).toEqual([
      [SOLD_OUT, 'otatwo', 782.6],
      [SOLD_OUT, 'rentalone', 700.5],
    ]);
    // the link to check it: the one comparison that shows the disparity again
    expect(disparity.check).toMatchObject({ method: 'POST', path: '/v1/ota/compare' });
    const again = await h.post(disparity.check.path, disparity.check.body);
    expect(again.status).toBe(200);
    expect(again.body.parity.undercuts).toMatchObject([{ source: 'rentalone', amount: 59.5, pct: 7.8 }]);
    // each stay charged as POST /v1/ota/compare, the calendar as POST /v1/calendar
    const charges = await h.svc.deps.sql`SELECT i.kind, l.amount FROM credit_ledger l JOIN calendar_job_items i ON i.id = l.request_id
      WHERE i.job_id = ${range.job_id} AND l.kind = 'charge' ORDER BY i.item_index`;
    expect(charges.map((c) => [c.kind, c.amount])).toEqual([
      ['calendar', -5],
      ['compare', -20],
      ['compare', -20],
      ['compare', -20],
    ]);
  });

  it('the tolerance is a setting: at 0 the rounding gap counts too', async () => {
    const started = await h.post(`/v1/compsets/${setId}/parity`, { start: START, days: 2, los: [10], sources: sources(), tolerance_pct: 0 });
    const strict = await finished(started.body.poll_url);
    expect(strict.disparities.map((x: any) => [x.date, x.source, x.amount])).toEqual([
      [DISPARITY, 'rentalone', 59.5],
      [ROUNDING, 'rentalone', 2.5],
    ]);
  });

  it('lists the set’s ranges newest first, page by page (GET /v1/compsets/{id}/parity); another account’s set is a 404', async () => {
    const all = await h.get(`/v1/compsets/${setId}/parity`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ limit: 20, offset: 0 });
    // the tolerance test's range, then the first
    expect(all.body.ranges).toHaveLength(2);
    const [newest, first] = all.body.ranges;
    expect(newest.request.tolerance_pct).toBe(0);
    // the range's head as its own answer has it, without the verdicts (GET its poll_url)
    expect(Object.keys(first)).not.toContain('stays');
    expect(first).toEqual(Object.fromEntries(Object.keys(first).map((k) => [k, range[k]])));
    expect(first).toMatchObject({ id: range.id, poll_url: range.poll_url, status: 'succeeded', items_total: 4 });
    const paged = await h.get(`/v1/compsets/${setId}/parity?limit=1&offset=1`);
    expect(paged.body).toMatchObject({ limit: 1, offset: 1 });
    expect(paged.body.ranges.map((r: any) => r.id)).toEqual([range.id]);
    const other = (await h.svc.key()).key;
    expect((await h.svc.call(`/v1/compsets/${setId}/parity`, { key: other })).status).toBe(404);
  });

  it('answers CSV (format=csv or Accept: text/csv) that csv-parse reads back equal to the JSON', async () => {
    const byFormat = await h.svc.call(`${range.poll_url}?format=csv`, { key: h.key });
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await byFormat.text();
    const byAccept = await h.svc.call(range.poll_url, { key: h.key, headers: { accept: 'text/csv' } });
    expect(await byAccept.text()).toBe(text);
    const lines = parse(text, { columns: true }) as Record<string, string>[];
    const cells = range.stays.flatMap((s: any) => s.agencies.map((a: any) => ({ s, a })));
    expect(lines).toHaveLength(cells.length);
    const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    lines.forEach((line, i) => {
      const { s, a } = cells[i];
      expect(line).toEqual({
        date: s.date,
        los: str(s.los),
        check_out: str(s.check_out),
        status: s.status,
        source: a.source,
        outcome: a.outcome,
        official_total: str(s.official?.total),
        agency_total: str(a.total),
        currency: str(a.currency),
        amount: str(a.amount),
        pct: str(a.pct),
        basis_price: str(s.basis?.price),
        basis_nights: str(s.basis?.nights),
        basis_adults: str(s.basis?.adults),
        basis_rooms: str(s.basis?.rooms),
        metasearch_total: str(s.metasearch?.total),
        metasearch_currency: str(s.metasearch?.currency),
        reason: str(a.reason ?? s.reason),
      });
    });
  });

  it('refuses a range without the official site or an agency, or over 400 stays (422, located); another account’s range is a 404', async () => {
    const bad = await h.post(`/v1/compsets/${setId}/parity`, { start: START, days: 90, los: [1, 2, 3, 4, 5], sources: { otatwo: agencies.otatwo } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((x: any) => x.loc.join('.'))).toEqual(['body.sources.official', 'body.days']);
    const alone = await h.post(`/v1/compsets/${setId}/parity`, { start: START, sources: { official: sources().official } });
    expect(alone.status).toBe(422);
    expect(alone.body.detail[0]).toMatchObject({ loc: ['body', 'sources'], msg: 'name at least one agency beside official' });
    const typo = await h.post(`/v1/compsets/${setId}/parity`, { start: START, sources: sources(), tolerance_pct: 50 });
    expect(typo.status).toBe(422);
    expect(typo.body.detail[0].loc).toEqual(['body', 'tolerance_pct']);
    const other = (await h.svc.key()).key;
    const res = await h.svc.call(range.poll_url, { key: other });
    expect(res.status).toBe(404);
    const run = await h.svc.call(`/v1/compsets/${setId}/parity`, { key: other, body: { start: START, sources: sources() } });
    expect(run.status).toBe(404);
  });

  it('a parity_range watch fires once on a new disparity, not again for one already told (Standard Webhooks verified)', async () => {
    const target = { operation: 'parity_range', compset_id: setId, start: START, days: 2, los: [10], sources: sources() };
    const created = await h.post('/v1/watches', { target, rule: { type: 'undercut' }, callback_url: hookUrl, name: 'parity range' });
    expect(created.status).toBe(201);
    // 2 stays as POST /v1/ota/compare (20 each) and 1 calendar (5): the check's range, not its free submission
    expect(created.body.credits_per_check).toBe(45);
    const id = created.body.id;
    const triggered = () =>
      received.map((r) => new Webhook(SECRET).verify(r.body, r.headers) as any).filter((e) => e.type === 'watch.triggered' && e.data.watch.id === id);
    const first = await waitFor(async () => triggered()[0] ?? null, { what: 'the first range to be told', timeoutMs: 120_000 });
    expect(first.data.reason).toBe('1 new disparity');
    expect(first.data.disparities.map((d: any) => [d.date, d.source, d.amount])).toEqual([[DISPARITY, 'rentalone', 59.5]]);
    expect(first.data.hotel).toEqual({ property_token: OWN, name: 'Example Inn' });
    expect(first.data.changes.map((c: any) => c.key)).toEqual([`${DISPARITY}|10|rentalone`]);

    /** A check asked for: submitted at once, settled when its range's batch finishes. */
    const settled = async () => {
      const asked = await h.post(`/v1/watches/${id}/check`, {});
      expect(asked.status).toBe(200);
      return waitFor(
        async () => {
          const [row] = await h.svc.deps.sql`SELECT fired, observation FROM watch_checks WHERE id = ${asked.body.check.id}`;
          return row && !row.observation.pending ? row : null;
        },
        { what: 'the asked check to settle', timeoutMs: 120_000 },
      );
    };
    // the same disparity again: already told, nothing new
    expect((await settled()).fired).toBe(false);
    expect(triggered()).toHaveLength(1);

    // a new disparity on the second date: told once, alone
    officialFactor[ROUNDING] = 2;
    try {
      expect((await settled()).fired).toBe(true);
      const second = await waitFor(async () => triggered()[1] ?? null, { what: 'the new disparity to be told' });
      expect(second.data.disparities.map((d: any) => [d.date, d.source, d.amount, d.pct])).toEqual([[ROUNDING, 'rentalone', 59.5, 7.8]]);
      expect(second.data.parity_range.poll_url).toMatch(/^\/v1\/compsets\/compset_\w+\/parity\/parityrange_\w+$/);
      expect((await settled()).fired).toBe(false);
      expect(triggered()).toHaveLength(2);
    } finally {
      officialFactor[ROUNDING] = 703 / 380;
    }
  });

  it('a check refused at commit (its slot moved while it ran) leaves no range, no batch and nothing charged', async () => {
    const target = { operation: 'parity_range', compset_id: setId, start: START, days: 2, los: [10], sources: sources() };
    const created = await h.post('/v1/watches', { target, rule: { type: 'undercut' }, name: 'refused check' });
    expect(created.status).toBe(201);
    const sql = h.svc.deps.sql;
    // the baseline check, settled: nothing of this watch is left running
    await waitFor(
      async () => {
        const [row] = await sql`SELECT count(*)::int AS n FROM watch_checks WHERE watch_id = ${created.body.id} AND NOT (observation ? 'pending')`;
        return row.n >= 1 ? true : null;
      },
      { what: 'the baseline check to settle', timeoutMs: 120_000 },
    );
    const [{ account_id }] = await sql`SELECT account_id FROM watches WHERE id = ${created.body.id}`;
    const watch = await findWatch(sql, account_id, created.body.id);
    const key = (await keyById(sql, watch.key_id))!;
    const count = async () => {
      const [row] = await sql`SELECT (SELECT count(*)::int FROM calendar_jobs WHERE account_id = ${account_id}) AS jobs,
        (SELECT count(*)::int FROM credit_ledger WHERE account_id = ${account_id}) AS ledger,
        (SELECT count(*)::int FROM compset_parity_ranges WHERE account_id = ${account_id}) AS ranges`;
      return row;
    };
    const before = await count();
    const requestId = newId('req');
    // the schedule's attempt at a slot the watch has moved past by the time the check commits
    const outcome = await runCheck(h.svc.deps, { watch, key, requestId, slot: watch.seq + 1 });
    expect(outcome).toBeNull();
    expect(await rangeOfRequest(sql, requestId)).toBeNull();
    expect(await sql`SELECT id FROM watch_checks WHERE id = ${requestId}`).toHaveLength(0);
    expect(await sql`SELECT id FROM credit_ledger WHERE request_id = ${requestId}`).toHaveLength(0);
    // nothing queued behind it: a while later still no batch, range or charge more than before
    await new Promise((r) => setTimeout(r, 2000));
    expect(await count()).toEqual(before);
  });
});
