import postgres from 'postgres';
import { ResilientListener } from './listener.js';
import type { DatabaseOutage } from './outage.js';

/** The pool: queries, and what only a pool does (transactions, LISTEN, end). */
export type Sql = postgres.Sql;
/**
 * Where a query runs: the pool or an open transaction. Functions that only send statements take a
 * Db, so a caller can run them inside its own transaction; those that open one take the pool (Sql).
 */
export type Db = postgres.ISql;
/**
 * A connection inside BEGIN … COMMIT: sql.begin's transaction, or pipelinedTransaction's reserved
 * connection between its BEGIN and COMMIT. What is sent on it commits or rolls back with the rest;
 * the pool (Sql) is not one. Functions that must run inside their caller's transaction take it.
 */
export type Tx = postgres.TransactionSql | postgres.ReservedSql;
/** A piece of a statement (`db\`...\``) that an owner module hands to another for one statement. */
export type Fragment = postgres.Fragment;
/** A query built by an owner module and not sent yet (awaiting it sends it). */
export type PendingStatement<T extends readonly object[]> = postgres.PendingQuery<T>;
/** A statement built and not sent yet: postgres.js sends a query when it is awaited or executed. */
export interface Statement<T = unknown> extends PromiseLike<T> {
  execute(): PromiseLike<T>;
}

const jsonParam = (x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x));

/**
 * `applicationName` tags this pool's backends (pg_stat_activity), so /metrics can tell its
 * connections in use. Its `listen` survives the database going away (listener.ts: every LISTEN
 * is issued again, with backoff, once the database answers); `outage` hears of the losses.
 */
export function createSql(url: string, opts: { max?: number; applicationName?: string; outage?: DatabaseOutage; reserveWaitMs?: number } = {}): Sql {
  const options = sqlOptions(opts);
  const sql = postgres(url, options);
  const listener = new ResilientListener(url, options, opts.outage ?? null);
  const end = sql.end.bind(sql);
  const reserve = sql.reserve.bind(sql);
  return Object.assign(sql, {
    listen: listener.listen,
    reserve: () => boundedReservation(reserve, opts.reserveWaitMs ?? RESERVE_WAIT_MS),
    async end(o?: { timeout?: number }) {
      await listener.close();
      return end(o);
    },
  });
}

/** How long a transaction waits for a connection of its own before it fails as the database being unavailable. */
const RESERVE_WAIT_MS = 30_000;

/**
 * A reservation (what every transaction of ours opens) that cannot wait forever. postgres.js
 * 3.4.9 loses one when the connection opened for it closes while the driver reads its type
 * catalog (porsager/postgres#1192, #1223: the connection made again hands itself to the pool, not
 * to the reservation), which is what a stopping database does: without a bound the transaction,
 * and the batch item or request behind it, would wait for ever. Past the bound it fails with
 * postgres.js's own CONNECT_TIMEOUT (the database unavailable: retried, or a 503); a connection
 * that comes after all goes back to the pool.
 */
function boundedReservation(reserve: () => Promise<postgres.ReservedSql>, ms: number): Promise<postgres.ReservedSql> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(Object.assign(new Error(`CONNECT_TIMEOUT: no database connection within ${ms / 1000} s`), { code: 'CONNECT_TIMEOUT' }));
    }, ms);
    reserve().then(
      (conn) => {
        clearTimeout(timer);
        if (late) conn.release();
        else resolve(conn);
      },
      (err: Error) => {
        clearTimeout(timer);
        if (!late) reject(err);
      },
    );
  });
}

function sqlOptions(opts: { max?: number; applicationName?: string }) {
  return {
    max: opts.max ?? 20,
    onnotice: () => undefined,
    connect_timeout: 10,
    idle_timeout: 60,
    transform: { undefined: null },
    // Metering and history writes commit without waiting for the WAL flush: a crash of the
    // service loses nothing, a crash of PostgreSQL itself may lose the last ~200 ms of them.
    // Writes whose answer promises durability (keys, job submissions) turn it back on: see durable().
    connection: { synchronous_commit: 'off', ...(opts.applicationName ? { application_name: opts.applicationName } : {}) },
    types: {
      // counts and sums come back as int8; every value this service stores fits a double
      int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
      // pg-boss hands over JSON already as text; pass text through instead of encoding it twice
      json: { to: 114, from: [114], serialize: jsonParam, parse: (x: string): unknown => JSON.parse(x) },
      jsonb: { to: 3802, from: [3802], serialize: jsonParam, parse: (x: string): unknown => JSON.parse(x) },
      numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  } satisfies postgres.Options<Record<string, postgres.PostgresType>>;
}

/** The health probe: the database answers a statement. */
export async function ping(db: Db): Promise<void> {
  await db`SELECT 1`;
}

/** Inside a transaction: this commit waits for the WAL flush (the answer promises the write survives). */
export function durable(tx: Tx): Promise<unknown> {
  return tx.unsafe('SET LOCAL synchronous_commit = on');
}

/**
 * Reads that must agree with one another (a row and the rows that hang off it) in one read-only
 * REPEATABLE READ transaction: they all see the database as of its first statement. Apart on the
 * pool, a write committed between two of them shows in one and not the other.
 */
export function snapshot<T>(sql: Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return sql.begin('isolation level repeatable read read only', fn) as Promise<T>;
}

/**
 * A transaction whose statements travel together: BEGIN is written ahead of the first statement
 * instead of waiting for its own answer, statements `fn` sends without awaiting one another go out
 * in one write, then COMMIT (ROLLBACK when `fn` throws). Four independent statements so cost two
 * round trips (them with BEGIN, then COMMIT) instead of six. `fn` must await every statement it
 * sends: one that fails aborts the transaction, and what follows it on the wire fails too.
 */
export async function pipelinedTransaction<T>(sql: Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const tx = await sql.reserve();
  try {
    // executed now, so that it is written before any statement fn sends
    const begin = tx`BEGIN`.execute();
    // its failure (the connection dropped) is thrown below, once fn has ended: not an unhandled rejection meanwhile
    begin.catch(() => undefined);
    let result: T;
    try {
      result = await fn(tx);
      await begin;
    } catch (err) {
      await begin.catch(() => undefined);
      await tx`ROLLBACK`;
      throw err;
    }
    await tx`COMMIT`;
    return result;
  } finally {
    tx.release();
  }
}

/**
 * A transaction sent whole: BEGIN, the statements `build` makes (built, not sent), and COMMIT go
 * out in one write and cost one round trip. Each statement's answer comes back in order. When one
 * fails, PostgreSQL aborts the transaction and answers the COMMIT by rolling it back; the first
 * failure is thrown. For statements that need none of each other's answers.
 */
export async function sendTransaction(sql: Sql, build: (tx: Db) => Statement[]): Promise<unknown[]> {
  const tx = await sql.reserve();
  try {
    const statements = build(tx);
    const sent: PromiseLike<unknown>[] = [tx`BEGIN`.execute(), ...statements.map((s) => s.execute()), tx`COMMIT`.execute()];
    const settled = await Promise.allSettled(sent);
    const failure = settled.find((s) => s.status === 'rejected');
    if (failure) throw failure.reason;
    return settled.slice(1, -1).map((s) => (s as PromiseFulfilledResult<unknown>).value);
  } finally {
    tx.release();
  }
}
