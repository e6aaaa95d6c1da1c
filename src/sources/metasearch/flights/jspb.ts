/**
 * Readers for the positional arrays the search engine's pages carry (JSPB): zero values are
 * left out as null, so an hour of 0 reads `[null, 30]`.
 */

export type Path = readonly number[];

export function at(root: unknown, path: Path): unknown {
  let node = root;
  for (const i of path) {
    if (!Array.isArray(node)) return undefined;
    node = node[i];
  }
  return node;
}

export function str(root: unknown, path: Path): string | null {
  const v = at(root, path);
  return typeof v === 'string' && v !== '' ? v : null;
}

export function num(root: unknown, path: Path): number | null {
  const v = at(root, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function arr(root: unknown, path: Path): unknown[] | null {
  const v = at(root, path);
  return Array.isArray(v) ? v : null;
}

/** A JSPB flag: 1 is set; null or absent is unset. */
export function flag(root: unknown, path: Path): boolean {
  return at(root, path) === 1;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `[2026, 8, 15]` → `2026-08-15`. */
export function dateOf(root: unknown, path: Path): string | null {
  const v = arr(root, path);
  if (!v || typeof v[0] !== 'number' || typeof v[1] !== 'number' || typeof v[2] !== 'number') return null;
  return `${v[0]}-${pad(v[1])}-${pad(v[2])}`;
}

/** `[15, 30]` → `15:30`; `[null, 30]` → `00:30`; `[7]` → `07:00`. */
export function timeOf(root: unknown, path: Path): string | null {
  const v = arr(root, path);
  if (!v) return null;
  const [h, m] = v;
  if ((h !== null && h !== undefined && typeof h !== 'number') || (m !== null && m !== undefined && typeof m !== 'number')) return null;
  return `${pad(h ?? 0)}:${pad(m ?? 0)}`;
}

/** `[[null, 110], token]` style money: the number at index 1 of the head. */
export function moneyOf(root: unknown, path: Path): number | null {
  return num(root, [...path, 1]);
}
