import type { Request, Response } from 'express';
import type { Sql } from '../db/client.js';
import { ping } from '../db/client.js';

export interface HealthProbe {
  name: string;
  check(): Promise<string>;
}

/**
 * GET /healthz of every process that listens (the API, `npm run worker`): 200 `{"status":"ok"}`
 * while the database (and, where the process runs one, the queue) answers, 503 `degraded` naming
 * what is down otherwise. No key: it says nothing but up or down. A load balancer's readiness check.
 */
export function healthRoute(sql: Sql, probes: HealthProbe[] = []) {
  return async (_req: Request, res: Response): Promise<void> => {
    const checks: Record<string, string> = {};
    let ok = true;
    for (const probe of [{ name: 'database', check: async () => (await ping(sql), 'up') }, ...probes]) {
      try {
        checks[probe.name] = await probe.check();
      } catch (err) {
        ok = false;
        checks[probe.name] = `down: ${(err as Error).constructor?.name ?? 'Error'}`;
      }
    }
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'degraded', ...checks });
  };
}
