/**
 * Watch schedule arithmetic and queue entries. A watch's slots are `every_hours` apart; each slot
 * is one pg-boss entry whose id is derived from the watch and the slot, so the same slot queued
 * twice (a sweep, a replay) is one entry while it is kept, and a duplicate that slips through finds
 * the slot gone (store.claimSlot).
 */
import { createHash } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { TransactionSql } from 'postgres';
import type { Config } from '../config/config.js';
import { bossDb, expectedCalendarSeconds } from '../jobs/calendar-jobs.js';
import type { Operation } from './targets.js';

export const WATCH_CHECK_QUEUE = 'watch-check';
export const WATCH_WEBHOOK_QUEUE = 'watch-webhook';
export const WATCH_SWEEP_QUEUE = 'watch-sweep';

export interface CheckJob {
  watch_id: string;
  seq: number;
}

/** A UUID (RFC 4122 layout, version 8: custom) derived from its parts: one queue entry per slot. */
export function derivedUuid(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(JSON.stringify(parts)).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Milliseconds between two slots. */
export function periodMs(config: Pick<Config, 'WATCH_HOUR_S'>, everyHours: number): number {
  return everyHours * config.WATCH_HOUR_S * 1000;
}

/**
 * How long one attempt may hold its slot: twice the operation's expected run time. A killed
 * worker's slot is taken again once this has passed, so it stays well inside a one-hour period.
 */
export function leaseSeconds(config: Pick<Config, 'JOB_MIN_EXPIRY_S'>, operation: Operation, input: Record<string, unknown>): number {
  let expected: number;
  if (operation === 'calendar') {
    // the target as given: the operation's defaults apply where it leaves a field out
    const r = { days: 90, verify_sources: 0, basis: 'cheapest', probe_min_stay: true, ...input } as unknown as Parameters<typeof expectedCalendarSeconds>[0];
    expected = expectedCalendarSeconds(r);
  }
  else if (operation === 'offers') expected = 10 * Number(input.coverage ?? 1) + 5;
  else expected = Number(input.timeout_s ?? 45) + 5;
  return Math.max(config.JOB_MIN_EXPIRY_S, Math.min(1800, Math.ceil((Number.isFinite(expected) ? expected : 60) * 2)));
}

/**
 * Where the schedule goes after the slot due at `due` was dealt with at `now`: the next slot, and
 * how many whole periods passed unchecked meanwhile (the service was down longer than a period).
 * `including` counts the slot itself as missed (all its attempts failed).
 */
export function nextSlot(due: Date, now: Date, period: number, including = false): { at: Date; missed: number } {
  const late = Math.max(0, Math.floor((now.getTime() - due.getTime()) / period));
  return { at: new Date(due.getTime() + (late + 1) * period), missed: late + (including ? 1 : 0) };
}

/** Delay before the next attempt of a failed slot: doubling from 1/120 of an hour, at most a quarter period. */
export function retryDelayMs(config: Pick<Config, 'WATCH_HOUR_S'>, failures: number, period: number): number {
  const base = Math.max(1000, (config.WATCH_HOUR_S * 1000) / 120);
  return Math.min(base * 2 ** failures, period / 4);
}

/** Queues an attempt of the watch's slot `seq` at `at`, inside the caller's transaction when given. */
export async function queueCheck(boss: PgBoss, tx: TransactionSql | null, w: { id: string; seq: number }, at: Date, leaseS: number, tag: string | number = 'slot'): Promise<void> {
  const data: CheckJob = { watch_id: w.id, seq: w.seq };
  // retryLimit covers a worker dying mid-check (the entry expires and runs again) and a slot held elsewhere
  const entry = { id: derivedUuid('watch-check', w.id, w.seq, tag), name: WATCH_CHECK_QUEUE, data, startAfter: at, expireInSeconds: leaseS, retryLimit: 10, retryDelay: 2 };
  await (tx ? boss.insert([entry], { db: bossDb(tx) }) : boss.insert([entry]));
}
