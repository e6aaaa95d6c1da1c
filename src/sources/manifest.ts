import type { z } from 'zod';
import { SOURCE_HOSTS, type Alias, type SourceHost } from '../config/hosts.js';
import type { CompareInput, Runner } from './compare/offer.js';
import type { DriftFact, DriftRule } from '../config/drift-rules.js';
import type { WallId } from '../config/walls.js';

/**
 * What one source says of itself (src/sources/<alias>/source.ts): its public alias, the real
 * platform, its hosts (config/hosts.ts, for the sources reached through the upstream client), the
 * live check the operator's status page runs, its part in a price comparison and its settings (its
 * guards: the walls in front of it and its drift rules, in the folder's guards.ts).
 * src/sources/registry.ts gathers them: the live checks, the comparison's sources and its input
 * are built from there, so a new source adds its folder and one registry line.
 */
export interface SourceManifest {
  alias: string;
  realName: string;
  /** Base URL and browser hosts; null for sources that reach arbitrary websites (safe-fetch). */
  hosts: SourceHost | null;
  /** The live check's one request: an operation of the registry, with inputs naming something well known. */
  check: ((now: Date) => LiveCheck) | null;
  /** Its place in `POST /v1/ota/compare`, when it prices a stay. */
  compare: CompareEntry | null;
  /** Its walls and drift rules; null for the sources that reach arbitrary websites. */
  guards: SourceGuards | null;
}

/**
 * What stands in front of a source and what its replies state (src/sources/<alias>/guards.ts).
 *
 * Walls: the bot walls known to stand in front of it. A wall met on a source not listed is cleared
 * all the same: this list says which clearance cookies the source keeps beyond the wall the
 * challenge named, and what the operator is told to expect (the app's builder hands them to the
 * upstream client).
 *
 * Drift: per reply kind the source reads, what every real reply of that kind states
 * (config/drift-rules.ts). Each rule was checked on every recorded reply of its kind (none fires)
 * and on a mutated copy (it fires): test/unit/sources/drift-rules.test.ts. Prices need a few items
 * to judge (one sold-out room is no drift), and where a search may go without dates, only priced
 * requests.
 */
export interface SourceGuards {
  walls: readonly WallId[];
  drift: Readonly<Record<string, DriftRule>>;
}

/** A price field that a reply of a few items states (`priced`: only when the request had dates). */
export const priceFact = (field: string, priced = false): DriftFact => ({ field, minItems: 3, priced });

export interface LiveCheck {
  /** Operation name in the registry. */
  operation: string;
  input: Record<string, unknown>;
  /** What is asked, for the operator's table. */
  checked: string;
}

/** A source's part in a comparison: its field of `sources`, and its runner for what the caller gave. */
export interface CompareEntry {
  /** The `sources.<alias>` field (described). */
  field: z.ZodType;
  /** The property id the caller gave; absent when the source is found by the hotel's name (null: no id to give). */
  idOf: ((given: unknown) => string | null | undefined) | null;
  runner(given: unknown, input: CompareInput): Runner;
}

/** A compare entry typed by its field: the runner and the id see what the field parses to. */
export function compareEntry<S extends z.ZodType>(
  field: S,
  idOf: ((given: NonNullable<z.output<S>>) => string | null | undefined) | null,
  runner: (given: NonNullable<z.output<S>>, input: CompareInput) => Runner,
): CompareEntry {
  return { field, idOf: idOf as CompareEntry['idOf'], runner: (given, input) => runner(given as NonNullable<z.output<S>>, input) };
}

/** A source reached through the upstream client: its real name and hosts from config/hosts.ts. */
export function upstreamSource(
  alias: Alias,
  parts: Pick<SourceManifest, 'check'> & { guards: SourceGuards } & Partial<Pick<SourceManifest, 'compare'>>,
): SourceManifest {
  const hosts = SOURCE_HOSTS[alias];
  return { alias, realName: hosts.realName, hosts, compare: null, ...parts };
}

/** The hotel the live checks ask for where a hotel is asked for. */
export const CHECK_HOTEL = 'The Plaza New York';

/** A stay date `days` ahead of `from`, so that every source has something to price or list. */
export function checkDay(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
