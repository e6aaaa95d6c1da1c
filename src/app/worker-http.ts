import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { metricsRoute } from '../doors/ops/metrics-route.js';
import { healthRoute } from './health.js';
import { WORKER_PORT as WORKER_PORT_SETTING, listen } from './listen.js';

/**
 * What `npm run worker` serves on WORKER_PORT: its own /metrics (the same admin-key route as the
 * API's, this process's registry: batch items, upstream requests, browser, pool) and /healthz
 * (database and queue), so every process of a deployment can be scraped and checked. Nothing else.
 */
export async function startWorkerHttp(deps: ServiceDeps, boss: PgBoss | null): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', healthRoute(deps.sql, boss ? [{ name: 'queue', check: async () => (await boss.getQueues(), 'up') }] : []));
  app.get('/metrics', metricsRoute(deps));
  app.use((_req, res) => void res.status(404).json({ detail: 'the worker serves /metrics and /healthz only' }));
  const { HOST, WORKER_PORT } = deps.config;
  const server: Server = await listen(app, HOST, WORKER_PORT, WORKER_PORT_SETTING);
  const port = (server.address() as AddressInfo).port;
  const host = HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
