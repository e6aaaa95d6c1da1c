/**
 * Drift rules: what every real reply of a source states, so that a reply read into items that all
 * lack it (every price null, every title gone) is a contract change, never a 200 of empty shells.
 * Data only (each source's guards.ts holds its own, src/sources/<alias>/; upstream/drift.ts applies them).
 */

/** One fact every item states: a field path (`a.b`); `a|b` when the source states it in either field. */
export interface DriftFact {
  field: string;
  /** The verdict needs at least this many items (a price: a few items all unpriced, not one sold-out room). */
  minItems?: number;
  /** Checked only when the request asked for something priced (dates given). */
  priced?: boolean;
}

export interface DriftRule {
  /**
   * Where the items are in the parsed answer: dotted paths from its root, lists flattened at every
   * step (`units.rows`: every row of every unit); '' is the answer itself. Several paths add up.
   */
  items: string | readonly string[];
  states: readonly (string | DriftFact)[];
  /**
   * For parsers that skip an item they cannot read (no id, no title): a pattern each item of the raw
   * reply carries once. A reply holding at least `rawMin` (default 3) of them from which no item was
   * read is a drift too.
   */
  raw?: { pattern: string; rawMin?: number };
}
