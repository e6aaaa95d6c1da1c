import type { DriftFact, DriftRule } from '../config/drift-rules.js';

/*
 * Applies a source's drift rule (config/drift-rules.ts) to a parsed answer: when its items all lack
 * a fact the source always states, the verdict names it, and the reply is a contract change
 * (withContractGuard keeps the raw reply and answers 503, free).
 */

export interface DriftContext {
  /** The request asked for something priced (dates given): price facts are checked. */
  priced?: boolean;
}

const absent = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The values at a dotted path, lists flattened at every step. */
function collect(root: unknown, path: string): unknown[] {
  let values: unknown[] = Array.isArray(root) ? (root as unknown[]) : [root];
  for (const name of path.split('.').filter(Boolean)) {
    values = values.flatMap((v): unknown[] => {
      const x = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined;
      return Array.isArray(x) ? (x as unknown[]) : absent(x) ? [] : [x];
    });
  }
  return values;
}

function fieldOf(item: unknown, field: string): unknown {
  return field.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), item);
}

/** Whether an item states the fact (any of its alternative fields). */
function states(item: unknown, field: string): boolean {
  return field.split('|').some((f) => !absent(fieldOf(item, f)));
}

/** The items of a parsed answer a rule looks at. */
export function driftItems(rule: DriftRule, parsed: unknown): unknown[] {
  const paths = typeof rule.items === 'string' ? [rule.items] : rule.items;
  return paths.flatMap((p) => collect(parsed, p));
}

/**
 * What the answer lacks that the source always states, or null when it is a real answer (or has no
 * items, and the raw reply, when the rule counts its items there, holds none either).
 */
export function driftVerdict(rule: DriftRule, parsed: unknown, ctx: DriftContext = {}, raw?: () => string): string | null {
  const items = driftItems(rule, parsed);
  if (!items.length) {
    if (!rule.raw || !raw) return null;
    const held = raw().match(new RegExp(rule.raw.pattern, 'g'))?.length ?? 0;
    return held >= (rule.raw.rawMin ?? 3) ? `the reply holds ${held} items, none read` : null;
  }
  for (const s of rule.states) {
    const fact: DriftFact = typeof s === 'string' ? { field: s } : s;
    if (fact.priced && !ctx.priced) continue;
    if (items.length < (fact.minItems ?? 1)) continue;
    if (items.every((item) => !states(item, fact.field))) return `all ${items.length} items lack ${fact.field.replaceAll('|', ' or ')}`;
  }
  return null;
}
