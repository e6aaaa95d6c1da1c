import type { Logger } from 'pino';

/**
 * How long `npm start` and `npm run worker` take at most to end after SIGTERM or SIGINT: under the
 * 10 s a supervisor (docker stop, systemd's default is longer) waits before SIGKILL. Closing stops
 * taking work, gives running queue jobs up to 5 s, drains database queries, stops the embedded
 * cluster; what is still running then is cut, and its jobs are resumed by the next worker.
 */
export const SHUTDOWN_DEADLINE_MS = 9_000;

/**
 * SIGTERM, SIGINT and SIGHUP (a closed terminal, or a desktop client ending what it launched) close
 * the process's resources once, then exit 0. The returned function starts the same shutdown for
 * another reason (the stdio server's input closing). With `deadlineMs` the process exits by then
 * even if closing has not finished.
 */
export function closeOnSignals(close: () => Promise<void>, log: Logger, deadlineMs?: number): (reason: string) => void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'shutting down');
    if (deadlineMs !== undefined) setTimeout(() => process.exit(0), deadlineMs).unref();
    void close()
      .catch((err) => log.error({ err }, 'shutdown failed'))
      .finally(() => process.exit(0));
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  return stop;
}
