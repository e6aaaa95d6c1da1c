import type { Logger } from 'pino';

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
