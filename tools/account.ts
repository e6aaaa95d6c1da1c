import { z } from 'zod';
import { PRICING_MARKETS } from '../src/domain/markets.js';
import { NotFound } from '../src/platform/errors.js';
import { PLAN_CODES, PLANS, planOf } from '../src/platform/plans.js';
import { defineTool } from '../src/registry/define-tool.js';

const empty = z.strictObject({});
const mode = z.enum(['off', 'shadow', 'enforce']);

export const billingPlans = defineTool({
  name: 'get_billing_plans',
  title: 'Plan catalogue and credit costs',
  description: 'Plans with their monthly credits, price and concurrency; the credit cost of every operation; which operations are free; the metering mode.',
  method: 'GET',
  path: '/v1/billing/plans',
  tags: ['account'],
  input: empty,
  output: z.object({
    plans: z.array(z.object({ code: z.enum(PLAN_CODES), name: z.string(), monthly_credits: z.int(), price_usd: z.int(), concurrency: z.int() })),
    costs: z.array(z.object({ method: z.string(), path: z.string(), credits: z.int(), note: z.string().optional() })),
    free: z.array(z.string()),
    notes: z.array(z.string()),
    mode,
  }),
  credits: 0,
  async handler(_input, { deps }) {
    const routes = deps.tools.flatMap((t) => [t.path, ...t.aliases].map((path) => ({ tool: t, path })));
    return {
      plans: Object.values(PLANS).map(({ code, name, monthly_credits, price_usd, concurrency }) => ({ code, name, monthly_credits, price_usd, concurrency })),
      costs: routes
        .filter(({ tool }) => tool.metered)
        .map(({ tool, path }) => ({ method: tool.method, path, credits: tool.credits.base, ...(tool.credits.note ? { note: tool.credits.note } : {}) })),
      free: routes.filter(({ tool }) => !tool.metered).map(({ tool, path }) => `${tool.method} ${path}`),
      notes: [
        'Credits are charged only for successful, non-empty results; every 4xx and 5xx, empty and blocked result costs 0.',
        'Credits are granted per calendar month (UTC) and renew on the first day of the next month; unused credits do not carry over.',
        'price_usd -1 means a custom contract.',
        `Metering mode is ${deps.config.CREDITS_MODE}: ${modeText(deps.config.CREDITS_MODE)}`,
      ],
      mode: deps.config.CREDITS_MODE,
    };
  },
});

function modeText(m: string): string {
  if (m === 'enforce') return 'a request needing more credits than available is refused with 402, and plan concurrency applies.';
  if (m === 'shadow') return 'every request is metered and recorded, nothing is blocked.';
  return 'nothing is metered.';
}

export const markets = defineTool({
  name: 'list_markets',
  title: 'Pricing markets',
  description: 'The 18 pricing markets accepted by calendar, offers and batch items, with the currency each prices in and whether its rates conventionally include taxes.',
  method: 'GET',
  path: '/v1/markets',
  tags: ['hotels'],
  input: empty,
  output: z.object({
    markets: z.array(z.object({ code: z.string(), name: z.string(), currency: z.string(), rates_include_tax: z.boolean(), gl: z.string() })),
    total: z.int(),
  }),
  credits: 0,
  async handler() {
    return { markets: PRICING_MARKETS, total: PRICING_MARKETS.length };
  },
});

export const billing = defineTool({
  name: 'get_credit_balance',
  title: 'Credit balance',
  description:
    "The calling key's plan, current billing period, and credits granted, used and remaining. Free. Use it before an expensive batch to check the balance; costs per operation are in GET /v1/billing/plans.",
  method: 'GET',
  path: '/v1/billing',
  tags: ['account'],
  input: empty,
  output: z.object({
    account_id: z.string(),
    plan: z.object({ code: z.string(), name: z.string(), monthly_credits: z.int(), concurrency: z.int() }),
    period: z.object({ start: z.string(), end: z.string(), renews_on: z.string() }),
    credits: z.object({ granted: z.int(), used: z.int(), remaining: z.int(), reserved: z.int() }),
    mode,
  }),
  credits: 0,
  mcp: { expose: true, title: 'Get credit balance' },
  async handler(_input, { deps, key }) {
    if (!key.account_id) throw new NotFound('key not linked to a billing account');
    const plan = planOf(key.plan ?? 'free');
    const b = await deps.credits.balance(key.account_id, plan.code);
    return {
      account_id: key.account_id,
      plan: { code: plan.code, name: plan.name, monthly_credits: plan.monthly_credits, concurrency: plan.concurrency },
      period: { start: b.period.start.toISOString(), end: b.period.end.toISOString(), renews_on: b.period.end.toISOString().slice(0, 10) },
      credits: { granted: b.granted, used: b.used, remaining: b.remaining, reserved: b.reserved },
      mode: deps.config.CREDITS_MODE,
    };
  },
});
