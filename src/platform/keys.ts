import { createHash, timingSafeEqual } from 'node:crypto';
import { durable, type Db, type Sql } from '../db/client.js';
import { newId, randomToken } from '../domain/ids.js';
import { accountOf, createAccount } from './accounts.js';
import { billedPlan, planOf, UNMETERED, type PlanCode } from './plans.js';
import { MCP_TOOL_SETS, type McpToolSet } from '../domain/mcp-tool-sets.js';

/*
 * The owner of api_keys: the keys callers present (kind 'api', only their SHA-256 stored) and the
 * key rows of connected OAuth apps (kind 'oauth', no secret), under which history, metering and
 * idempotency record the apps' calls.
 */

export interface AuthedKey {
  id: string;
  name: string;
  prefix: string;
  role: 'user' | 'admin';
  rate_limit_per_min: number;
  /** Every key has an account: the owner of everything its calls store. */
  account_id: string;
  /** The plan billed; null when the account is not metered. */
  plan: PlanCode | null;
  /** Set when authentication also took a rate-limit slot. */
  admitted?: boolean;
  /** The rate-limit window when it is not the key's own (all apps connected to one account share one). */
  rateBucket?: string;
  /** The opt-in MCP tool sets this key lists and calls beside the default 18 (migration 024); absent: none. */
  mcp_tool_sets?: McpToolSet[];
  /** Set when an OAuth access token, not a key, authenticated the call: the connected app it acts through. */
  app?: { grant_id: string; client_id: string; client_name: string };
}

const KEY_PATTERN = /^sk_[A-Za-z0-9_-]{32}$/;

function generateKey(): string {
  return `sk_${randomToken(32)}`;
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function keyPrefix(key: string): string {
  return key.slice(0, 9);
}

/** Finds the live key; the lookup is by hash and the final comparison constant-time. */
export async function authenticate(sql: Db, presented: string | undefined): Promise<AuthedKey | null> {
  if (!presented || !KEY_PATTERN.test(presented)) return null;
  const hash = hashKey(presented);
  const [row] = await sql<(Omit<AuthedKey, 'plan'> & { key_hash: Buffer; plan: string })[]>`
    SELECT k.id, k.name, k.prefix, k.role, k.rate_limit_per_min, k.account_id, k.key_hash, k.mcp_tool_sets, a.plan
    FROM api_keys k JOIN LATERAL ${accountOf(sql, sql`k.account_id`)} a ON true
    WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL`;
  if (!row || !timingSafeEqual(row.key_hash, hash)) return null;
  return authedKeyOf(row);
}

/**
 * A key as authenticated, found by id, revoked or not: the caller of work an account ordered
 * earlier with it (a watch's scheduled checks), recorded under that key; its plan is the account's now.
 */
export async function keyById(sql: Db, id: string): Promise<AuthedKey | null> {
  const [row] = await sql<(Omit<AuthedKey, 'plan'> & { plan: string })[]>`
    SELECT k.id, k.name, k.prefix, k.role, k.rate_limit_per_min, k.account_id, k.mcp_tool_sets, a.plan
    FROM api_keys k JOIN LATERAL ${accountOf(sql, sql`k.account_id`)} a ON true WHERE k.id = ${id}`;
  return row ? authedKeyOf(row) : null;
}

/** A key row as the caller it authenticates, billed on its account's plan now (the row's other columns left out). */
function authedKeyOf(row: Omit<AuthedKey, 'plan'> & { plan: string }): AuthedKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: row.role,
    rate_limit_per_min: row.rate_limit_per_min,
    account_id: row.account_id,
    plan: billedPlan(row.plan),
    mcp_tool_sets: (row.mcp_tool_sets ?? []).filter((s): s is McpToolSet => (MCP_TOOL_SETS as readonly string[]).includes(s)),
  };
}

/** Sets the opt-in MCP tool sets of the live key named `name` (replacing its list); false when there is none. */
export async function setKeyToolSets(sql: Db, name: string, sets: McpToolSet[]): Promise<boolean> {
  const rows = await sql`UPDATE api_keys SET mcp_tool_sets = ${sql.array(sets)}::text[] WHERE name = ${name} AND revoked_at IS NULL RETURNING id`;
  return rows.length > 0;
}

export interface CreatedKey {
  id: string;
  key: string;
  name: string;
  prefix: string;
  account_id: string;
  rate_limit_per_min: number;
  role: string;
}

export async function createKey(
  sql: Sql,
  opts: { name: string; rateLimit?: number; role?: 'user' | 'admin'; plan?: PlanCode | null; accountId?: string | null },
): Promise<CreatedKey> {
  return sql.begin(async (tx) => {
    await durable(tx);
    // every key has an owner: without a given account it gets its own (unmetered when no plan is given)
    const accountId = opts.accountId ?? (await createAccount(tx, { name: opts.name, plan: opts.plan ?? UNMETERED }));
    const plan = opts.plan ? planOf(opts.plan) : null;
    const key = generateKey();
    const id = newId('key', 16);
    const rateLimit = opts.rateLimit ?? plan?.rate_limit_per_min ?? 60;
    const role = opts.role ?? 'user';
    await tx`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min, role)
      VALUES (${id}, ${accountId}, ${opts.name}, ${keyPrefix(key)}, ${hashKey(key)}, ${rateLimit}, ${role})`;
    return { id, key, name: opts.name, prefix: keyPrefix(key), account_id: accountId, rate_limit_per_min: rateLimit, role };
  });
}

/** Mints a replacement with the same name, limit, role, account and MCP tool sets; the old key stops at once. */
export async function rotateKey(sql: Sql, name: string): Promise<CreatedKey | null> {
  return sql.begin(async (tx) => {
    await durable(tx);
    const [old] = await tx<{ id: string; account_id: string; rate_limit_per_min: number; role: string; mcp_tool_sets: string[] }[]>`
      SELECT id, account_id, rate_limit_per_min, role, mcp_tool_sets FROM api_keys WHERE name = ${name} AND revoked_at IS NULL FOR UPDATE`;
    if (!old) return null;
    const key = generateKey();
    const id = newId('key', 16);
    await tx`UPDATE api_keys SET revoked_at = now(), replaced_by = NULL WHERE id = ${old.id}`;
    await tx`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min, role, mcp_tool_sets)
      VALUES (${id}, ${old.account_id}, ${name}, ${keyPrefix(key)}, ${hashKey(key)}, ${old.rate_limit_per_min}, ${old.role}, ${tx.array(old.mcp_tool_sets)}::text[])`;
    await tx`UPDATE api_keys SET replaced_by = ${id} WHERE id = ${old.id}`;
    return { id, key, name, prefix: keyPrefix(key), account_id: old.account_id, rate_limit_per_min: old.rate_limit_per_min, role: old.role };
  });
}

export async function revokeKey(sql: Sql, name: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    await durable(tx);
    const rows = await tx<{ id: string }[]>`UPDATE api_keys SET revoked_at = now() WHERE name = ${name} AND revoked_at IS NULL RETURNING id`;
    return rows.length > 0;
  });
}

export interface ListedKey {
  name: string;
  prefix: string;
  role: string;
  rate_limit_per_min: number;
  created_at: Date;
  revoked_at: Date | null;
  account_id: string;
  plan: string;
}

/** Every API key (not the apps' key rows), revoked ones included, oldest first. */
export async function listKeys(db: Db): Promise<ListedKey[]> {
  return db<ListedKey[]>`
    SELECT k.name, k.prefix, k.role, k.rate_limit_per_min, k.created_at, k.revoked_at, k.account_id, a.plan
    FROM api_keys k JOIN LATERAL ${accountOf(db, db`k.account_id`)} a ON true
    WHERE k.kind = 'api'
    ORDER BY k.created_at`;
}

export interface KeySummary {
  name: string;
  prefix: string;
  rate_limit_per_min: number;
  created_at: Date;
}

/** The account's live API keys, oldest first. */
export async function liveKeysOf(db: Db, accountId: string): Promise<KeySummary[]> {
  return db<KeySummary[]>`
    SELECT name, prefix, rate_limit_per_min, created_at FROM api_keys
    WHERE account_id = ${accountId} AND kind = 'api' AND revoked_at IS NULL ORDER BY created_at`;
}

/** The key row of a connected app (kind 'oauth', no secret): its calls are recorded and metered under it. */
export async function createAppKey(db: Db, o: { accountId: string; grantId: string; rateLimit: number }): Promise<string> {
  const keyId = newId('key', 16);
  await db`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min, role, kind)
    VALUES (${keyId}, ${o.accountId}, ${`oauth:${o.grantId}`}, 'oauth', NULL, ${o.rateLimit}, 'user', 'oauth')`;
  return keyId;
}

/** Stops one key row at once (an app's, when its grant is revoked). */
export async function revokeKeyById(db: Db, keyId: string): Promise<void> {
  await db`UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId} AND revoked_at IS NULL`;
}

/**
 * On a database with no key at all, creates the first admin key so the service can be tried at
 * once: a new one, or `chosen` (a key of the right form the user picked, e.g. the API_KEY a desktop
 * install was configured with). Null when the database already has keys.
 */
export async function ensureFirstKey(sql: Sql, chosen?: string): Promise<CreatedKey | null> {
  if (chosen !== undefined && !KEY_PATTERN.test(chosen)) return null;
  return sql.begin(async (tx) => {
    await durable(tx);
    await tx`SELECT pg_advisory_xact_lock(727002)`;
    const [{ n }] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM api_keys`;
    if (n > 0) return null;
    const accountId = await createAccount(tx, { name: 'default', plan: 'free' });
    const key = chosen ?? generateKey();
    const id = newId('key', 16);
    await tx`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, rate_limit_per_min, role)
      VALUES (${id}, ${accountId}, 'default', ${keyPrefix(key)}, ${hashKey(key)}, 60, 'admin')`;
    return { id, key, name: 'default', prefix: keyPrefix(key), account_id: accountId, rate_limit_per_min: 60, role: 'admin' };
  });
}

/**
 * The keys a history or usage read by `key` covers: the key itself and, for an account's own API
 * key, the key rows of the apps connected to the account (kind 'oauth', disconnected ones too),
 * whose calls are the account's. An app's own token covers its own calls only.
 */
export async function readableKeyIds(db: Db, key: Pick<AuthedKey, 'id' | 'account_id' | 'app'>): Promise<string[]> {
  if (key.app) return [key.id];
  const apps = await db<{ id: string }[]>`SELECT id FROM api_keys WHERE account_id = ${key.account_id} AND kind = 'oauth'`;
  return [key.id, ...apps.map((r) => r.id)];
}
