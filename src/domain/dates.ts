/** Pure UTC calendar arithmetic on `YYYY-MM-DD` dates (no time zone, no clock but the one passed in). */

const DAY_MS = 86_400_000;

const utcMidnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** `date` moved by `n` days (negative goes back). */
export function addDays(date: string, n: number): string {
  return new Date(utcMidnight(date) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (the nights of a stay), negative when `to` is earlier; NaN when either is not a date. */
export function nightsBetween(from: string, to: string): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS);
}

/** Today's date in UTC. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The earliest date a stay or flight can still start: today in UTC−12, the last time zone still on
 * a given day (a date before it is over everywhere on Earth, so nothing can be priced for it).
 */
export function earliestStayDate(now = new Date()): string {
  return todayUtc(new Date(now.getTime() - 12 * 3_600_000));
}
