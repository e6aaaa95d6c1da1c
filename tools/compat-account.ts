import { z } from 'zod';
import { planOf } from '../src/platform/plans.js';
import { chargedCallsLastHour } from '../src/platform/history.js';
import { defineTool } from '../src/core/define-tool.js';

/*
 * GET /api/v1/me: the compatible search API's account endpoint (its "Account API": `account`
 * {current_month_usage, monthly_allowance, remaining_credits}, `api_usage` {searches_this_hour,
 * hourly_rate_limit}, `subscription` {period_start, period_end}), which its n8n node calls to test a
 * credential. Our units are credits (a search costs what its operation costs), so the figures are
 * credits of the billing period; an unmetered account has no allowance and answers null there.
 */

const nullableInt = z.int().nullable();

export const compatibleAccount = defineTool({
  name: 'get_compatible_account',
  title: 'Account, as the compatible search API answers it (GET /api/v1/me)',
  description:
    "The calling key's account in the compatible search API's shape: credits used, granted and remaining this billing period, calls charged in the last hour and the hourly limit (the key's per-minute limit times 60), the billing period, and the plan. Free. The key may come as api_key in the query or as a Bearer token, as that API takes it.",
  method: 'GET',
  path: '/api/v1/me',
  tags: ['compatible search'],
  queryKey: true,
  input: z.strictObject({}),
  output: z.object({
    account: z.object({
      current_month_usage: nullableInt.describe('credits used this billing period; null when the account is not metered'),
      monthly_allowance: nullableInt.describe('credits granted for the period; null when the account is not metered'),
      remaining_credits: nullableInt.describe('credits left in the period; null when the account is not metered'),
      plan: z.string().describe('our addition: the plan code, or unmetered'),
    }),
    api_usage: z.object({
      searches_this_hour: z.int().describe('calls of this key charged in the last 60 minutes'),
      hourly_rate_limit: z.int().describe('60 times the key’s per-minute rate limit'),
    }),
    subscription: z.object({ period_start: z.string(), period_end: z.string() }).optional().describe('the billing period, when the account is metered'),
  }),
  credits: 0,
  async handler(_input, { deps, key }) {
    const hour = await chargedCallsLastHour(deps.sql, key.id);
    const api_usage = { searches_this_hour: hour, hourly_rate_limit: key.rate_limit_per_min * 60 };
    if (!key.plan) return { account: { current_month_usage: null, monthly_allowance: null, remaining_credits: null, plan: 'unmetered' }, api_usage };
    const plan = planOf(key.plan);
    const b = await deps.credits.balance(key.account_id, plan.code);
    const seconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      account: { current_month_usage: b.used, monthly_allowance: b.granted, remaining_credits: b.remaining, plan: plan.code },
      api_usage,
      subscription: { period_start: seconds(b.period.start), period_end: seconds(b.period.end) },
    };
  },
});
