import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../domain/errors.js';

/**
 * The last line of defence of `npm start`, `npm run worker` and the stdio server: a promise
 * rejected with nobody to hear it would otherwise end the process (Node's default), taking the
 * API or the workers down with it. Each one is logged with its error and counted
 * (`hotelrates_process_faults_total`), never swallowed: it is a bug to report. An exception thrown
 * outside any promise leaves the process in an unknown state, so it ends the process as Node
 * would, after logging, unless it is the database going away (a connection's error event), which
 * the process rides out.
 */
export type FaultKind = 'unhandled_rejection' | 'uncaught_database_error' | 'uncaught_exception' | 'driver_type_fetch';

/**
 * postgres.js (3.4.9) fetches the array types on every new connection and drops that promise
 * (connection.js `return fetchArrayTypes()` in ReadyForQuery; porsager/postgres#1192, #1205, #1223,
 * open): when the connection closes during that fetch, as it does when the database stops, its
 * rejection has nobody to hear it. No statement of ours waits on it (a query that opened the
 * connection is sent again on the next one; a transaction's reservation it loses fails after its
 * bound, src/db/client.ts boundedReservation), so it is the database going away, not a bug of
 * ours: recognised by the driver's own catalog query on the error (postgres.js puts the statement
 * there) and a connection-level failure.
 */
function isDriverTypeFetchLost(reason: unknown): boolean {
  const query = (reason as { query?: unknown } | null)?.query;
  return typeof query === 'string' && /from pg_catalog\.pg_type a\b/.test(query) && /\btyparray\b/.test(query) && isDatabaseUnavailable(reason);
}

/** `count`: adds one to the process's `hotelrates_process_faults_total{kind}`. Returns the uninstaller. */
export function guardProcess(log: Logger, count: (kind: FaultKind) => void, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const onRejection = (reason: unknown) => {
    if (isDriverTypeFetchLost(reason)) {
      count('driver_type_fetch');
      log.warn({ err: reason }, 'a new database connection closed while the driver read its type catalog (the database is going away)');
      return;
    }
    count('unhandled_rejection');
    log.error({ err: reason }, 'unhandled promise rejection (logged and counted; the process goes on)');
  };
  const onException = (err: Error) => {
    if (isDatabaseUnavailable(err)) {
      count('uncaught_database_error');
      log.error({ err }, 'uncaught database connection error (logged and counted; the process goes on)');
      return;
    }
    count('uncaught_exception');
    log.fatal({ err }, 'uncaught exception: the process ends');
    exit(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
