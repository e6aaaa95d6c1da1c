/** Value readers of the board parsers beyond the shared JSON readers (src/domain/json.ts): dates, pay periods, entities. */
import { textOrNull } from '../../domain/json.js';
import type { PayPeriod } from './types.js';

/** ISO-8601 UTC for a timestamp the system gives (ISO with offset, `YYYY-MM-DD HH:MM:SS UTC`, epoch ms); dates stay dates. */
export function isoUtc(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return trimMs(new Date(v).toISOString());
  const s = textOrNull(v);
  if (!s) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const normalized = s.replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/, '$1T$2Z');
  const d = new Date(normalized);
  return Number.isNaN(d.getTime()) ? null : trimMs(d.toISOString());
}

function trimMs(iso: string): string {
  return iso.replace('.000Z', 'Z');
}

/** Unique non-empty strings, first occurrence kept. */
export function uniq(values: (string | null | undefined)[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const t = v?.trim();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Decodes the entity-escaped HTML some boards return (Greenhouse `content`). */
export function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}

/**
 * A board's pay period in our words: Recruitee's `period` ("year"), Ashby's `interval` ("1 YEAR"),
 * Lever's `interval` ("per-year-salary", "per-hour-wage"), schema.org's `unitText` ("YEAR",
 * Teamtailor). Anything else (one-time, a count of several periods) is null: not a period we can say.
 */
export function payPeriod(v: unknown): PayPeriod | null {
  const t = textOrNull(v)?.toLowerCase();
  if (!t) return null;
  const m =
    /^(?:per-|1\s+)?(hour|day|week|month|year)(?:ly|s)?(?:-(?:salary|wage))?$/.exec(t) ?? /^(hourly|daily|weekly|monthly|yearly|annual|annually)$/.exec(t);
  if (!m) return null;
  const word = m[1]!;
  const map: Record<string, PayPeriod> = { hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year', annual: 'year', annually: 'year' };
  return map[word] ?? (word as PayPeriod);
}
