import type { Sql } from '../db/client.js';
import { clearanceStates, type ClearanceState } from '../platform/wall-clearances.js';
import { PATH_EVENTS, type PathEvent } from './metrics.js';
import { readPathCounts } from './outcome-store.js';

/*
 * How each source was reached in the last hour, every process together (GET /v1/sources/status,
 * npm run check:sources): its browser visits against its upstream calls, the plain calls a kept
 * clearance answered, the clearances renewed, the moved identifiers found again and the replies
 * judged drifted; and the anti-bot clearance it holds now.
 */

export interface SourcePaths {
  /** Upstream requests of the window, every outcome. */
  calls: number;
  browser_visits: number;
  /** Browser visits per 100 upstream calls (null without calls). */
  browser_visits_per_100_calls: number | null;
  plain_on_clearance: number;
  reclears: number;
  identifier_repairs: number;
  drift_verdicts: number;
}

export interface SourceClearance {
  wall: string;
  obtained_at: string;
  age_s: number;
  expires_at: string;
  /** held: plain requests send it; refused: a reply was a challenge again; expired: past its lifetime. */
  state: 'held' | 'refused' | 'expired';
  /** A browser visit renewing it is under way. */
  reclearing: boolean;
}

const FIELD: Record<PathEvent, keyof Omit<SourcePaths, 'calls' | 'browser_visits_per_100_calls'>> = {
  browser_visit: 'browser_visits',
  plain_on_clearance: 'plain_on_clearance',
  reclear: 'reclears',
  identifier_repair: 'identifier_repairs',
  drift: 'drift_verdicts',
};

/** Path figures of every source over the status window. */
export async function readSourcePaths(sql: Sql, sources: readonly string[]): Promise<Map<string, SourcePaths>> {
  const { calls, events } = await readPathCounts(sql);
  const out = new Map<string, SourcePaths>();
  for (const source of sources) {
    const p: SourcePaths = {
      calls: calls.find((c) => c.source === source)?.n ?? 0,
      browser_visits: 0,
      browser_visits_per_100_calls: null,
      plain_on_clearance: 0,
      reclears: 0,
      identifier_repairs: 0,
      drift_verdicts: 0,
    };
    for (const e of events) if (e.source === source && PATH_EVENTS.includes(e.event)) p[FIELD[e.event]] = e.n;
    p.browser_visits_per_100_calls = p.calls ? Math.round((p.browser_visits / p.calls) * 1000) / 10 : null;
    out.set(source, p);
  }
  return out;
}

/** The clearance each source holds now (through the direct egress), without its cookies. */
export async function readSourceClearances(sql: Sql): Promise<Map<string, SourceClearance>> {
  const out = new Map<string, SourceClearance>();
  for (const c of await clearanceStates(sql)) {
    const view = clearanceView(c);
    if (view && c.egress === 'direct') out.set(c.source, view);
  }
  return out;
}

function clearanceView(c: ClearanceState): SourceClearance | null {
  if (!c.wall || !c.obtained_at || !c.expires_at) return null;
  const now = Date.now();
  return {
    wall: c.wall,
    obtained_at: c.obtained_at.toISOString(),
    age_s: Math.max(0, Math.round((now - c.obtained_at.getTime()) / 1000)),
    expires_at: c.expires_at.toISOString(),
    state: c.refused_at ? 'refused' : c.expires_at.getTime() <= now ? 'expired' : 'held',
    reclearing: c.reclearing,
  };
}
