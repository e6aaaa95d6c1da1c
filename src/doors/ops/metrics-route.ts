import type { Request, Response } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import { requireKey } from '../../platform/auth.js';
import { sendError } from '../rest/http-errors.js';

/**
 * GET /metrics (Prometheus text format) for an admin key in `x-api-key` or `Authorization: Bearer`:
 * no key or an unknown one is 401, a valid key without the admin role 403.
 */
export function metricsRoute(deps: Pick<ServiceDeps, 'platform' | 'ops' | 'log'>) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      const key = await requireKey(deps, req);
      req.keyPrefix = key.prefix;
      if (key.role !== 'admin') {
        res.status(403).json({ detail: 'metrics need an admin key' });
        return;
      }
      const { registry } = deps.ops.metrics;
      const text = await registry.metrics();
      res.type(registry.contentType).send(text);
    } catch (err) {
      sendError(deps, req, res, err);
    }
  };
}
