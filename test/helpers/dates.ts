/**
 * Stay and flight dates for tests, relative to today: the operations refuse a date before today in
 * UTC-12 (src/domain/codes.ts futureDate), so a test cannot send the dates its recordings were
 * made for. `ahead(n)` is a date n days after the earliest one accepted; `shiftFrom(anchor)` moves
 * a recorded date (and every date of the same test) by whole weeks, so that `anchor` lands at least
 * a week ahead, weekdays and distances kept. Where a parser compares the stay a page states with the
 * request, the test serves the recorded page with its dates moved the same way (`shiftText`).
 */
import { addDays, earliestStayDate, nightsBetween } from '../../src/domain/dates.js';

/** A date `n` days after the earliest a stay may start today. */
const ahead = (n: number): string => addDays(earliestStayDate(), n);

export interface DateShift {
  /** The recorded date moved by the shift. */
  (date: string): string;
  /** Days moved (a multiple of 7). */
  days: number;
  /** Every `YYYY-MM-DD` in a text (a recorded page or payload), moved by the shift. */
  text(body: string): string;
  /** A recorded JSON payload with its dates moved: `YYYY-MM-DD` strings and `{day, month, year}` parts (the travel group's). */
  json<T>(payload: T): T;
}

/** A shift by whole weeks taking `anchor` at least `minAhead` days past the earliest accepted date. */
export function shiftFrom(anchor: string, minAhead = 7): DateShift {
  const gap = nightsBetween(anchor, ahead(minAhead));
  const days = gap > 0 ? Math.ceil(gap / 7) * 7 : 0;
  const shift = ((date: string) => addDays(date, days)) as DateShift;
  shift.days = days;
  shift.text = (body: string) => shiftText(body, days);
  shift.json = <T>(payload: T) => shiftJson(payload, days) as T;
  return shift;
}

/** Every `YYYY-MM-DD` in `body`, and every `[YYYY,M,D]` (the flight pages' dates), moved by `days`. */
function shiftText(body: string, days: number): string {
  return body
    .replace(/\b(20\d\d-[01]\d-[0-3]\d)\b/g, (d) => addDays(d, days))
    .replace(/\[(20\d\d),(\d{1,2}),(\d{1,2})\]/g, (_, y: string, m: string, d: string) => {
      const [year, month, day] = addDays(`${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`, days)
        .split('-')
        .map(Number);
      return `[${year},${month},${day}]`;
    });
}

/** `value` with every `YYYY-MM-DD` string and `{day, month, year}` date moved by `days`. */
export function shiftJson(value: unknown, days: number): unknown {
  if (typeof value === 'string') return shiftText(value, days);
  if (Array.isArray(value)) return value.map((v) => shiftJson(v, days));
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, shiftJson(v, days)]));
  if (typeof o.day === 'number' && typeof o.month === 'number' && typeof o.year === 'number') {
    const pad = (n: number) => String(n).padStart(2, '0');
    const [year, month, day] = addDays(`${o.year}-${pad(o.month)}-${pad(o.day)}`, days)
      .split('-')
      .map(Number);
    Object.assign(out, { day, month, year });
  }
  return out;
}
