import type { Request, Response } from 'express';
import type { Sql } from '../db/client.js';
import { ping } from '../db/client.js';

export interface HealthProbe {
  name: string;
  check(): Promise<string>;
}

/** How long a probe may take before it counts as down. */
const PROBE_TIMEOUT_MS = 2_000;

class ProbeTimeout extends Error {}

/** A probe's answer, or ProbeTimeout after PROBE_TIMEOUT_MS (the probe itself runs on and is ignored). */
function withinProbeTime(answer: Promise<string>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout('no answer in time')), PROBE_TIMEOUT_MS);
  });
  answer.catch(() => undefined);
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz of every process that listens (the API, `npm run worker`): 200 `{"status":"ok"}`
 * while the database (and, where the process runs one, the queue) answers, 503 `degraded` naming
 * what is down otherwise, with `Retry-After`. No key: it says nothing but up or down. A load
 * balancer's readiness check. Each dependency answers within PROBE_TIMEOUT_MS or counts as down:
 * a database that is away makes the probe wait on a connection attempt (and the queue's on its
 * retries), not the balancer.
 */
export function healthRoute(sql: Sql, probes: HealthProbe[] = []) {
  return async (_req: Request, res: Response): Promise<void> => {
    const all = [{ name: 'database', check: async () => (await ping(sql), 'up') }, ...probes];
    const checks = await Promise.all(
      all.map(async (probe): Promise<[string, string, boolean]> => {
        try {
          return [probe.name, await withinProbeTime(probe.check()), true];
        } catch (err) {
          return [probe.name, `down: ${(err as Error).constructor?.name ?? 'Error'}`, false];
        }
      }),
    );
    const ok = checks.every(([, , up]) => up);
    if (!ok) res.setHeader('retry-after', '5');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'degraded', ...Object.fromEntries(checks.map(([name, state]) => [name, state])) });
  };
}
