import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECONDARY_DATA_PATH } from '../../../src/sources/otafour/fetch.js';
import type { RecordedRequest, ReplayRoute } from '../../replay/server.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { OTAFOUR_SECONDARY_DATA } from '../../fixtures/ota-payloads.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-12-01');

const GRID = `/otafour${SECONDARY_DATA_PATH}`;
const grid = (currency: string) => ({ ...OTAFOUR_SECONDARY_DATA, roomGridData: { ...OTAFOUR_SECONDARY_DATA.roomGridData, currencyCode: currency } });

/**
 * The grid answers each currency through a redirect that sets the site's cookies, as a session
 * start does: the display-currency cookie and a session id naming the caller's currency. The EUR
 * caller's first hop is answered only once the USD caller's second hop has arrived, so its second
 * hop is sent after the USD caller's cookies were set: a jar shared by callers would hand them to it.
 */
function sessionRoutes(currency: string, firstHopHold?: ReplayRoute['holdUntil'], property = '2454174'): ReplayRoute[] {
  const lower = currency.toLowerCase();
  return [
    {
      path: GRID,
      query: { hotel_id: property, currencyCode: currency },
      match: (r) => r.query.hop === undefined,
      status: 302,
      holdUntil: firstHopHold,
      headers: {
        location: `${GRID}?hotel_id=${property}&currencyCode=${currency}&hop=2`,
        'set-cookie': `agoda.version.03=CurLabel=${currency}; Path=/`,
      },
    },
    {
      path: GRID,
      query: { hotel_id: property, currencyCode: currency, hop: '2' },
      body: grid(currency),
      headers: { 'set-cookie': `sess=${lower}-caller; Path=/` },
    },
  ];
}

const cookiesOf = (r: RecordedRequest) => String(r.headers.cookie ?? '');

describe('upstream state never crosses callers; failure classes through a real route', () => {
  let h: Harness;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-'));
    const body = JSON.stringify(OTAFOUR_SECONDARY_DATA);
    h = await startHarness(
      [
        ...sessionRoutes('EUR', (received) => received.some((r) => r.query.currencyCode === 'USD' && r.query.hop === '2')),
        ...sessionRoutes('USD'),
        ...sessionRoutes('GBP'),
        { path: GRID, query: { hotel_id: '20' }, body: OTAFOUR_SECONDARY_DATA, cut: { at: 200 } },
        { path: GRID, query: { hotel_id: '21' }, body: OTAFOUR_SECONDARY_DATA, cut: { at: 200, end: 'reset' } },
        { path: GRID, query: { hotel_id: '22' }, body: OTAFOUR_SECONDARY_DATA, encoding: 'gzip', cut: { at: 150, framing: 'close' } },
        { path: GRID, query: { hotel_id: '23' }, body: OTAFOUR_SECONDARY_DATA, encoding: 'zstd', cut: { at: 200, framing: 'close' } },
        { path: GRID, query: { hotel_id: '24' }, body: OTAFOUR_SECONDARY_DATA, cut: { at: body.length - 40, framing: 'close' } },
        { path: GRID, query: { hotel_id: '25' }, body: { hotelInfo: {} } },
      ],
      { DATA_DIR: dataDir },
    );
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('two concurrent calls in different currencies each send only their own cookies; a later call none of theirs', async () => {
    const [eur, usd] = await Promise.all([
      h.post('/v1/ota/otafour', { property_id: '2454174', check_in: S('2026-12-01'), currency: 'EUR' }),
      h.post('/v1/ota/otafour', { property_id: '2454174', check_in: S('2026-12-01'), currency: 'USD' }),
    ]);
    expect([eur.status, usd.status]).toEqual([200, 200]);
    expect(eur.body.property.currency).toBe('EUR');
    expect(usd.body.property.currency).toBe('USD');
    const sent = (currency: string, hop: boolean) => h.replay.requests.filter((r) => r.query.currencyCode === currency && (r.query.hop === '2') === hop);
    // the USD call's whole exchange happened while the EUR call was between its two hops
    expect(h.replay.requests.findIndex((r) => r.query.currencyCode === 'USD' && r.query.hop === '2')).toBeLessThan(
      h.replay.requests.findIndex((r) => r.query.currencyCode === 'EUR' && r.query.hop === '2'),
    );
    const [eurSecond] = sent('EUR', true);
    expect(cookiesOf(eurSecond)).toContain('agoda.version.03=CurLabel=EUR');
    expect(cookiesOf(eurSecond)).not.toMatch(/USD|usd/);
    const [usdSecond] = sent('USD', true);
    expect(cookiesOf(usdSecond)).not.toMatch(/EUR|eur/);

    const gbp = await h.post('/v1/ota/otafour', { property_id: '2454174', check_in: S('2026-12-01'), currency: 'GBP' });
    expect(gbp.status).toBe(200);
    for (const r of [...sent('GBP', false), ...sent('GBP', true)]) {
      expect(cookiesOf(r)).not.toMatch(/sess=|EUR|USD/);
    }
    // within its own operation the session carries on: the redirect hop sends what the first hop set
    expect(cookiesOf(sent('GBP', true)[0])).toBe('agoda.version.03=CurLabel=GBP; agoda.version.03=CurLabel=GBP');
  });

  it('a cut or reset transfer answers 502 (retryable class), free; only a whole reply of another shape is 503', async () => {
    for (const id of ['20', '21', '22', '23', '24']) {
      const r = await h.post('/v1/ota/otafour', { property_id: id, check_in: S('2026-12-01'), currency: 'EUR' });
      expect([id, r.status]).toEqual([id, 502]);
      expect(r.charged).toBe('0');
    }
    const changed = await h.post('/v1/ota/otafour', { property_id: '25', check_in: S('2026-12-01'), currency: 'EUR' });
    expect(changed.status).toBe(503);
    expect(changed.body.detail).toMatch(/contract changed/);
    // only the changed reply was kept for diagnosis, with its owner
    const kept = fs.readdirSync(path.join(dataDir, 'diagnostics', 'otafour')).filter((f) => f.endsWith('.meta.json'));
    expect(kept).toHaveLength(1);
    const meta = JSON.parse(fs.readFileSync(path.join(dataDir, 'diagnostics', 'otafour', kept[0]), 'utf8'));
    expect(meta).toMatchObject({ reason: 'contract_changed', account_id: expect.stringMatching(/^acct_/), request_id: expect.stringMatching(/^req_/) });
  });
});
