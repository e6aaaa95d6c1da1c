/**
 * Airport / city autocomplete of the flight front end: the batchexecute RPC `H028ib`.
 * Request args `[query, [1,2,3,5,4], null, [1,1,1], 1]` as public clients send them; the reply's
 * inner JSON is `[[ [place, [[airport, "14 mi"], …]?], … ]]` where a place is
 * `[kind, title, name, description, kgmid, code, null, null, label, null, null, kind, score]`.
 */
import { BadRequest } from '../../../domain/errors.js';
import { batchexecuteBody, rpcPayload } from '../batchexecute.js';
import { arr, at, nonEmptyStr, num } from '../../../domain/json.js';

const LOCATION_RPC = 'H028ib';
const RPC_PATH = '/_/FlightsFrontendUi/data/batchexecute';
/** Result kinds to ask for and the lookup flags public clients send with them. */
const REQUEST_KINDS = [1, 2, 3, 5, 4];
const REQUEST_FLAGS = [1, 1, 1];

/** Paths into one place array. */
const PLACE = { kind: [0], title: [1], name: [2], description: [3], id: [4], code: [5], label: [8], score: [12] } as const;
/** Paths into one result row and one nearby-airport entry. */
const RESULT = { place: [0], airports: [1] } as const;
const NEARBY = { place: [0], distance: [1] } as const;

export interface FlightLocation {
  /**
   * The place kind as the reply codes it (1, 3, 4, 5 in the one recorded reply). No recorded reply
   * labels the codes, so they are named nowhere: the `type` (airport, city, region, station) once
   * read from them was a guess from the names and was removed (test/fixtures/README.md).
   */
  kind: number | null;
  /** As listed (`London`, `Bedřichov, Czechia`, `Heathrow Airport`). */
  title: string | null;
  name: string | null;
  description: string | null;
  /** Knowledge-graph id; for airports, the id of their city. */
  kgmid: string | null;
  /** Airport or station code (`LHR`, `QQS`). */
  code: string | null;
  /** Distance from the place the airport serves, as shown (`14 mi`). */
  distance: string | null;
  /** Relevance score the reply carries for top-level places. */
  score: number | null;
  airports: FlightLocation[];
}

export interface LocationSearchRequest {
  path: string;
  query: Record<string, string>;
  body: string;
  headers: Record<string, string>;
}

export function buildLocationSearchRequest(params: { q: string; hl?: string; gl?: string }): LocationSearchRequest {
  const q = params.q?.trim();
  if (!q) throw new BadRequest('q is required');
  if (q.length > 100) throw new BadRequest('q is too long');
  const query: Record<string, string> = { rpcids: LOCATION_RPC, 'source-path': '/travel/flights', rt: 'c' };
  if (params.hl) query.hl = params.hl;
  if (params.gl) query.gl = params.gl;
  return {
    path: RPC_PATH,
    query,
    body: batchexecuteBody(LOCATION_RPC, [q, REQUEST_KINDS, null, REQUEST_FLAGS, 1]),
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
  };
}

function place(p: unknown, distance: string | null, airports: FlightLocation[]): FlightLocation {
  const kind = num(p, ...PLACE.kind);
  return {
    kind,
    title: nonEmptyStr(p, ...PLACE.title),
    name: nonEmptyStr(p, ...PLACE.name),
    description: nonEmptyStr(p, ...PLACE.description),
    kgmid: nonEmptyStr(p, ...PLACE.id),
    code: nonEmptyStr(p, ...PLACE.code),
    distance,
    score: num(p, ...PLACE.score),
    airports,
  };
}

/** Parses an `H028ib` reply into places with their nearby airports. */
export function parseLocationSearch(text: string): FlightLocation[] {
  const inner = rpcPayload(text, LOCATION_RPC);
  const rows = arr(inner, 0);
  return rows.flatMap((row) => {
    const p = at(row, ...RESULT.place);
    if (!Array.isArray(p)) return [];
    const airports = arr(row, ...RESULT.airports).flatMap((a) => {
      const ap = at(a, ...NEARBY.place);
      return Array.isArray(ap) ? [place(ap, nonEmptyStr(a, ...NEARBY.distance), [])] : [];
    });
    return [place(p, null, airports)];
  });
}
