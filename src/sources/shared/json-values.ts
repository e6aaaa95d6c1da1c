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
