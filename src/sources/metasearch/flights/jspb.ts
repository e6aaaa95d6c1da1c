/**
 * Readers for the positional arrays the search engine's pages carry (JSPB), beyond the shared JSON
 * readers (src/domain/json.ts): zero values are left out as null, so an hour of 0 reads `[null, 30]`.
 */
import { arrOrNull, at, num } from '../../../domain/json.js';

/** A path of array indexes into a JSPB value. */
export type Path = readonly number[];

/** A JSPB flag: 1 is set; null or absent is unset. */
export function flag(root: unknown, ...path: Path): boolean {
  return at(root, ...path) === 1;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `[2026, 8, 15]` → `2026-08-15`. */
export function dateOf(root: unknown, ...path: Path): string | null {
  const v = arrOrNull(root, ...path);
  if (!v || typeof v[0] !== 'number' || typeof v[1] !== 'number' || typeof v[2] !== 'number') return null;
  return `${v[0]}-${pad(v[1])}-${pad(v[2])}`;
}

/** `[15, 30]` → `15:30`; `[null, 30]` → `00:30`; `[7]` → `07:00`. */
export function timeOf(root: unknown, ...path: Path): string | null {
  const v = arrOrNull(root, ...path);
  if (!v) return null;
  const [h, m] = v;
  if ((h !== null && h !== undefined && typeof h !== 'number') || (m !== null && m !== undefined && typeof m !== 'number')) return null;
  return `${pad(h ?? 0)}:${pad(m ?? 0)}`;
}

/** `[[null, 110], token]` style money: the number at index 1 of the head. */
export function moneyOf(root: unknown, ...path: Path): number | null {
  return num(root, ...path, 1);
}
