/**
 * What a tool costs, as data an agent can reckon with before it calls (a 330-night calendar, a
 * second page) and as the one line that opens its MCP description: both from the descriptor's
 * credit rule, so they never disagree with what is charged.
 */
import type { CostGrowth, Tool } from './define-tool.js';

/**
 * The cost of a tool as its MCP listing states it in `_meta` (COST_META_KEY); what is left out is
 * its default: per call, nothing on top, never free once it ran, not cached.
 */
export interface ToolCost {
  /** Credits a successful, non-empty call is charged (per page for a paged tool). */
  credits: number;
  per?: 'page';
  /** Charges on top, and what asks for them. */
  growth?: CostGrowth[];
  /** When a call that ran is free (failures always are). */
  free_when?: string;
  /** A repeated identical call within the answer's freshness is answered from the shared result cache, free. */
  cached?: true;
}

/** The `_meta` key of a tool's cost in the MCP listing. */
export const COST_META_KEY = 'hotelrates/cost';

export function toolCost(tool: Tool): ToolCost {
  const c = tool.credits;
  return {
    credits: c.base,
    ...(c.per === 'page' ? { per: 'page' as const } : {}),
    ...(c.growth?.length ? { growth: c.growth } : {}),
    ...(c.free ? { free_when: c.free } : {}),
    ...(tool.cache ? { cached: true as const } : {}),
  };
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** "Cost: 5 credits, +3 per night when basis is mainstream; free when the calendar is empty." */
export function costLine(tool: Tool): string {
  const cost = toolCost(tool);
  if (!tool.metered) return 'Cost: free.';
  const base = `${credits(cost.credits)}${cost.per === 'page' ? ' per page' : ''}`;
  const growth = (cost.growth ?? []).map((g) => `, +${credits(g.credits)} per ${g.per}${g.when ? ` when ${g.when}` : ''}`).join('');
  const free = cost.free_when ? `; free when ${cost.free_when}` : '';
  // the free repeat of a cached call is said once, in the server's instructions (and `cached` in _meta)
  return `Cost: ${base}${growth}${free}.`;
}
