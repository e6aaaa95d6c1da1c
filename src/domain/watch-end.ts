/**
 * When a watch is over (pure): its end date has come, or the stay it prices has passed. A stay
 * counts as past once its date is over everywhere: before today in UTC−12. A calendar without a start rolls with the clock and never passes.
 */
import { addDays, earliestStayDate } from './dates.js';
import type { Operation } from './watch-observation.js';

/** The first date the target prices (a stay's check-in, a calendar's start); null for a rolling calendar. */
export function stayStart(operation: Operation, target: Record<string, unknown>): string | null {
  const date = operation === 'calendar' || operation === 'parity_range' ? target.start : target.check_in;
  return typeof date === 'string' ? date : null;
}

/** The last date the target prices: the check-in of a stay, a calendar's last night; null for a rolling calendar. */
export function stayLast(operation: Operation, target: Record<string, unknown>): string | null {
  const start = stayStart(operation, target);
  if (!start || (operation !== 'calendar' && operation !== 'parity_range')) return start;
  // the operations' default number of days
  const days = typeof target.days === 'number' ? target.days : operation === 'calendar' ? 90 : 14;
  return addDays(start, days - 1);
}

/**
 * The earliest date that may still be today somewhere: `today` (WATCH_TODAY, tests) a day back, or
 * the clock's today in UTC−12 — the date the operations refuse stays before (codes.ts futureDate),
 * so a watch ends the moment its target would be refused, never checking into a 422.
 */
export function earliestCurrentDate(today: string | undefined, now = new Date()): string {
  return today ? addDays(today, -1) : earliestStayDate(now);
}

export type EndReason = 'end_date' | 'stay_passed';

/** Why the watch is over at `now`, or null while it is not. */
export function endOf(
  w: { operation: Operation; target: Record<string, unknown>; ends_at: Date | null },
  now: Date,
  today: string | undefined,
): EndReason | null {
  if (w.ends_at && w.ends_at.getTime() <= now.getTime()) return 'end_date';
  const last = stayLast(w.operation, w.target);
  return last !== null && last < earliestCurrentDate(today, now) ? 'stay_passed' : null;
}
