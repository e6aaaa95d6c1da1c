import type { Sql } from '../db/client.js';

export interface HistoryRecord {
  id: string;
  key_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  response_bytes: number;
  credits: number;
  rate_limited: boolean;
  /** Answered from the result cache (free); absent: no. */
  cache_hit?: boolean;
}

/**
 * One row per /v1 request and MCP tool call, owned by the key's account; never the key, never
 * bodies or query strings (the route's template only), so zero_retention calls keep nothing more.
 * A fragment, so that a charge and its history row can be written in one statement.
 */
export function historyInsert(sql: Sql, r: HistoryRecord) {
  return sql`INSERT INTO request_history (id, key_id, account_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, cache_hit)
    SELECT ${r.id}, k.id, k.account_id, ${r.method}, ${r.path}, ${r.status}, ${r.duration_ms}, ${r.response_bytes}, ${r.credits}, ${r.rate_limited}, ${r.cache_hit ?? false}
    FROM api_keys k WHERE k.id = ${r.key_id}
    ON CONFLICT (id) DO NOTHING`;
}

/** Per the contract, history is read per calling key (inside the key's account): `keyIds` from readableKeyIds. */
export async function findRequest(sql: Sql, keyIds: string[], id: string) {
  const [row] = await sql`
    SELECT id, key_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, cache_hit, created_at
    FROM request_history WHERE id = ${id} AND key_id = ANY(${keyIds})`;
  return row ?? null;
}
