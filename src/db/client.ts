import postgres from 'postgres';

export type Sql = postgres.Sql;

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
      json: { to: 114, from: [114], serialize: jsonParam, parse: (x: string) => JSON.parse(x) },
      jsonb: { to: 3802, from: [3802], serialize: jsonParam, parse: (x: string) => JSON.parse(x) },
      numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  }) as unknown as Sql;
}

/** Inside a transaction: this commit waits for the WAL flush (the answer promises the write survives). */
export function durable(tx: { unsafe(q: string): Promise<unknown> }): Promise<unknown> {
  return tx.unsafe('SET LOCAL synchronous_commit = on');
}
