/**
 * A process as `npm start` guards it (src/app/process-guard.ts), opening one database connection
 * through `createSql`: prints each fault the guard counts and whether `SELECT 1` was answered.
 * The test in front of it (test/integration/db/driver-type-fetch.test.ts) closes the first
 * connection while postgres.js reads its type catalog.
 */
import pino from 'pino';
import { guardProcess } from '../../src/app/process-guard.js';
import { createSql, pipelinedTransaction } from '../../src/db/client.js';

// never outlive the test that runs it
setTimeout(() => {
  process.stdout.write(`${JSON.stringify({ timedOut: true })}\n`);
  process.exit(2);
}, 20_000).unref();
const log = pino({ level: 'info' });
guardProcess(log, (kind) => process.stdout.write(`${JSON.stringify({ fault: kind })}\n`));
// the reservation the cut connection loses fails after 3 s instead of 30 (src/db/client.ts boundedReservation)
const sql = createSql(process.env.PROBE_DATABASE_URL!, { max: 1, reserveWaitMs: 3_000 });
let answered: number | null = null;
for (let attempt = 0; attempt < 5 && answered === null; attempt++) {
  try {
    // a transaction opens the connection as a reservation, which is when the driver lets the type fetch's failure go
    const [{ one }] = await pipelinedTransaction(sql, async (tx) => tx`SELECT 1::int AS one`);
    answered = one as number;
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ attempt, failed: (err as Error).message })}\n`);
  }
}
// the dropped promise rejects on the same tick as the query that opened the connection; a turn to hear it
await new Promise((resolve) => setTimeout(resolve, 200));
process.stdout.write(`${JSON.stringify({ answered })}\n`);
await sql.end({ timeout: 1 });
