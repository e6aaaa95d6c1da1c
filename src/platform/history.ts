import type { Db, Fragment } from '../db/client.js';

/*
 * The owner of request_history: one row per /v1 request and MCP tool call, owned by the key's
 * account; never the key, never bodies or query strings (the route's template only), so
 * zero_retention calls keep nothing more. Rows are written only by the money path (credits.ts
 * `settle`, through insertHistoryFrom), so a call's history row and its charge commit together.
 */

/** What a call's history row says besides its id and account (the settlement carries those). */
export interface CallHistory {
  key_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  response_bytes: number;
  credits: number;
  rate_limited: boolean;
}

export interface HistoryRow extends CallHistory {
  id: string;
  created_at: Date;
}

/**
 * The history rows of a settlement, for its one statement: `source` names a relation with the
 * columns id, account_id and those of CallHistory; its rows without a key_id are not calls (batch items).
 */
export function insertHistoryFrom(db: Db, source: Fragment): Fragment {
  return db`INSERT INTO request_history (id, key_id, account_id, method, path, status, duration_ms, response_bytes, credits, rate_limited)
    SELECT s.id, s.key_id, s.account_id, s.method, s.path, s.status, s.duration_ms, s.response_bytes, s.credits, s.rate_limited
    FROM ${source} s WHERE s.key_id IS NOT NULL
    ON CONFLICT (id) DO NOTHING`;
}

/** Per the contract, history is read per calling key (inside the key's account): `keyIds` from readableKeyIds. */
export async function findRequest(db: Db, keyIds: string[], id: string): Promise<HistoryRow | null> {
  const [row] = await db<HistoryRow[]>`
    SELECT id, key_id, method, path, status, duration_ms, response_bytes, credits, rate_limited, created_at
    FROM request_history WHERE id = ${id} AND key_id = ANY(${keyIds})`;
  return row ?? null;
}
