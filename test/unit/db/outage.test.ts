import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseOutage, OUTAGE_SETTLE_MS, whileDatabaseDown } from '../../../src/db/outage.js';

/** The messages a DatabaseOutage logs, through a real pino logger. */
function logged(): { lines: string[]; outage: DatabaseOutage } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
      done();
    },
  });
  return { lines, outage: new DatabaseOutage(pino({ level: 'warn' }, sink)) };
}

const cut = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('DatabaseOutage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a server stopping (connections cut, one retry answered, then refused) is one outage, logged once each way', async () => {
    const { lines, outage } = logged();
    outage.down('queue', cut);
    expect(outage.since).not.toBeNull();
    outage.up('queue');
    // answering again: /healthz may say so at once, the closing line waits for the settle time
    expect(outage.since).toBeNull();
    await vi.advanceTimersByTimeAsync(OUTAGE_SETTLE_MS / 2);
    outage.down('queue', refused);
    outage.down('listen', refused);
    expect(outage.since).not.toBeNull();
    await vi.advanceTimersByTimeAsync(20_000);
    outage.up('listen');
    outage.up('queue');
    await vi.advanceTimersByTimeAsync(OUTAGE_SETTLE_MS);
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines).toEqual(['database unreachable: work waits and retries with backoff until it answers again', 'database reachable again']);
    expect(outage.count).toBe(1);
  });

  it('two outages further apart than the settle time are two', async () => {
    const { lines, outage } = logged();
    for (let i = 0; i < 2; i++) {
      outage.down('queue', refused);
      outage.up('queue');
      await vi.advanceTimersByTimeAsync(OUTAGE_SETTLE_MS + 1);
    }
    await vi.waitFor(() => expect(lines).toHaveLength(4));
    expect(outage.count).toBe(2);
  });
});

describe('whileDatabaseDown', () => {
  it('shutting down during a pause: one last attempt answers (the database back meanwhile), not the failure of before the pause', async () => {
    const { outage } = logged();
    let stopping = false;
    let calls = 0;
    const answer = await whileDatabaseDown(
      async () => {
        calls++;
        if (calls === 1) {
          // refused, then the process starts to stop while the attempt backs off (at least 125 ms)
          setTimeout(() => (stopping = true), 20);
          throw refused;
        }
        return 'answered';
      },
      { outage, part: 'queue', stopped: () => stopping },
    );
    expect([answer, calls]).toEqual(['answered', 2]);
  });

  it('shutting down with the database still away: the last attempt’s own failure is thrown', async () => {
    const { outage } = logged();
    let calls = 0;
    const run = whileDatabaseDown(
      async () => {
        calls++;
        throw Object.assign(new Error(`refused ${calls}`), { code: 'ECONNREFUSED' });
      },
      { outage, part: 'queue', stopped: () => calls >= 1 },
    );
    await expect(run).rejects.toThrow('refused 1');
    expect(calls).toBe(1);
  });
});
