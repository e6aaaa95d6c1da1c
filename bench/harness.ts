import fs from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type Config } from '../src/config/config.js';
import { createKey } from '../src/platform/keys.js';
import type { Tool } from '../src/core/define-tool.js';
import { startService, type Service } from '../src/app/service.js';
import { freePort } from '../test/helpers/free-port.js';

export interface BenchService {
  service: Service;
  config: Config;
  key: string;
  close(): Promise<void>;
}

/**
 * The real service for a benchmark: DATABASE_URL or a fresh embedded cluster, a key without limits.
 * The result cache is off unless `env` turns it on: the benchmarks repeat identical calls to time the live path.
 */
export async function startBenchService(env: Record<string, string> = {}, tools?: Tool[]): Promise<BenchService> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_KEY: 'false',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    RESULT_CACHE_ENABLED: 'false',
    ...env,
  });
  const service = await startService(config, { log: pino({ level: 'silent' }), ...(tools ? { tools } : {}) });
  const { key } = await createKey(service.deps.sql, { name: `bench-${Date.now()}`, rateLimit: 1_000_000, plan: 'enterprise' });
  return {
    service,
    config,
    key,
    async close() {
      await service.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * CPU time (µs) used so far by the PostgreSQL cluster this process started: its postmaster and
 * backends, with the backends already ended (counted in the postmaster's children's time). Other
 * clusters on the machine (another engineer's tests) are left out. /proc counts 10 ms ticks, so
 * read it over many calls. 0 when the database is not ours (DATABASE_URL).
 */
export function clusterCpuUs(): number {
  const procs = new Map<number, { ppid: number; comm: string; own: number; children: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // fields after the command: state, ppid, … utime (14th field of the line), stime, cutime, cstime
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(entry), { ppid: Number(f[1]), comm, own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) });
    } catch {
      // the process ended meanwhile
    }
  }
  let ticks = 0;
  for (const [pid, p] of procs) {
    if (p.comm !== 'postgres' || p.ppid !== process.pid) continue;
    ticks += p.own + p.children;
    for (const c of procs.values()) if (c.ppid === pid) ticks += c.own;
  }
  return ticks * 10_000;
}
