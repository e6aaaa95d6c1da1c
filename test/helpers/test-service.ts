import pino from 'pino';
import { TOOLS } from '../../tools/index.js';
import { loadConfig } from '../../src/config/config.js';
import type { Tool } from '../../src/core/define-tool.js';
import { createKey, type CreatedKey } from '../../src/platform/keys.js';
import type { PlanCode } from '../../src/platform/plans.js';
import { startService, type Service } from '../../src/app/service.js';
import { documentedStatuses } from '../../src/doors/rest/openapi-responses.js';
import { recordingExamples } from './example-recorder.js';
import { createTestDatabase } from './test-db.js';

export interface TestService extends Service {
  key(opts?: { name?: string; rateLimit?: number; plan?: PlanCode | null; role?: 'user' | 'admin' }): Promise<CreatedKey>;
  call(path: string, opts?: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

let seq = 0;

/**
 * The real service on a real database of its own, listening on a free port. The result cache is off
 * unless `env` turns it on (RESULT_CACHE_ENABLED): the suites replay other pages, failures or counts
 * for identical calls in turn and expect each one fetched; test/integration/platform/result-cache.test.ts
 * and the process tests run it on.
 */
export async function startTestService(env: Record<string, string> = {}, opts: { tools?: Tool[]; databaseUrl?: string } = {}): Promise<TestService> {
  const db = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => undefined } : await createTestDatabase();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    BOOTSTRAP_KEY: 'false',
    RESULT_CACHE_ENABLED: 'false',
    ...env,
    DATABASE_URL: db.url,
  });
  const service = await startService(config, { log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), tools: recordingExamples(opts.tools ?? TOOLS) });
  return {
    ...service,
    async close() {
      const undocumented = await undocumentedStatuses(service, opts.tools ?? TOOLS).catch(() => []);
      await service.close();
      await db.drop();
      if (undocumented.length) throw new Error(`statuses answered but not in /openapi.json (add them to the descriptor's errors): ${undocumented.join(', ')}`);
    },
    key: (opts = {}) =>
      createKey(service.deps.sql, {
        name: opts.name ?? `test-${++seq}-${Date.now()}`,
        rateLimit: opts.rateLimit ?? 10_000,
        plan: opts.plan === undefined ? 'free' : opts.plan,
        role: opts.role,
      }),
    call(path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers['x-api-key'] = opts.key;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      return fetch(service.url + path, {
        method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'),
        headers,
        body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      });
    },
  };
}

/**
 * Every status the suite's REST calls got must be documented for its operation: the request
 * history of each test service is the record of what the routes really answered. Not checked:
 * 499 (the client hung up, nobody reads it), 500 (a fault of ours, never part of the contract) and the
 * rows no REST call answered (MCP tool calls, the watch schedule's checks: SCHEDULE).
 */
async function undocumentedStatuses(service: Service, tools: Tool[]): Promise<string[]> {
  const byRoute = new Map(tools.map((t) => [`${t.method} ${t.path}`, documentedStatuses(t)]));
  const rows = await service.deps.sql<{ method: string; path: string; status: number }[]>`
    SELECT DISTINCT method, path, status FROM request_history WHERE method NOT IN ('MCP', 'SCHEDULE') AND status NOT IN (499, 500)`;
  return rows.filter((r) => !byRoute.get(`${r.method} ${r.path}`)?.includes(r.status)).map((r) => `${r.method} ${r.path} ${r.status}`);
}
