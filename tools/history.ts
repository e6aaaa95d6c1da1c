import { z } from 'zod';
import { NotFound } from '../src/platform/errors.js';
import { findRequest } from '../src/platform/history.js';
import { USAGE_PERIODS, usageFor, type UsagePeriod } from '../src/platform/usage.js';
import { defineTool } from '../src/registry/define-tool.js';

export const requestRecord = defineTool({
  name: 'get_request',
  title: 'One request of the history',
  description: 'The history record of one of your own requests, by the x-request-id it answered with. Another key’s record is a 404.',
  method: 'GET',
  path: '/v1/requests/{request_id}',
  tags: ['account'],
  input: z.strictObject({ request_id: z.string().min(1).max(100).describe('The x-request-id the request answered with (req_…).') }),
  output: z.object({
    id: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.int(),
    duration_ms: z.number(),
    response_bytes: z.int(),
    credits: z.int(),
    rate_limited: z.boolean(),
    created_at: z.string(),
  }),
  credits: 0,
  errors: { 404: 'No request of this key has that id (another key’s record is a 404 too).' },
  async handler({ request_id }, { deps, key }) {
    const row = await findRequest(deps.sql, key.id, request_id);
    if (!row) throw new NotFound('request not found');
    return {
      id: row.id as string,
      method: row.method as string,
      path: row.path as string,
      status: row.status as number,
      duration_ms: Math.round((row.duration_ms as number) * 100) / 100,
      response_bytes: row.response_bytes as number,
      credits: row.credits as number,
      rate_limited: row.rate_limited as boolean,
      created_at: (row.created_at as Date).toISOString(),
    };
  },
});

const endpointStats = { avg_duration_ms: z.number(), p95_duration_ms: z.number() };

export const usage = defineTool({
  name: 'get_usage',
  title: 'Usage of the calling key',
  description: 'Requests, errors, rate-limited calls, bytes and latency of the calling key over a period, by status, endpoint and day. Free.',
  method: 'GET',
  path: '/v1/usage',
  tags: ['account'],
  input: z.strictObject({ period: z.enum(Object.keys(USAGE_PERIODS) as [UsagePeriod, ...UsagePeriod[]]).default('30d').describe('Window ending now: 24 hours, 7, 30 or 90 days.') }),
  output: z.object({
    key: z.object({ name: z.string(), prefix: z.string(), rate_limit_per_min: z.int(), role: z.string() }),
    period: z.object({ name: z.string(), start: z.string(), end: z.string() }),
    totals: z.object({
      requests: z.int(),
      successful: z.int(),
      errors: z.int(),
      rate_limited: z.int(),
      response_bytes: z.int(),
      ...endpointStats,
    }),
    by_status: z.array(z.object({ status: z.int(), requests: z.int() })),
    by_endpoint: z.array(z.object({ method: z.string(), path: z.string(), requests: z.int(), errors: z.int(), ...endpointStats })),
    by_day: z.array(z.object({ date: z.string(), requests: z.int(), errors: z.int(), response_bytes: z.int() })),
  }),
  credits: 0,
  async handler({ period }, { deps, key }) {
    const u = await usageFor(deps.sql, key.id, period);
    return { key: { name: key.name, prefix: key.prefix, rate_limit_per_min: key.rate_limit_per_min, role: key.role }, ...u };
  },
});
