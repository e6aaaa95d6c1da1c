import fs from 'node:fs/promises';
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
