/**
 * The watch queues on pg-boss: one entry per attempt at a watch's slot (its id derived from the
 * watch and the slot, so the same slot queued twice, by a sweep or a replay, is one entry while it
 * is kept, and a duplicate that slips through finds the slot gone: platform/watches.ts claimSlot),
 * one per webhook delivery attempt, and the periodic sweep.
 */
import type { Tx } from '../db/client.js';
import type PgBoss from 'pg-boss';
import type { Config } from '../config/config.js';
import type { Operation } from '../domain/watch-observation.js';
import { derivedUuid } from '../domain/watch-schedule.js';
import { bossDb, expectedCalendarSeconds } from './calendar-jobs.js';
import { expiryBounds, runExpirySeconds } from './run-expiry.js';

export const WATCH_CHECK_QUEUE = 'watch-check';
export const WATCH_WEBHOOK_QUEUE = 'watch-webhook';
export const WATCH_SWEEP_QUEUE = 'watch-sweep';

export interface CheckJob {
  watch_id: string;
  seq: number;
}

export interface WatchWebhookJob {
  event_id: string;
  /** The attempt this queue entry makes (1 = the first). */
  attempt: number;
  /** The event's round of attempts (0 = the first delivery, +1 per redelivery); absent: 0. */
  round?: number;
}

/**
 * How long one attempt may hold its slot: twice the operation's expected run time. A killed
 * worker's slot is taken again once this has passed, so it stays well inside a one-hour period
 * (at most 30 minutes, whatever JOB_MAX_EXPIRY_S allows).
 */
export function leaseSeconds(config: Pick<Config, 'JOB_MIN_EXPIRY_S' | 'JOB_MAX_EXPIRY_S'>, operation: Operation, input: Record<string, unknown>): number {
  let expected: number;
  if (operation === 'calendar') {
    // the target as given: the operation's defaults apply where it leaves a field out
    const r = { days: 90, verify_sources: 0, basis: 'cheapest', probe_min_stay: true, ...input } as unknown as Parameters<typeof expectedCalendarSeconds>[0];
    expected = expectedCalendarSeconds(r);
  } else if (operation === 'offers') expected = 10 * Number(input.coverage ?? 1) + 5;
  else expected = Number(input.timeout_s ?? 45) + 5;
  const bounds = expiryBounds(config);
  return runExpirySeconds(expected, { ...bounds, maxSeconds: Math.min(1800, bounds.maxSeconds) });
}

/** Queues an attempt of the watch's slot `seq` at `at`, inside the caller's transaction when given. */
export async function queueCheck(
  boss: PgBoss,
  tx: Tx | null,
  w: { id: string; seq: number },
  at: Date,
  leaseS: number,
  tag: string | number = 'slot',
): Promise<void> {
  const data: CheckJob = { watch_id: w.id, seq: w.seq };
  // retryLimit covers a worker dying mid-check (the entry expires and runs again) and a slot held elsewhere
  const entry = {
    id: derivedUuid('watch-check', w.id, w.seq, tag),
    name: WATCH_CHECK_QUEUE,
    data,
    startAfter: at,
    expireInSeconds: leaseS,
    retryLimit: 10,
    retryDelay: 2,
  };
  await (tx ? boss.insert([entry], { db: bossDb(tx) }) : boss.insert([entry]));
}

/** Queues a webhook attempt inside the caller's transaction: it exists exactly when that transaction commits. */
export async function queueWatchWebhook(boss: PgBoss, tx: Tx, eventId: string, attempt = 1, delayS = 0, round = 0): Promise<void> {
  const data: WatchWebhookJob = { event_id: eventId, attempt, round };
  await boss.insert(
    [{ name: WATCH_WEBHOOK_QUEUE, data, retryLimit: 3, retryDelay: 5, expireInSeconds: 60, startAfter: new Date(Date.now() + delayS * 1000) }],
    { db: bossDb(tx) },
  );
}
