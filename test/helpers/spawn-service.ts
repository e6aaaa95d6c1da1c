import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');

export interface Spawned {
  child: ChildProcess;
  url: string;
  firstKey: string | null;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * How package.json's scripts run an entry: the compiled build (dist/, made by the test run's
 * global setup) for those a script runs compiled (`npm start`, `npm run worker`), tsx for the rest.
 */
export function entryArgs(entry: string): string[] {
  const compiled = `dist/${entry.replace(/\.ts$/, '.js')}`;
  const scripts = Object.values(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).scripts as Record<string, string>);
  return scripts.some((s) => s.split(/\s+/).includes(compiled)) ? [compiled] : ['--import', 'tsx', entry];
}

/** Runs an npm entry point (`src/main.ts`, `src/cli/keys.ts` …) as its own process, as its npm script does. */
export function spawnEntry(entry: string, args: string[], env: Record<string, string | undefined>, nodeFlags: string[] = []): ChildProcess {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  // One process, as `npm start` runs it, so that a signal reaches the server itself.
  return spawn(process.execPath, [...nodeFlags, ...entryArgs(entry), ...args], { cwd: REPO, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * `npm start` exactly as typed in a terminal: npm, then the service, in a process group of their
 * own, so that a signal to the group (-pid) is what Ctrl-C sends to the terminal's foreground group.
 */
export function spawnNpmStart(env: Record<string, string | undefined>, cwd = REPO): ChildProcess {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return spawn('npm', ['start', '--silent'], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

/** Starts the server and waits for the line that prints its URL (and the first key, when one is made). */
export async function spawnServer(
  env: Record<string, string | undefined>,
  // a safety net, not a budget: the banner is the readiness signal (a start took over 60 s at load 25)
  timeoutMs = 150_000,
  opts: { npmStart?: boolean; nodeFlags?: string[]; cwd?: string } = {},
): Promise<Spawned> {
  const child = opts.npmStart ? spawnNpmStart(env, opts.cwd) : spawnEntry('src/main.ts', [], env, opts.nodeFlags);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // A server that did not start in time is killed: left running, it would start later and
    // take the next test's jobs from the same database (seen on a loaded machine).
    const timer = setTimeout(() => {
      // npm start runs in a process group of its own: the group, or the server outlives npm
      try {
        if (opts.npmStart && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /API listening on (http:\/\/\S+)/.exec(out);
      // The banner (URL, then the first key when one is made) is one write of under 4 KB to a
      // pipe, which arrives whole: the chunk that holds the URL holds the key too.
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', () => reject(new Error(`server exited:\n${out}`)));
  });
  const key = /\n\s+(sk_[A-Za-z0-9_-]{32})\n/.exec(out);
  return { child, url, firstKey: key ? key[1] : null, output: () => out, exited };
}

export async function runEntry(
  entry: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnEntry(entry, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** Resolves when the process has exited (at once if it already has). */
export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Resolves once the process has written `text` to stdout or stderr; rejects if it exits first. */
export function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes(text)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before printing "${text}":\n${out}`)));
  });
}

/**
 * The settings of an API or worker process in the process tests (durability of batches, MCP tasks
 * and watches; the result cache shared by two APIs): their database, the replayed metasearch, no
 * upstream retries, and a queue that notices an expired entry within seconds. `extra` adds or
 * overrides.
 */
export function durableProcessEnv(databaseUrl: string, upstreamUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: '0',
    // several workers run side by side: each serves its /metrics on a port of its own
    WORKER_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_KEY: 'false',
    UPSTREAM_METASEARCH_URL: upstreamUrl,
    UPSTREAM_RETRIES: '0',
    QUEUE_MAINTENANCE_S: '1',
    JOB_MIN_EXPIRY_S: '1',
    ...extra,
  };
}
