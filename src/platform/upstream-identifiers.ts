import type { Sql } from '../db/client.js';

/*
 * The owner of upstream_identifiers: the build-time identifiers (persisted-query hashes) a source
 * found again after the site rotated them, shared by every process (src/upstream/identifiers.ts
 * decides when to look for one and which to send).
 */

export interface KeptIdentifier {
  source: string;
  name: string;
  value: string;
  replaced: string | null;
  foundAt: Date;
}

interface Row {
  source: string;
  name: string;
  value: string;
  replaced: string | null;
  found_at: Date;
}

const toKept = (r: Row): KeptIdentifier => ({ source: r.source, name: r.name, value: r.value, replaced: r.replaced, foundAt: r.found_at });

export class UpstreamIdentifierStore {
  constructor(private readonly sql: Sql) {}

  /** The identifier `source` keeps for `name`, if one was ever found again. */
  async read(source: string, name: string): Promise<KeptIdentifier | null> {
    const [row] = await this.sql<Row[]>`SELECT * FROM upstream_identifiers WHERE source = ${source} AND name = ${name}`;
    return row ? toKept(row) : null;
  }

  /** Keeps `value` as the current identifier of `name`, found in place of `replaced`. */
  async write(source: string, name: string, value: string, replaced: string): Promise<KeptIdentifier> {
    const [row] = await this.sql<Row[]>`
      INSERT INTO upstream_identifiers (source, name, value, replaced) VALUES (${source}, ${name}, ${value}, ${replaced})
      ON CONFLICT (source, name) DO UPDATE SET value = EXCLUDED.value, replaced = EXCLUDED.replaced, found_at = now()
      RETURNING *`;
    return toKept(row);
  }
}
