/**
 * Readers of one loosely typed JSON value, as the parsers take them out of upstream payloads.
 * Two strictness levels on purpose: some payloads write ids and prices as strings, others must
 * not have a string taken for a number (or a number for a name).
 */

/** A string, trimmed, or a number written as text; '' for anything else. */
export function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
}

/** A string, trimmed; '' for anything else, numbers included. */
export function stringText(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** A trimmed non-empty string, or null. */
export function nonEmptyText(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** A finite number, or a string holding one; null for anything else. */
export function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** A finite number; null for anything else, numeric strings included. */
export function finiteNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * A source's date or time, as precise as the source states it: a date-only value stays YYYY-MM-DD
 * (never turned into a midnight timestamp it did not state); a value with a time becomes ISO-8601
 * UTC to the second. null for anything unreadable.
 */
export function dateOrInstant(v: unknown): string | null {
  const s = nonEmptyText(v);
  if (!s) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}
