/**
 * When a watch tells: its rule against the previous check (pure). State rules (`below`,
 * `available`, `undercut`) fire when the state is entered, the first check entering it too (no
 * previous check counts as "not in it"); change rules (`drop_pct`, `any_change`) need a previous check.
 */
import { z } from 'zod';
import { ProvenanceSchema } from './provenance.js';
import type { Observation, ObservedItem, Operation } from './watch-observation.js';

export const RuleSchema = z
  .discriminatedUnion('type', [
    z
      .strictObject({ type: z.literal('below'), price: z.number().positive().max(1e9).describe("a total in the target's currency") })
      .describe('a night, seller or source priced below `price`'),
    z
      .strictObject({ type: z.literal('drop_pct'), pct: z.number().gt(0).max(100).describe('percent') })
      .describe('a price down by at least `pct` percent since the previous check'),
    z.strictObject({ type: z.literal('any_change') }).describe('any price or availability different from the previous check'),
    z.strictObject({ type: z.literal('available') }).describe('a night (calendar) or the stay (offers, compare) becomes bookable'),
    z
      .strictObject({ type: z.literal('undercut') })
      .describe(
        'compare targets with the official site: an agency goes below the official price (parity undercut); parity_range targets: a disparity not in the previous check',
      ),
  ])
  .describe('when to tell (a watch.triggered event)');
export type Rule = z.infer<typeof RuleSchema>;

/** Why a rule cannot apply to a target, or null. */
export function ruleProblem(rule: Rule, operation: Operation, target: Record<string, unknown>): string | null {
  if (operation === 'parity_range' && rule.type !== 'undercut') return 'a parity_range target takes rule undercut (a new disparity)';
  if (rule.type !== 'undercut') return null;
  if (operation !== 'compare' && operation !== 'parity_range') return 'rule undercut needs a compare or parity_range target';
  const sources = (target.sources ?? {}) as Record<string, unknown>;
  if (!sources.official || Object.keys(sources).length < 2) return 'rule undercut needs sources.official and at least one agency';
  return null;
}

const Side = z.object({ total: z.number().nullable(), currency: z.string().nullable(), available: z.boolean() });
export const ChangeSchema = z.object({
  key: z.string().describe('the night (calendar), seller (offers) or source (compare)'),
  before: Side.nullable(),
  after: Side.extend({ provenance: ProvenanceSchema.nullable() }).nullable(),
  delta: z.number().nullable().describe('after minus before, same currency'),
  delta_pct: z.number().nullable(),
});
export type Change = z.infer<typeof ChangeSchema>;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function side(i: ObservedItem) {
  return { total: i.total, currency: i.currency, available: i.available };
}

/** Every night, seller or source whose price or availability differs from the previous check. */
export function diff(prev: Observation | null, cur: Observation): Change[] {
  if (!prev) return [];
  const before = new Map(prev.items.map((i) => [i.key, i]));
  const after = new Map(cur.items.map((i) => [i.key, i]));
  // a source one of the two checks could not read tells nothing about a change
  const unread = new Set([...(prev.unknown ?? []), ...(cur.unknown ?? [])]);
  const out: Change[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (unread.has(key)) continue;
    const b = before.get(key) ?? null;
    const a = after.get(key) ?? null;
    if (b && a && b.total === a.total && b.currency === a.currency && b.available === a.available) continue;
    const comparable = b?.total != null && a?.total != null && b.currency === a.currency;
    out.push({
      key,
      before: b ? side(b) : null,
      after: a ? { ...side(a), provenance: a.provenance } : null,
      delta: comparable ? round(a.total! - b.total!, 2) : null,
      delta_pct: comparable && b.total! > 0 ? round(((a.total! - b.total!) / b.total!) * 100, 2) : null,
    });
  }
  return out;
}

export interface Verdict {
  fired: boolean;
  /** What happened, in words (the event's summary). */
  reason: string;
  /** The nights, sellers or sources that made it fire. */
  matched: Change[];
}

const asChange = (i: ObservedItem, prev: ObservedItem | undefined): Change => {
  const comparable = prev?.total != null && i.total != null && prev.currency === i.currency;
  return {
    key: i.key,
    before: prev ? side(prev) : null,
    after: { ...side(i), provenance: i.provenance },
    delta: comparable ? round(i.total! - prev.total!, 2) : null,
    delta_pct: comparable && prev.total! > 0 ? round(((i.total! - prev.total!) / prev.total!) * 100, 2) : null,
  };
};

export function evaluate(rule: Rule, operation: Operation, prev: Observation | null, cur: Observation, changes: Change[]): Verdict {
  const before = new Map((prev?.items ?? []).map((i) => [i.key, i]));
  const unit = operation === 'calendar' ? 'night' : operation === 'offers' ? 'seller' : operation === 'parity_range' ? 'disparity' : 'source';
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  switch (rule.type) {
    case 'below': {
      const currency = cur.currency;
      const inState = (i: ObservedItem | undefined) =>
        Boolean(i && i.available && i.total !== null && i.total < rule.price && (!currency || i.currency === currency));
      const matched = cur.items.filter((i) => inState(i) && !inState(before.get(i.key))).map((i) => asChange(i, before.get(i.key)));
      return { fired: matched.length > 0, reason: `${plural(matched.length, unit)} now below ${rule.price} ${currency ?? ''}`.trim(), matched };
    }
    case 'drop_pct': {
      const matched = changes.filter((c) => c.delta_pct !== null && c.delta_pct <= -rule.pct);
      return { fired: matched.length > 0, reason: `${plural(matched.length, unit)} down ${rule.pct}% or more since the previous check`, matched };
    }
    case 'any_change':
      return { fired: changes.length > 0, reason: `${plural(changes.length, unit)} changed since the previous check`, matched: changes };
    case 'available': {
      if (operation === 'calendar') {
        const matched = cur.items.filter((i) => i.available && !before.get(i.key)?.available).map((i) => asChange(i, before.get(i.key)));
        return { fired: matched.length > 0, reason: `${plural(matched.length, 'night')} became bookable`, matched };
      }
      const was = (prev?.items ?? []).some((i) => i.available);
      const now = cur.items.filter((i) => i.available);
      const fired = !was && now.length > 0;
      return {
        fired,
        reason: fired ? `the stay became bookable (${plural(now.length, unit)})` : 'no change in availability',
        matched: fired ? now.map((i) => asChange(i, before.get(i.key))) : [],
      };
    }
    case 'undercut': {
      if (operation === 'parity_range') {
        // a disparity (stay and agency) the previous check did not have: already told ones are not told again
        const fresh = cur.items.filter((i) => !before.has(i.key));
        const matched = fresh.map((i) => asChange(i, undefined));
        return {
          fired: fresh.length > 0,
          reason: fresh.length ? `${fresh.length} new disparit${fresh.length === 1 ? 'y' : 'ies'}` : 'no new disparity',
          matched,
        };
      }
      const undercutting = (o: Observation | null) => new Set(o?.parity?.status === 'undercut' ? o.parity.undercuts.map((u) => u.source) : []);
      const was = undercutting(prev);
      const fresh = [...undercutting(cur)].filter((s) => !was.has(s));
      // what made it fire: the official price and the new undercutters, as far as they moved (an unmoved price is no change)
      const involved = new Set(fresh.length ? ['official', ...fresh] : []);
      const moved = changes.filter((c) => involved.has(c.key));
      const matched = moved.length ? moved : cur.items.filter((i) => fresh.includes(i.key)).map((i) => asChange(i, before.get(i.key)));
      const detail =
        cur.parity?.undercuts.filter((u) => fresh.includes(u.source)).map((u) => `${u.source} by ${u.amount} ${cur.parity!.basis!.currency} (${u.pct}%)`) ?? [];
      return { fired: fresh.length > 0, reason: fresh.length ? `undercut on the official site: ${detail.join(', ')}` : 'no new undercut', matched };
    }
  }
}
