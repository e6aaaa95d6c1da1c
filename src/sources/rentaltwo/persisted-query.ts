/**
 * The rental platform's persisted queries when the site has rotated their hashes: a reply that says
 * the query is unknown (`PersistedQueryNotFound`) makes the source look for the operation's current
 * hash in the site's JS chunks, keep it for every process (Upstream.identifiers) and send the request
 * once more with it. Where the hash is found, as public clients report it (pyairbnb PR #43, 2025-09,
 * and PR #56, 2026-05): the home page loads the `asyncRequire` loader, whose module map names the
 * route module (`StaysSearchRoute.prepare…js`); since 2026 the hash lives in a chunk near that module
 * in the map, as `operationId` or `sha256Hash` beside the operation's name, or in a `/api/v3/<name>/<hash>` path.
 */
import type { UpstreamResponse } from '../../upstream/client.js';
import type { Upstream } from '../../upstream/scope.js';
import { arr, at, textOrNull, type Json } from '../../domain/json.js';
import { hashBesideName, scanChunks } from '../shared/chunk-scan.js';
import { CALENDAR_HASH, PDP_SECTIONS_HASH, STAYS_SEARCH_HASH } from './operations.js';

export type PersistedOperation = 'StaysSearch' | 'StaysPdpSections' | 'PdpAvailabilityCalendar';

/** The hashes built into this release of the code (operations.ts), sent until one is found again. */
const BUILT_IN: Record<PersistedOperation, string> = {
  StaysSearch: STAYS_SEARCH_HASH,
  StaysPdpSections: PDP_SECTIONS_HASH,
  PdpAvailabilityCalendar: CALENDAR_HASH,
};

/** The route modules likely to hold each operation (and the loader that names them), read first. */
const PREFER: Record<PersistedOperation, RegExp> = {
  StaysSearch: /asyncRequire|StaysSearchRoute|stays-search/i,
  StaysPdpSections: /asyncRequire|PdpPlatformRoute|StaysPdp|pdp/i,
  PdpAvailabilityCalendar: /asyncRequire|PdpPlatformRoute|AvailabilityCalendar|pdp/i,
};

/** At most this many script fetches per repair (pyairbnb reads up to 40 candidates around the route module). */
export const MAX_CHUNK_FETCHES = 16;

/** The hash of `op` in a script's text (beside its name, else in an `/api/v3/<name>/<hash>` path), or null. */
export function findOperationHash(op: PersistedOperation, text: string): string | null {
  if (!text.includes(op)) return null;
  return hashBesideName(op, text) ?? new RegExp(`/api/v3/${op}/([0-9a-f]{64})`).exec(text)?.[1] ?? null;
}

/** Module paths of the loader's map (`common/…js`, `en/…js`), under the `/packages/web/` folder the loader lives in. */
const MODULE_PATH = /(?:common|[a-z]{2}(?:-[A-Za-z]{2,4})?)\/[^"'\\\s<>]+?\.js/g;

export function loaderModules(text: string, loader: URL): URL[] {
  const at = loader.pathname.indexOf('/packages/web/');
  if (at < 0) return [];
  const root = new URL(loader.pathname.slice(0, at + '/packages/web/'.length), loader);
  const out: URL[] = [];
  for (const m of text.matchAll(MODULE_PATH)) {
    try {
      out.push(new URL(m[0], root));
    } catch {
      // not a path: skipped
    }
  }
  return out;
}

/** Whether a reply is the GraphQL answer that the persisted query it was sent is unknown. */
export function refusesPersistedQuery(res: UpstreamResponse): boolean {
  if (res.status < 200 || res.status >= 300 || !/persisted/i.test(res.text().slice(0, 4096))) return false;
  let payload: Json;
  try {
    payload = res.json<Json>();
  } catch {
    return false;
  }
  if (at(payload, 'data') != null) return false;
  return arr(payload, 'errors').some((e) =>
    /persisted ?query ?not ?found|PERSISTED_QUERY_NOT_FOUND/i.test(`${textOrNull(e, 'message') ?? ''} ${textOrNull(e, 'extensions', 'code') ?? ''}`),
  );
}

/**
 * One persisted-query request (`send` with the operation's hash): with the hash every process
 * sends now, and once more with the current one when the site refused it and the current one is
 * found. The refusal itself is returned when no other hash is found (its reader reports the
 * contract change, with the reply kept).
 */
export async function persistedQuery(upstream: Upstream, op: PersistedOperation, send: (hash: string) => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
  const ids = upstream.identifiers;
  const hash = await ids.current('rentaltwo', op, BUILT_IN[op]);
  const first = await send(hash);
  if (!refusesPersistedQuery(first)) return first;
  const fresh = await ids.repair('rentaltwo', op, hash, async () => {
    const found = await scanChunks(upstream, {
      source: 'rentaltwo',
      page: '/',
      find: (text) => findOperationHash(op, text),
      named: loaderModules,
      prefer: PREFER[op],
      maxFetches: MAX_CHUNK_FETCHES,
    });
    return found.value;
  });
  return fresh && fresh !== hash ? send(fresh) : first;
}
