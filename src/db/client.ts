import postgres from 'postgres';

export type Sql = postgres.Sql;

export function createSql(url: string, opts: { max?: number } = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 20,
    onnotice: () => undefined,
    connect_timeout: 10,
    idle_timeout: 60,
    transform: { undefined: null },
    types: {
      // counts and sums come back as int8; every value this service stores fits a double
      int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
      numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  }) as unknown as Sql;
}
