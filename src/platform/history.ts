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
}

/**
 * One row per /v1 request and MCP tool call; never the key, never bodies. A fragment, so that a
 * charge and its history row can be written in one statement.
 */
export function historyInsert(sql: Sql, r: HistoryRecord) {
  return sql`INSERT INTO request_history (id, key_id, method, path, status, duration_ms, response_bytes, credits, rate_limited)
    VALUES (${r.id}, ${r.key_id}, ${r.method}, ${r.path}, ${r.status}, ${r.duration_ms}, ${r.response_bytes}, ${r.credits}, ${r.rate_limited})
    ON CONFLICT (id) DO NOTHING`;
}


export async function findRequest(sql: Sql, keyId: string, id: string) {
  const [row] = await sql`
    SELECT id, method, path, status, duration_ms, response_bytes, credits, rate_limited, created_at
    FROM request_history WHERE id = ${id} AND key_id = ${keyId}`;
  return row ?? null;
}
