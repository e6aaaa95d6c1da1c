import postgres from 'postgres';

/** The pool: queries, and what only a pool does (transactions, LISTEN, end). */
export type Sql = postgres.Sql;
/**
 * Where a query runs: the pool or an open transaction. Functions that only send statements take a
 * Db, so a caller can run them inside its own transaction; those that open one take the pool (Sql).
 */
export type Db = postgres.ISql;
/** An open transaction (sql.begin's callback argument). */
export type Tx = postgres.TransactionSql;
/** A piece of a statement (`db\`...\``) that an owner module hands to another for one statement. */
export type Fragment = postgres.Fragment;

const jsonParam = (x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x));

/** `applicationName` tags this pool's backends (pg_stat_activity), so /metrics can tell its connections in use. */
export function createSql(url: string, opts: { max?: number; applicationName?: string } = {}): Sql {
  return postgres(url, {
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
  });
}

/** The health probe: the database answers a statement. */
export async function ping(db: Db): Promise<void> {
  await db`SELECT 1`;
}

/** Inside a transaction: this commit waits for the WAL flush (the answer promises the write survives). */
export function durable(tx: Tx): Promise<unknown> {
  return tx.unsafe('SET LOCAL synchronous_commit = on');
}
