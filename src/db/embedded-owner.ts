import { readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * One owner for the embedded cluster of a data folder: the process that holds `DATA_DIR/pg.owner`
 * (its pid, the start time the kernel gives that pid, the cluster's port) starts the cluster,
 * restarts it when it dies and stops it when it ends. Any other process on the same folder
 * (a second `npm start`, `npm run worker`, the stdio server) connects to that cluster and leaves
 * it alone; when the owner ends, one of them takes the lock over and starts the cluster again.
 * A lock whose process is gone (killed with -9), or whose pid now belongs to another program, is stale.
 */
export interface OwnerLock {
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22): a pid reused by another process has another. */
  started: number;
  port: number;
}

const OWNER_FILE = 'pg.owner';

export const ownerFile = (dataDir: string) => path.join(dataDir, OWNER_FILE);

/** The start time of `pid` (clock ticks since boot); null when no such process runs. */
async function processStart(pid: number): Promise<number | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // fields after the command (which may hold spaces) start at ") "; starttime is field 22
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

/** The owner recorded in the folder, if its process still runs (same pid, same start time). */
export async function liveOwner(dataDir: string): Promise<OwnerLock | null> {
  const lock = await readLock(dataDir);
  if (!lock) return null;
  return (await processStart(lock.pid)) === lock.started ? lock : null;
}

async function readLock(dataDir: string): Promise<OwnerLock | null> {
  try {
    const lock = JSON.parse(await fs.readFile(ownerFile(dataDir), 'utf8')) as Partial<OwnerLock>;
    return Number.isInteger(lock.pid) && Number.isInteger(lock.started) && Number.isInteger(lock.port) ? (lock as OwnerLock) : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock for this process, unless a live process holds it: true when this process owns
 * the cluster now. Two processes racing for a stale lock: the exclusive create lets one win.
 */
export async function takeOwnership(dataDir: string, port: number): Promise<boolean> {
  const started = await processStart(process.pid);
  const mine: OwnerLock = { pid: process.pid, started: started ?? 0, port };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(ownerFile(dataDir), JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      releaseOnExit(dataDir);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readLock(dataDir);
    if (holder && holder.pid === process.pid) return true;
    if (await liveOwner(dataDir)) return false;
    // stale: remove it only if it is still the stale one we read (another process may have just taken it)
    const again = await readLock(dataDir);
    if (JSON.stringify(again) === JSON.stringify(holder)) await fs.rm(ownerFile(dataDir), { force: true });
  }
  return false;
}

/** Gives the lock up, if this process holds it. */
export function releaseOwnership(dataDir: string): void {
  try {
    const lock = JSON.parse(readFileSync(ownerFile(dataDir), 'utf8')) as Partial<OwnerLock>;
    if (lock.pid === process.pid) rmSync(ownerFile(dataDir), { force: true });
  } catch {
    // no lock, or not ours
  }
}

const released = new Set<string>();
/** However the process ends (process.exit, an uncaught error), its lock goes with it; only kill -9 leaves one (stale, see above). */
function releaseOnExit(dataDir: string): void {
  if (released.has(dataDir)) return;
  released.add(dataDir);
  process.on('exit', () => releaseOwnership(dataDir));
}
