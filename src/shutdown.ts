import type { Logger } from 'pino';

/** SIGTERM / SIGINT close the process's resources once, then exit 0. */
export function closeOnSignals(close: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await close().catch((err) => log.error({ err }, 'shutdown failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
