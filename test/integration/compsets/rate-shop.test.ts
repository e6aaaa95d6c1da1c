import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../../../src/domain/dates.js';
import { askedWindow } from '../../helpers/calendar-payload.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { assertOutputConforms } from '../../helpers/output-schema.js';
import { TOOLS } from '../../../tools/index.js';

/*
 * A rate shop over a 5-property competitor set × 30 check-in dates × 3 lengths of stay, through
 * real pg-boss workers over the replayed calendar upstream: the grid equals each property's own
 * calendar answer, each upstream window is fetched once, the CSV (read by csv-parse) equals the
 * JSON, and nothing of a set or shop is visible to another account.
 */

let svc: TestService;
let replay: ReplayServer;
let key: string;
let accountId: string;

const OWN = 'ownhotel-0001';
const RIVALS = ['rival-a-0001', 'rival-b-0002', 'rival-c-0003', 'soldout-0004'];
const LENGTHS = [1, 2, 3];
/** Prices move between runs: the own hotel's rises by `moved` per night. */
let moved = 0;

function price(date: string, los: number, token: string): number | null {
  const day = Number(date.slice(8));
  if (token === OWN) return (100 + day + moved) * los;
  // the fourth competitor sells nothing on every third day of the month
  if (token.startsWith('soldout') && day % 3 === 0) return null;
  const i = RIVALS.indexOf(token);
  return (85 + 10 * i + day) * los;
}

beforeAll(async () => {
  replay = await startReplayServer([calendarRoute(price)]);
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', WORKER_CONCURRENCY: '2' });
  const k = await svc.key({ plan: 'starter' });
  key = k.key;
  accountId = k.account_id!;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

/** Every answer of the compset routes, checked against its operation's output schema. */
const answers: { body: unknown }[] = [];
const json = async (res: Response) => {
  const body = (await res.json()) as any;
  if (res.ok) answers.push({ body });
  return { status: res.status, body };
};

/** The operation whose answer `body` is (the shape tells a set, a shop and the lists apart). */
function shapeOf(body: any) {
  const name = body.compsets ? 'list_compsets' : body.shops ? 'list_rate_shops' : body.rows ? 'get_rate_shop' : body.competitors ? 'create_compset' : null;
  return name ? TOOLS.find((t) => t.name === name)! : null;
}

async function createSet(apiKey = key) {
  return json(
    await svc.call('/v1/compsets', {
      key: apiKey,
      body: {
        name: 'Old town, "central"',
        own: { property_token: OWN, name: 'Our Hotel' },
        competitors: RIVALS.map((t, i) => ({ property_token: t, name: `Rival ${i + 1}, the one` })),
      },
    }),
  );
}

async function finishedShop(pollUrl: string) {
  return waitFor(
    async () => {
      const shop = (await json(await svc.call(pollUrl, { key }))).body;
      return shop.finished_at ? shop : null;
    },
    { what: pollUrl, timeoutMs: 120_000 },
  );
}

describe('competitor sets and rate shops', () => {
  let setId: string;
  let shop: any;
  const start = addDays(todayUtc(), 20);

  it('creates, lists, reads and changes a set; refuses a property twice or the own hotel as a competitor', async () => {
    const created = await createSet();
    expect(created.status).toBe(201);
    setId = created.body.id;
    expect(setId).toMatch(/^compset_/);
    expect(created.body.competitors).toHaveLength(4);
    const dup = await json(
      await svc.call('/v1/compsets', {
        key,
        body: {
          name: 'x',
          own: { property_token: OWN, name: 'a' },
          competitors: [
            { property_token: OWN, name: 'b' },
            { property_token: RIVALS[0], name: 'c' },
            { property_token: RIVALS[0], name: 'd' },
          ],
        },
      }),
    );
    expect(dup.status).toBe(422);
    expect(dup.body.detail.map((d: any) => d.loc.join('.'))).toEqual(['body.competitors.0.property_token', 'body.competitors.2.property_token']);
    const list = await json(await svc.call('/v1/compsets', { key }));
    expect(list.body.compsets.map((c: any) => c.id)).toContain(setId);
    const renamed = await json(await svc.call(`/v1/compsets/${setId}`, { key, method: 'PATCH', body: { name: 'Old town' } }));
    expect(renamed.body).toMatchObject({ id: setId, name: 'Old town', own: { property_token: OWN } });
    expect((await json(await svc.call(`/v1/compsets/${setId}`, { key }))).body).toEqual(renamed.body);
  });

  it('a 5 × 30 × 3 shop runs as one durable batch; its grid equals each property’s own calendar, each window fetched once', async () => {
    const before = replay.requests.length;
    const res = await json(
      await svc.call(`/v1/compsets/${setId}/shops`, { key, body: { start, days: 30, los: LENGTHS }, headers: { 'idempotency-key': 'shop-1' } }),
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', items_total: 15, items_succeeded: 0, compset_id: setId });
    expect(res.body.rows).toHaveLength(90);
    expect(res.body.rows[0].cells.every((c: any) => c.state === 'pending' && c.total === null)).toBe(true);
    // the same key and body: the same shop; its row was written with its job
    const again = await json(
      await svc.call(`/v1/compsets/${setId}/shops`, { key, body: { start, days: 30, los: LENGTHS }, headers: { 'idempotency-key': 'shop-1' } }),
    );
    expect(again.body.id).toBe(res.body.id);
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM compset_shops s JOIN calendar_jobs j ON j.id = s.job_id WHERE s.id = ${res.body.id}`;
    expect(n).toBe(1);

    shop = await finishedShop(res.body.poll_url);
    expect(shop).toMatchObject({ status: 'succeeded', items_succeeded: 15, items_failed: 0, failures: [] });
    // one upstream window per property and length of stay
    const windows = replay.requests.slice(before).map((r) => askedWindow(r.body));
    expect(windows).toHaveLength(15);
    expect(new Set(windows.map((w) => `${w.token}|${w.los}`)).size).toBe(15);

    for (const row of shop.rows) {
      const totals = row.cells.map((c: any) => c.total);
      expect(totals).toEqual([OWN, ...RIVALS].map((t) => price(row.date, row.los, t)));
      for (const c of row.cells) {
        expect(c.state).toBe(c.total === null ? 'unavailable' : 'priced');
        if (c.total !== null) expect(c.provenance.observation_id).toMatch(/^rateobs_/);
        else expect(c.provenance).toBeNull();
      }
      const rivals = row.cells.filter((c: any) => !c.own && c.total !== null).map((c: any) => c.total as number);
      const sorted = [...rivals].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
      expect(row.competitors_median).toBe(median);
      expect(row.own_rank).toBe(1 + rivals.filter((t: number) => t < row.own_total).length);
      expect(row.diff_to_median).toBeCloseTo(row.own_total - median, 2);
    }

    // each property's own calendar answer (POST /v1/calendar) states the same totals
    for (const token of [OWN, RIVALS[3]]) {
      const cal = await json(await svc.call('/v1/calendar', { key, body: { token, start, days: 30, los: 2, probe_min_stay: false } }));
      const fromGrid = shop.rows.filter((r: any) => r.los === 2).map((r: any) => r.cells.find((c: any) => c.property_token === token).total);
      const byDate = new Map(cal.body.rates.map((r: any) => [r.date, r.rate_total]));
      expect(fromGrid).toEqual(shop.rows.filter((r: any) => r.los === 2).map((r: any) => byDate.get(r.date) ?? null));
    }
    // each calendar charged as POST /v1/calendar
    const charges = await svc.deps.sql`SELECT amount FROM credit_ledger l JOIN calendar_job_items i ON i.id = l.request_id
      WHERE i.job_id = ${shop.job_id} AND l.account_id = ${accountId} AND l.kind = 'charge'`;
    expect(charges.map((c) => c.amount)).toEqual(Array(15).fill(-5));
  });

  it('answers CSV (format=csv or Accept: text/csv) that csv-parse reads back equal to the JSON', async () => {
    const byFormat = await svc.call(`${shop.poll_url}?format=csv`, { key });
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await byFormat.text();
    const byAccept = await svc.call(shop.poll_url, { key, headers: { accept: 'text/csv' } });
    expect(await byAccept.text()).toBe(text);
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = parse(text, { columns: true }) as Record<string, string>[];
    expect(lines).toHaveLength(90 * 5);
    const cells = shop.rows.flatMap((r: any) => r.cells.map((c: any) => ({ r, c })));
    lines.forEach((line, i) => {
      const { r, c } = cells[i];
      expect(line).toMatchObject({
        date: r.date,
        los: String(r.los),
        property_token: c.property_token,
        name: c.name,
        own: String(c.own),
        state: c.state,
        total: c.total === null ? '' : String(c.total),
        currency: c.currency ?? '',
        own_rank: r.own_rank === null ? '' : String(r.own_rank),
        competitors_median: r.competitors_median === null ? '' : String(r.competitors_median),
        observation_id: c.provenance?.observation_id ?? '',
      });
    });
    // a name with a comma and quotes survives the round trip
    expect(lines.find((l) => l.property_token === RIVALS[0])!.name).toBe('Rival 1, the one');
  });

  it('prices moved between runs show in the next shop; the list shows both with their progress', async () => {
    moved = 7;
    const res = await json(await svc.call(`/v1/compsets/${setId}/shops`, { key, body: { start: addDays(start, 1), days: 5, los: [1] } }));
    const next = await finishedShop(res.body.poll_url);
    for (const row of next.rows) expect(row.own_total).toBe(price(row.date, 1, OWN));
    expect(next.rows[0].own_total).toBe(shop.rows.find((r: any) => r.date === next.rows[0].date && r.los === 1).own_total + 7);
    const list = await json(await svc.call(`/v1/compsets/${setId}/shops`, { key }));
    expect(list.body.shops.map((s: any) => [s.id, s.status])).toEqual([
      [next.id, 'succeeded'],
      [shop.id, 'succeeded'],
    ]);
  });

  it('answers as each operation’s output schema says', () => {
    const names = new Set<string>();
    for (const a of answers) {
      const tool = shapeOf(a.body);
      if (!tool) continue;
      names.add(tool.name);
      assertOutputConforms(tool, a.body);
    }
    expect([...names].sort()).toEqual(['create_compset', 'get_rate_shop', 'list_compsets', 'list_rate_shops']);
  });

  it('refuses a past start; another account sees nothing of the set or its shops', async () => {
    const past = await json(await svc.call(`/v1/compsets/${setId}/shops`, { key, body: { start: addDays(todayUtc(), -3) } }));
    expect(past.status).toBe(422);
    expect(past.body.detail[0]).toMatchObject({ type: 'date_future', loc: ['body', 'start'] });
    const other = (await svc.key({ plan: 'starter' })).key;
    for (const path of [`/v1/compsets/${setId}`, `/v1/compsets/${setId}/shops`, shop.poll_url, `${shop.poll_url}?format=csv`]) {
      expect((await svc.call(path, { key: other })).status, path).toBe(404);
    }
    expect((await svc.call(`/v1/compsets/${setId}/shops`, { key: other, body: {} })).status).toBe(404);
    expect((await svc.call(`/v1/compsets/${setId}`, { key: other, method: 'DELETE' })).status).toBe(404);
    expect((await json(await svc.call('/v1/compsets', { key: other }))).body.compsets).toEqual([]);
    // deleting the set takes its shops with it
    expect((await svc.call(`/v1/compsets/${setId}`, { key, method: 'DELETE' })).status).toBe(200);
    expect((await svc.call(shop.poll_url, { key })).status).toBe(404);
  });
});
