import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, snapshot, type Sql } from '../../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';

/**
 * Reads that must agree (a watch, its totals and its checks) share one snapshot on a real
 * PostgreSQL: a write another connection commits between two of them shows in neither, and the
 * snapshot refuses writes.
 */
describe('snapshot: reads that see the database as of their first statement', () => {
  let db: TestDatabase;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = createSql(db.url, { max: 4 });
    await sql`CREATE TABLE parent (id int PRIMARY KEY, next_at int NOT NULL)`;
    await sql`CREATE TABLE child (parent_id int NOT NULL, at int NOT NULL)`;
    await sql`INSERT INTO parent VALUES (1, 10)`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('a parent and its children written together in between: the second read still agrees with the first', async () => {
    const seen = await snapshot(sql, async (tx) => {
      const [parent] = await tx<{ next_at: number }[]>`SELECT next_at FROM parent WHERE id = 1`;
      // another connection commits a child and moves the parent past it, in one transaction
      await sql.begin(async (w) => {
        await w`INSERT INTO child VALUES (1, 10)`;
        await w`UPDATE parent SET next_at = 20 WHERE id = 1`;
      });
      const children = await tx<{ at: number }[]>`SELECT at FROM child WHERE parent_id = 1`;
      return { nextAt: parent.next_at, children: children.map((c) => c.at) };
    });
    expect(seen).toEqual({ nextAt: 10, children: [] });
    // read again, the commit shows in both
    const again = await snapshot(sql, async (tx) => {
      const [parent] = await tx<{ next_at: number }[]>`SELECT next_at FROM parent WHERE id = 1`;
      const children = await tx<{ at: number }[]>`SELECT at FROM child WHERE parent_id = 1`;
      return { nextAt: parent.next_at, children: children.map((c) => c.at) };
    });
    expect(again).toEqual({ nextAt: 20, children: [10] });
  });

  it('refuses a write', async () => {
    await expect(snapshot(sql, (tx) => tx`INSERT INTO child VALUES (1, 30)`)).rejects.toThrow(/read-only transaction/);
  });
});
