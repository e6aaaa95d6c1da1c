import { SOURCES } from '../../sources/registry.js';
import type { LiveCheck } from '../../sources/manifest.js';

/**
 * The live check's one request per source, from the source registry (each source's manifest names
 * its own): an operation of the registry (so the same source code the routes run) with inputs naming
 * something well known that should always be there. Searches and look-ups are preferred: one cheap
 * request each, and an empty answer means something broke.
 */
export interface CanonicalCheck extends LiveCheck {
  source: string;
}

export function canonicalChecks(now = new Date()): CanonicalCheck[] {
  return SOURCES.flatMap((s) => (s.check ? [{ source: s.alias, ...s.check(now) }] : []));
}
