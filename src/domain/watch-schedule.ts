/**
 * Watch schedule arithmetic (pure). A watch's slots are `every_hours` apart, an hour being
 * WATCH_HOUR_S seconds (3600 but in tests and benchmarks); each slot is one queue entry whose id
 * is derived from the watch and the slot (src/jobs/watch-queue.ts).
 */
import { createHash } from 'node:crypto';

/** A UUID (RFC 4122 layout, version 8: custom) derived from its parts: one queue entry per slot. */
export function derivedUuid(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(JSON.stringify(parts)).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Milliseconds between two slots. */
export function periodMs(config: { WATCH_HOUR_S: number }, everyHours: number): number {
  return everyHours * config.WATCH_HOUR_S * 1000;
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
export function retryDelayMs(config: { WATCH_HOUR_S: number }, failures: number, period: number): number {
  const base = Math.max(1000, (config.WATCH_HOUR_S * 1000) / 120);
  return Math.min(base * 2 ** failures, period / 4);
}
