import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, earliestStayDate, nightsBetween } from '../../../src/domain/dates.js';
import { encodePropertyQs } from '../../../src/sources/metasearch/hotels/requests.js';
import { decodeTs } from '../../../src/sources/metasearch/hotels/ts-param.js';
import { TOOLS } from '../../../tools/index.js';
import { detailData, LONDON_TOKENS, page, PAGES, propertyPayload, withData } from '../../fixtures/hotels-payloads.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer, type RecordedRequest } from '../../replay/server.js';

/*
 * A per-seller rate shop (sellers: true) over a 3-property set × 3 check-in dates × 2 lengths of
 * stay, through real pg-boss workers over the replayed calendar RPC and property pages: each cell's
 * sellers equal that stay's own POST /v1/offers answer (each seller's cheapest all-in total with
 * its provenance), each stay's page is fetched once, the charges stay within the credits_max the
 * submission stated, the CSV (csv-parse) equals the JSON, and the calendar fields (total, rank,
 * median) equal those of the default shop, whose shape and cost are unchanged.
 */

const TOKENS: string[] = [...LONDON_TOKENS];
const [OWN, ...RIVALS] = TOKENS;
const LENGTHS = [1, 2];
const DAYS = 3;
/** The rival that sells nothing (no seller on its page) on the second check-in date. */
const SOLD_OUT = RIVALS[1];

/** The calendar's cheapest all-in total of a stay. */
function calendarPrice(date: string, los: number, token: string): number {
  return (100 + Number(date.slice(8)) + 10 * TOKENS.indexOf(token)) * los;
}

/** One seller entry as the recorded page carries it (see test/fixtures/hotels-payloads.ts). */
function seller(name: string, id: number, total: number, nights: number, featured: boolean, official = false) {
  const gbp = (n: number) => `£${Math.round(n)}`;
  const nightly = Math.round((total / nights) * 100) / 100;
  return {
    name,
    id,
    official,
    link: `/travel/lodging/clk?pc=${id}`,
    nightly: featured ? [gbp(nightly), null, nightly, null, Math.round(nightly)] : [gbp(nightly)],
    total: featured ? [gbp(total), null, total, null, Math.round(total)] : [gbp(total)],
  };
}

/** A property's page for the stay the request asks (its `ts`): its sellers priced from the calendar's price. */
function propertyPage(token: string, req: RecordedRequest): string {
  const { checkIn, checkOut } = decodeTs(req.query.ts).search as { checkIn: string; checkOut: string };
  const nights = nightsBetween(checkIn, checkOut);
  const london = page(PAGES.london);
  // the first result's payload (priced in GBP) for every property: the page is looked up by the token asked
  const payload = propertyPayload(london, 0);
  if (token === SOLD_OUT && checkIn === addDays(start, 1)) return withData(london, detailData(london, payload, { featured: [], all: [] }));
  const base = calendarPrice(checkIn, nights, token);
  return withData(
    london,
    detailData(london, payload, {
      featured: [seller('Booking.com', 184, base + 0.5, nights, true), seller('Agoda', 100337601, base + 7.25, nights, true)],
      all: [
        seller('Our Own Site', 226982928, base + 12, nights, false, true),
        // the same seller as a featured one, dearer in the full list: its cheapest counts
        seller('Agoda', 100337601, base + 30, nights, false),
        seller('Expedia.com', 89, base + 3, nights, false),
      ],
    }),
  );
}

const suite = fixtureSuite('per-seller rate shop (replayed calendar and property pages)', PAGES.london);
const start = addDays(earliestStayDate(), 10);
let svc: TestService;
let replay: ReplayServer;
let key: string;
let accountId: string;
const pageRequests = () => replay.requests.filter((r) => r.path === '/travel/search');

beforeAll(async () => {
  replay = await startReplayServer([
    calendarRoute(calendarPrice),
    ...TOKENS.map((t) => ({ path: '/travel/search', query: { qs: encodePropertyQs(t) }, reply: (req: RecordedRequest) => propertyPage(t, req) })),
  ]);
  // the shared result cache on: the shops and the offers calls read one another's answers, as in production
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', WORKER_CONCURRENCY: '2', RESULT_CACHE_ENABLED: 'true' });
  const k = await svc.key({ plan: 'starter' });
  key = k.key;
  accountId = k.account_id!;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const answers: { tool: string; body: unknown }[] = [];
async function call(path: string, opts: { body?: unknown; tool?: string } = {}) {
  const res = await svc.call(path, { key, ...(opts.body === undefined ? {} : { body: opts.body }) });
  const body = (await res.json()) as any;
  if (res.ok && opts.tool) answers.push({ tool: opts.tool, body });
  return { status: res.status, body };
}

async function finished(pollUrl: string) {
  return waitFor(
    async () => {
      const shop = (await call(pollUrl, { tool: 'get_rate_shop' })).body;
      return shop.finished_at ? shop : null;
    },
    { what: pollUrl, timeoutMs: 180_000 },
  );
}

/** Each seller's cheapest all-in total, as the test reads an offers answer (cheapest first, unpriced last). */
function expectedSellers(offers: any[]) {
  const best = new Map<string, any>();
  for (const o of offers) {
    const held = best.get(o.source);
    if (!held || (o.total !== null && (held.total === null || o.total < held.total))) best.set(o.source, o);
  }
  return [...best.values()]
    .map((o) => ({
      seller: o.source,
      name: o.raw_source,
      is_official: o.is_official,
      total: o.total,
      currency: o.currency,
      link: o.link,
      provenance: o.total === null ? null : o.provenance,
    }))
    .sort((a, b) => (a.total ?? Infinity) - (b.total ?? Infinity) || a.seller.localeCompare(b.seller));
}

describe(suite.title, () => {
  let setId: string;
  let plain: any;
  let shop: any;

  it('the default shop keeps its shape and cost: calendars only, no sellers in its cells', async () => {
    const set = await call('/v1/compsets', {
      body: {
        name: 'Battersea',
        own: { property_token: OWN, name: 'Our Hotel' },
        competitors: RIVALS.map((t, i) => ({ property_token: t, name: `Rival ${i + 1}` })),
      },
    });
    expect(set.status).toBe(201);
    setId = set.body.id;
    const res = await call(`/v1/compsets/${setId}/shops`, { body: { start, days: DAYS, los: LENGTHS, market: 'GB' }, tool: 'get_rate_shop' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ items_total: 6, credits_max: 30, request: { sellers: false } });
    plain = await finished(res.body.poll_url);
    expect(plain.status).toBe('succeeded');
    for (const c of plain.rows.flatMap((r: any) => r.cells)) {
      expect(c).not.toHaveProperty('sellers');
      expect(c).not.toHaveProperty('sellers_state');
    }
    expect(pageRequests()).toHaveLength(0);
    // each calendar charged as POST /v1/calendar: what was stated
    const charges = await svc.deps.sql`SELECT l.amount FROM credit_ledger l JOIN calendar_job_items i ON i.id = l.request_id
      WHERE i.job_id = ${plain.job_id} AND l.account_id = ${accountId} AND l.kind = 'charge'`;
    expect(charges.map((c) => c.amount)).toEqual(Array(6).fill(-5));
    const header = (await (await svc.call(`${plain.poll_url}?format=csv`, { key })).text()).split('\r\n')[0];
    expect(header).toBe(
      'date,los,property_token,name,own,state,total,currency,seller,own_rank,competitors_median,diff_to_median,diff_to_median_pct,observation_id,observed_at,source',
    );
  });

  it('refuses a per-seller shop of more than 400 stays before queueing anything', async () => {
    const [{ n: before }] = await svc.deps.sql`SELECT count(*)::int AS n FROM calendar_jobs WHERE account_id = ${accountId}`;
    const res = await call(`/v1/compsets/${setId}/shops`, { body: { start, days: 90, los: LENGTHS, sellers: true } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'sellers'] });
    expect(res.body.detail[0].msg).toContain('3 × 90 × 2 = 540');
    const [{ n: after }] = await svc.deps.sql`SELECT count(*)::int AS n FROM calendar_jobs WHERE account_id = ${accountId}`;
    expect(after).toBe(before);
  });

  it('a per-seller shop: each cell’s sellers equal the stay’s own offers answer, each stay’s page fetched once, charged within credits_max', async () => {
    const before = pageRequests().length;
    const res = await call(`/v1/compsets/${setId}/shops`, {
      body: { start, days: DAYS, los: LENGTHS, market: 'GB', sellers: true },
      tool: 'get_rate_shop',
    });
    expect(res.status).toBe(202);
    // 6 calendars × 5 + 18 stays × 3, stated before anything runs
    expect(res.body).toMatchObject({ status: 'queued', items_total: 24, credits_max: 84, request: { sellers: true } });
    expect(res.body.rows[0].cells[0]).toMatchObject({ sellers_state: 'pending', sellers: [] });
    shop = await finished(res.body.poll_url);
    expect(shop).toMatchObject({ status: 'succeeded', items_succeeded: 24, items_failed: 0, failures: [] });

    // one page per stay, none twice
    const stays = pageRequests()
      .slice(before)
      .map((r) => {
        const s = decodeTs(r.query.ts).search as { checkIn: string; checkOut: string };
        return `${r.query.qs}|${s.checkIn}|${s.checkOut}`;
      });
    expect(stays).toHaveLength(18);
    expect(new Set(stays).size).toBe(18);

    // the calendar's fields mean what they meant: equal to the default shop's
    const calendarFields = (rows: any[]) =>
      rows.map((r) => ({
        date: r.date,
        los: r.los,
        own_rank: r.own_rank,
        competitors_median: r.competitors_median,
        diff_to_median: r.diff_to_median,
        cells: r.cells.map((c: any) => [c.property_token, c.state, c.total, c.currency, c.seller]),
      }));
    expect(calendarFields(shop.rows)).toEqual(calendarFields(plain.rows));

    const pagesBefore = pageRequests().length;
    let listed = 0;
    for (const row of shop.rows) {
      for (const c of row.cells) {
        const offers = await call('/v1/offers', {
          body: { token: c.property_token, check_in: row.date, nights: row.los, adults: 2, market: 'GB', currency: 'GBP', require_sources: [] },
        });
        expect(offers.status).toBe(200);
        expect(c.sellers).toEqual(expectedSellers(offers.body.offers));
        if (c.property_token === SOLD_OUT && row.date === addDays(start, 1)) {
          expect(c).toMatchObject({ sellers_state: 'none', sellers: [] });
          continue;
        }
        listed++;
        expect(c.sellers_state).toBe('listed');
        expect(c.sellers.map((s: any) => s.seller)).toEqual(['booking', 'expedia', 'agoda', 'our_own_site']);
        const base = calendarPrice(row.date, row.los, c.property_token);
        expect(c.sellers.map((s: any) => s.total)).toEqual([base + 0.5, base + 3, base + 7.25, base + 12]);
        for (const s of c.sellers) {
          expect(s.currency).toBe('GBP');
          expect(s.provenance.observation_id).toMatch(/^rateobs_/);
        }
        expect(c.sellers.find((s: any) => s.is_official)?.seller).toBe('our_own_site');
      }
    }
    expect(listed).toBe(16);
    // the offers answers came from the shared cache the shop filled: no page fetched again but the two stays
    // nobody sells (an empty answer is never kept)
    expect(pageRequests().length).toBe(pagesBefore + 2);

    // charges: each calendar 5 (as POST /v1/calendar), each stay with sellers 3 (as POST /v1/offers), a stay nobody sells
    // nothing: what was stated, less the two unsold stays
    const charges = await svc.deps.sql`SELECT i.kind, l.amount FROM credit_ledger l JOIN calendar_job_items i ON i.id = l.request_id
      WHERE i.job_id = ${shop.job_id} AND l.account_id = ${accountId} AND l.kind = 'charge'`;
    expect(charges.filter((c) => c.kind === 'calendar').map((c) => c.amount)).toEqual(Array(6).fill(-5));
    expect(charges.filter((c) => c.kind === 'offers').map((c) => c.amount)).toEqual(Array(16).fill(-3));
    expect(-charges.reduce((n, c) => n + Number(c.amount), 0)).toBe(shop.credits_max - 2 * 3);
  });

  it('answers CSV, one line per seller, that csv-parse reads back equal to the JSON', async () => {
    const res = await svc.call(`${shop.poll_url}?format=csv`, { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = parse(await res.text(), { columns: true }) as Record<string, string>[];
    const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    const expected = shop.rows.flatMap((r: any) =>
      r.cells.flatMap((c: any) =>
        (c.sellers.length ? c.sellers : [null]).map((x: any) => ({
          date: r.date,
          los: s(r.los),
          property_token: c.property_token,
          name: c.name,
          own: s(c.own),
          state: c.state,
          total: s(c.total),
          currency: s(c.currency),
          seller: s(c.seller),
          own_rank: s(r.own_rank),
          competitors_median: s(r.competitors_median),
          diff_to_median: s(r.diff_to_median),
          diff_to_median_pct: s(r.diff_to_median_pct),
          observation_id: s(c.provenance?.observation_id),
          observed_at: s(c.provenance?.observed_at),
          source: s(c.provenance?.source),
          sellers_state: c.sellers_state,
          seller_key: s(x?.seller),
          seller_name: s(x?.name),
          seller_is_official: s(x?.is_official),
          seller_total: s(x?.total),
          seller_currency: s(x?.currency),
          seller_link: s(x?.link),
          seller_observation_id: s(x?.provenance?.observation_id),
          seller_observed_at: s(x?.provenance?.observed_at),
        })),
      ),
    );
    expect(lines).toEqual(expected);
    // 18 cells: 16 with four sellers, 2 (the sold-out stays) one line each
    expect(lines).toHaveLength(16 * 4 + 2);
  });

  it('lists both shops with their stated cost; answers as the output schemas say', async () => {
    const list = await call(`/v1/compsets/${setId}/shops`, { tool: 'list_rate_shops' });
    expect(list.body.shops.map((s: any) => [s.id, s.credits_max, s.request.sellers])).toEqual([
      [shop.id, 84, true],
      [plain.id, 30, false],
    ]);
    for (const a of answers)
      assertOutputConforms(
        TOOLS.find((t) => t.name === a.tool)!,
        a.body,
      );
  });

  it('another account sees nothing of the per-seller shop', async () => {
    const other = (await svc.key({ plan: 'starter' })).key;
    for (const path of [shop.poll_url, `${shop.poll_url}?format=csv`]) expect((await svc.call(path, { key: other })).status, path).toBe(404);
  });
});
