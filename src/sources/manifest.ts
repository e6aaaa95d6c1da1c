import type { z } from 'zod';
import { SOURCE_HOSTS, type Alias, type SourceHost } from '../config/hosts.js';
import type { CompareInput, Runner } from './compare/offer.js';

/**
 * What one source says of itself (src/sources/<alias>/source.ts): its public alias, the real
 * platform, its hosts (config/hosts.ts, for the sources reached through the upstream client), the
 * live check the operator's status page runs, its part in a price comparison and its settings.
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
}

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
export function upstreamSource(alias: Alias, parts: Pick<SourceManifest, 'check'> & Partial<Pick<SourceManifest, 'compare'>>): SourceManifest {
  const hosts = SOURCE_HOSTS[alias];
  return { alias, realName: hosts.realName, hosts, compare: null, ...parts };
}

/** The hotel the live checks ask for where a hotel is asked for. */
export const CHECK_HOTEL = 'The Plaza New York';

/** A stay date `days` ahead of `from`, so that every source has something to price or list. */
export function checkDay(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
