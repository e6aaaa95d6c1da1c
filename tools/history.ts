import { z } from 'zod';
import { NotFound } from '../src/domain/errors.js';
import { appsByKey } from '../src/platform/oauth-store.js';
import { findRequest } from '../src/platform/history.js';
import { readableKeyIds } from '../src/platform/keys.js';
import { USAGE_PERIODS, usageFor, type UsagePeriod } from '../src/platform/usage.js';
import { defineTool } from '../src/core/define-tool.js';

const AppLabel = z.object({ client_id: z.string().describe('The OAuth client id of the app.'), name: z.string().describe('The name the app gave itself.') });

export const requestRecord = defineTool({
  name: 'get_request',
  title: 'One request of the history',
  description:
    'The history record of one of your own requests, by the x-request-id it answered with, or of a call an app connected to your account made (OAuth on /mcp; `app` names it). Another key’s record is a 404.',
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
    cache_hit: z.boolean().describe('Answered from the shared result cache (free).'),
    created_at: z.string(),
    app: AppLabel.nullable().describe('The app connected to your account that made the call (OAuth on /mcp); null for a call made with this key.'),
  }),
  credits: 0,
  errors: { 404: 'No request of this key (or of an app connected to its account) has that id; another key’s record is a 404 too.' },
  async handler({ request_id }, { deps, key }) {
    const row = await findRequest(deps.sql, await readableKeyIds(deps.sql, key), request_id);
    if (!row) throw new NotFound('request not found');
    const app = row.key_id === key.id ? null : ((await appsByKey(deps.sql, key.account_id)).get(row.key_id) ?? null);
    return {
      id: row.id,
      method: row.method,
      path: row.path,
      status: row.status,
      duration_ms: Math.round(row.duration_ms * 100) / 100,
      response_bytes: row.response_bytes,
      credits: row.credits,
      rate_limited: row.rate_limited,
      cache_hit: row.cache_hit === true,
      created_at: row.created_at.toISOString(),
      app,
    };
  },
});

const endpointStats = { avg_duration_ms: z.number(), p95_duration_ms: z.number() };

export const usage = defineTool({
  name: 'get_usage',
  title: 'Usage of the calling key',
  description:
    "Requests, errors, rate-limited calls, credits, bytes and latency of the calling key over a period, by status, endpoint and day, counting the calls of the apps connected to its account (OAuth on /mcp), which by_app lists; the watch schedule's checks apart (scheduled). Free.",
  method: 'GET',
  path: '/v1/usage',
  tags: ['account'],
  input: z.strictObject({
    period: z
      .enum(Object.keys(USAGE_PERIODS) as [UsagePeriod, ...UsagePeriod[]])
      .default('30d')
      .describe('Window ending now: 24 hours, 7, 30 or 90 days.'),
  }),
  output: z.object({
    key: z.object({ name: z.string(), prefix: z.string(), rate_limit_per_min: z.int(), role: z.string() }),
    period: z.object({ name: z.string(), start: z.string(), end: z.string() }),
    totals: z.object({
      requests: z.int(),
      successful: z.int(),
      errors: z.int(),
      rate_limited: z.int(),
      response_bytes: z.int(),
      credits: z.int().describe('credits charged for these calls'),
      ...endpointStats,
    }),
    by_status: z.array(z.object({ status: z.int(), requests: z.int() })),
    by_endpoint: z.array(z.object({ method: z.string(), path: z.string(), requests: z.int(), errors: z.int(), credits: z.int(), ...endpointStats })),
    by_day: z.array(z.object({ date: z.string(), requests: z.int(), errors: z.int(), credits: z.int(), response_bytes: z.int() })),
    scheduled: z
      .object({
        checks: z.int().describe('scheduled watch checks committed'),
        failed_attempts: z.int().describe('scheduled attempts that failed (an upstream down, blocked …), retried by the schedule and charged nothing'),
        credits: z.int(),
      })
      .describe("the watch schedule's own work (not counted in the calls above): checks asked for with POST /v1/watches/{watch_id}/check are calls"),
    by_app: z
      .array(z.object({ app: AppLabel, requests: z.int(), errors: z.int(), credits: z.int() }))
      .describe('Calls made by the apps connected to the account (counted in the totals above), per app; empty for an app’s own token.'),
  }),
  credits: 0,
  async handler({ period }, { deps, key }) {
    const { by_key, ...u } = await usageFor(deps.sql, await readableKeyIds(deps.sql, key), period);
    const others = by_key.filter((k) => k.key_id !== key.id);
    const apps = others.length ? await appsByKey(deps.sql, key.account_id) : new Map<string, z.output<typeof AppLabel>>();
    const by_app = others.flatMap(({ key_id, ...n }) => (apps.has(key_id) ? [{ app: apps.get(key_id)!, ...n }] : [])).sort((a, b) => b.requests - a.requests);
    return { key: { name: key.name, prefix: key.prefix, rate_limit_per_min: key.rate_limit_per_min, role: key.role }, ...u, by_app };
  },
});
