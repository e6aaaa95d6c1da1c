/**
 * A REST client that hangs up ends the upstream work done for it: the pending upstream request is
 * aborted (no retry), nothing is charged, and the history records 499.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECONDARY_DATA_PATH } from '../../../src/sources/otafour/fetch.js';
import { waitFor } from '../../helpers/wait.js';
import { OTAFOUR_SECONDARY_DATA } from '../../fixtures/ota-payloads.js';
import { startHarness, type Harness } from '../../helpers/ota-harness.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-12-01');

describe('client hang-up', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness([{ path: `/otafour${SECONDARY_DATA_PATH}`, delayMs: 4_000, body: OTAFOUR_SECONDARY_DATA }], { UPSTREAM_RETRIES: '2' });
  });
  afterAll(() => h?.close());

  it('aborts the upstream request, charges nothing and records 499', async () => {
    const gone = new AbortController();
    const call = fetch(`${h.svc.url}/v1/ota/otafour`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': h.key },
      body: JSON.stringify({ property_id: '2454174', check_in: S('2026-12-01') }),
      signal: gone.signal,
    }).catch((err: Error) => err);
    await waitFor(async () => h.replay.requests.some((q) => q.path.endsWith('GetSecondaryData')));
    gone.abort();
    expect(await call).toBeInstanceOf(Error);
    const row = await waitFor(async () => {
      const rows = await h.svc.deps.sql<{ status: number; credits: number }[]>`SELECT status, credits FROM request_history WHERE path = '/v1/ota/otafour'`;
      return rows[0];
    });
    expect(row).toEqual({ status: 499, credits: 0 });
    // the upstream call was not retried after the hang-up
    expect(h.replay.requests.filter((q) => q.path.endsWith('GetSecondaryData'))).toHaveLength(1);
  });
});
