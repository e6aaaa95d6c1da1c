import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedWindow } from '../../helpers/calendar-payload.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const metric = (text: string, line: string) => Number(new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);

/** The batch worker's upstream outcomes: a calendar item whose reply lost its RPC frame is a contract change. */
describe('operations: outcomes found by the batch worker', () => {
  let replay: ReplayServer;
  let svc: TestService;
  let admin: string;
  let dataDir: string;

  beforeAll(async () => {
    const token = (r: { body: string }) => askedWindow(r.body).token;
    replay = await startReplayServer([
      { method: 'POST', path: '/_/TravelFrontendUi/data/batchexecute', match: (r) => token(r).startsWith('broken'), body: ')]}\'\n\n12\n[["di",12]]\n' },
      calendarRoute((date, los) => (100 + Number(date.slice(8))) * los),
    ]);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ops-worker-'));
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', DATA_DIR: dataDir });
    admin = (await svc.key({ role: 'admin', plan: 'starter' })).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts the contract change and the item outcomes, keeps the raw reply, and the status shows it', async () => {
    const res = await svc.call('/v1/jobs', {
      key: admin,
      body: {
        items: [
          { token: 'hotel-ok-1', days: 2 },
          { token: 'broken-1', days: 2 },
        ],
      },
      headers: { 'idempotency-key': 'ops-worker-1' },
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const job = await waitFor(async () => {
      const j = (await (await svc.call(`/v1/jobs/${id}`, { key: admin })).json()) as { finished_at: string | null; status: string };
      return j.finished_at ? j : null;
    });
    expect(job.status).toBe('partial');

    const text = await (await svc.call('/metrics', { key: admin })).text();
    expect(metric(text, 'hotelrates_upstream_requests_total{source="metasearch",outcome="contract_changed"}')).toBe(1);
    expect(metric(text, 'hotelrates_upstream_requests_total{source="metasearch",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'hotelrates_batch_items_total{outcome="succeeded"}')).toBe(1);
    expect(metric(text, 'hotelrates_batch_items_total{outcome="failed"}')).toBe(1);
    expect(metric(text, 'hotelrates_batch_queue_depth{status="queued"}')).toBe(0);
    expect(readdirSync(path.join(dataDir, 'diagnostics', 'metasearch')).some((f) => f.endsWith('.html.gz'))).toBe(true);

    const status = (await (await svc.call('/v1/sources/status', { key: admin })).json()) as {
      sources: { source: string; state: string; last_contract_change_at: string | null }[];
    };
    const metasearch = status.sources.find((s) => s.source === 'metasearch')!;
    expect(metasearch.state).toBe('degraded');
    expect(metasearch.last_contract_change_at).not.toBeNull();
  });
});
