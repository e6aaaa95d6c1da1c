/**
 * The travel group's persisted queries when a site release has rotated their hashes: a gateway
 * reply that the query is unknown (`PersistedQueryNotFound`) makes the brand look for the
 * operation's current hash in its site's scripts (bounded chunk scan, the same as the rental
 * platform's: rentaltwo/persisted-query.ts), keep it for every process (Upstream.identifiers) and
 * send the request once more with it. The hash sent first is the one every process sends now: a
 * repaired one, else the operator's (`GROUP_QUERY_HASHES`), else the built-in one. Where a bundle
 * writes a persisted document's hash: beside its `operationName` (`sha256Hash`), as Apollo's
 * persisted-query manifests and link do; the brands' bundles are not public material, so the scan
 * looks for that generic form only and, when it finds nothing, the refusal stands (a free 503
 * contract_changed, the reply kept).
 */
import type { Upstream } from '../../upstream/scope.js';
import { hashBesideName, scanChunks } from './chunk-scan.js';
import { PersistedQueryRotated, type GroupAlias, type Operation } from './group-graphql.js';

/** At most this many script fetches per repair (as for the rental platform). */
export const MAX_GROUP_CHUNK_FETCHES = 16;

/** Scripts likely to hold the offers documents, read first. */
const PREFER = /propert|offers|infosite|graphql|app/i;

export async function withCurrentHash<T>(upstream: Upstream, alias: GroupAlias, op: Operation, send: (op: Operation) => Promise<T>): Promise<T> {
  const ids = upstream.identifiers;
  const hash = await ids.current(alias, op.name, op.sha256);
  try {
    return await send({ name: op.name, sha256: hash });
  } catch (err) {
    if (!(err instanceof PersistedQueryRotated)) throw err;
    const fresh = await ids.repair(alias, op.name, hash, async () => {
      const found = await scanChunks(upstream, {
        source: alias,
        page: '/',
        find: (text) => hashBesideName(op.name, text),
        prefer: PREFER,
        maxFetches: MAX_GROUP_CHUNK_FETCHES,
      });
      return found.value;
    });
    if (!fresh || fresh === hash) throw err;
    return send({ name: op.name, sha256: fresh });
  }
}
