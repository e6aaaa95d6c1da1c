/**
 * Name resolution helpers for POST /v1/search: how well a candidate's name matches the requested
 * one, and the contract's ordering of matches (verified, then name score, then upstream rank).
 */

/** Lower-case words with accents and punctuation removed ("Hôtel d'Orsay!" → ["hotel", "d", "orsay"]). */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Word overlap of two names, 0-1: the Dice coefficient of their word sets (2·shared / (|a| + |b|)),
 * so extra words on either side lower the score and identical word sets score 1. Rounded to 4 places.
 */
export function nameScore(requested: string, candidate: string): number {
  const a = new Set(nameWords(requested));
  const b = new Set(nameWords(candidate));
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return Math.round(((2 * shared) / (a.size + b.size)) * 10_000) / 10_000;
}

export interface RankableMatch {
  /** Upstream position, 0 = first. */
  rank: number;
  verified: boolean | null;
  name_score: number | null;
}

const VERIFIED_ORDER = (v: boolean | null): number => (v === true ? 0 : v === null ? 1 : 2);

/** Best first: verified before unchecked before failed, then higher name score, then upstream rank. */
export function rankMatches<T extends RankableMatch>(matches: readonly T[]): T[] {
  return [...matches].sort((x, y) => VERIFIED_ORDER(x.verified) - VERIFIED_ORDER(y.verified) || (y.name_score ?? -1) - (x.name_score ?? -1) || x.rank - y.rank);
}
