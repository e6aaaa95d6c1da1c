import { z } from 'zod';
import { PRICING_MARKETS } from '../src/domain/markets.js';
import { BadRequest, NotFound } from '../src/domain/errors.js';
import { PLAN_CODES, PLANS, planOf } from '../src/platform/plans.js';
import { defineTool } from '../src/core/define-tool.js';
import { SUMMARIES } from './views/summaries.js';

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
    plans: z.array(
      z.object({
        code: z.enum(PLAN_CODES),
        name: z.string(),
        monthly_credits: z.int(),
        price_usd: z.int(),
        concurrency: z.int(),
        active_watches: z.int().describe('watches (POST /v1/watches) active at once; paused ones do not count'),
      }),
    ),
    costs: z.array(z.object({ method: z.string(), path: z.string(), credits: z.int(), note: z.string().optional() })),
    free: z.array(z.string()),
    notes: z.array(z.string()),
    mode,
  }),
  credits: 0,
  handler(_input, { deps }) {
    const routes = deps.tools.flatMap((t) => [t.path, ...t.aliases].map((path) => ({ tool: t, path })));
    return Promise.resolve({
      plans: Object.values(PLANS).map(({ code, name, monthly_credits, price_usd, concurrency, active_watches }) => ({
        code,
        name,
        monthly_credits,
        price_usd,
        concurrency,
        active_watches,
      })),
      // an operation charged like another one (a watch check) is listed with its note, not as free
      costs: routes
        .filter(({ tool }) => tool.metered || tool.credits.note)
        .map(({ tool, path }) => ({ method: tool.method, path, credits: tool.credits.base, ...(tool.credits.note ? { note: tool.credits.note } : {}) })),
      free: routes.filter(({ tool }) => !tool.metered && !tool.credits.note).map(({ tool, path }) => `${tool.method} ${path}`),
      notes: [
        'Credits are charged only for successful, non-empty results; every 4xx and 5xx, empty and blocked result costs 0.',
        'Credits are granted per calendar month (UTC) and renew on the first day of the next month; unused credits do not carry over.',
        'price_usd -1 means a custom contract.',
        'A watch check (scheduled, or POST /v1/watches/{watch_id}/check) is charged like the operation it runs; active_watches is how many watches a plan keeps active at once.',
        `Metering mode is ${deps.config.CREDITS_MODE}: ${modeText(deps.config.CREDITS_MODE)}`,
      ],
      mode: deps.config.CREDITS_MODE,
    });
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
  description:
    'The 18 pricing markets accepted by calendar, offers and batch items, with the currency each prices in and whether its rates conventionally include taxes.',
  method: 'GET',
  path: '/v1/markets',
  tags: ['hotels'],
  input: empty,
  output: z.object({
    markets: z.array(z.object({ code: z.string(), name: z.string(), currency: z.string(), rates_include_tax: z.boolean(), gl: z.string() })),
    total: z.int(),
  }),
  credits: 0,
  handler() {
    return Promise.resolve({ markets: PRICING_MARKETS, total: PRICING_MARKETS.length });
  },
});

export const billing = defineTool({
  name: 'get_credit_balance',
  title: 'Credit balance',
  description:
    "The caller's plan, billing period and credits granted, used and remaining: check it before costly calls (each tool's description opens with its cost, also in its _meta).",
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
  errors: { 404: 'The key is not linked to a billing account.' },
  mcp: { expose: true, title: 'Get credit balance', summary: SUMMARIES.get_credit_balance },
  async handler(_input, { deps, key }) {
    if (!key.plan) throw new NotFound('key not linked to a billing account');
    const plan = planOf(key.plan);
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

/** A page cursor names the last entry of the previous page by its public id; nothing of the internal order shows. */
const cursor = {
  encode: (publicId: string) => Buffer.from(`ledger:${publicId}`).toString('base64url'),
  decode(text: string): string {
    const m = /^ledger:(led_[0-9a-f]{32})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
    if (!m) throw new BadRequest('invalid cursor');
    return m[1];
  },
};

export const ledger = defineTool({
  name: 'get_credit_ledger',
  title: 'Credit ledger',
  description:
    'Append-only credit entries of the account, newest first: monthly grants, per-request charges (with their request id) and manual adjustments. Page with next_cursor.',
  method: 'GET',
  path: '/v1/billing/ledger',
  tags: ['account'],
  input: z.strictObject({
    limit: z.coerce.number().int().min(1).max(200).default(50).describe('Entries per page.'),
    cursor: z.string().min(1).max(200).optional().describe('next_cursor of the previous page.'),
  }),
  output: z.object({
    entries: z.array(
      z.object({
        id: z.string().describe('Random id of the entry (led_…); entries are ordered by time, not by id.'),
        kind: z.enum(['grant', 'charge', 'adjustment']),
        amount: z.int(),
        request_id: z.string().nullable(),
        note: z.string().nullable(),
        period_start: z.string(),
        created_at: z.string(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  credits: 0,
  errors: { 400: 'The cursor is not one this ledger handed out.', 404: 'The key is not linked to a billing account.' },
  async handler({ limit, cursor: after }, { deps, key }) {
    if (!key.plan) throw new NotFound('key not linked to a billing account');
    const before = after === undefined ? undefined : cursor.decode(after);
    await deps.credits.ensurePeriod(key.account_id, key.plan);
    const rows = await deps.credits.ledger(key.account_id, { limit: limit + 1, before });
    if (!rows) throw new BadRequest('invalid cursor');
    const page = rows.slice(0, limit);
    return {
      entries: page.map((r) => ({
        id: r.id,
        kind: r.kind,
        amount: r.amount,
        request_id: r.request_id,
        note: r.note,
        period_start: r.period_start.toISOString(),
        created_at: r.created_at.toISOString(),
      })),
      next_cursor: rows.length > limit ? cursor.encode(page[page.length - 1].id) : null,
    };
  },
});
