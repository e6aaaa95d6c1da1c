import type { Alias } from './hosts.js';
import type { WallId } from './walls.js';

/**
 * Per source (an entry per alias, ready to move into the source's manifest): the bot walls known to
 * stand in front of it, and its drift rules (what every real reply of it states).
 *
 * Walls. A wall met on a source not listed here is cleared all the same: this list
 * says which clearance cookies the source keeps beyond the wall the challenge named, and what the
 * operator is told to expect.
 * - otaone: AWS WAF answers plain clients 202 with a challenge (AWS WAF ChallengeAction; trvl PR #200).
 * - otatwo, otathree, rentalone: Akamai Bot Manager answers plain clients 429 until the sensor set
 *   `_abck` (the travel group's sites; design notes, "Expedia/Vrbo").
 */
export interface SourceGuards {
  walls: readonly WallId[];
}

export const SOURCE_GUARDS: Record<Alias, SourceGuards> = {
  metasearch: { walls: [] },
  otaone: { walls: ['aws_waf'] },
  otatwo: { walls: ['akamai'] },
  otathree: { walls: ['akamai'] },
  otafour: { walls: [] },
  rentalone: { walls: ['akamai'] },
  rentaltwo: { walls: [] },
  travelreview: { walls: [] },
  hostel: { walls: [] },
  network: { walls: [] },
  video: { walls: [] },
  apps: { walls: [] },
  retail: { walls: [] },
  trends: { walls: [] },
};
