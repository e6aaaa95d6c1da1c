/**
 * The plan catalogue. Rate limits and concurrency come from the spec's plan table;
 * monthly credits and prices are not in the spec and are our published design.
 */
export const PLAN_CODES = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

export interface Plan {
  code: PlanCode;
  name: string;
  monthly_credits: number;
  price_usd: number;
  concurrency: number;
  rate_limit_per_min: number;
  /** Watches (POST /v1/watches) that may be active at once; paused ones do not count. */
  active_watches: number;
}

export const PLANS: Record<PlanCode, Plan> = {
  free: { code: 'free', name: 'Free', monthly_credits: 1_000, price_usd: 0, concurrency: 2, rate_limit_per_min: 60, active_watches: 3 },
  starter: { code: 'starter', name: 'Starter', monthly_credits: 50_000, price_usd: 49, concurrency: 10, rate_limit_per_min: 300, active_watches: 50 },
  growth: { code: 'growth', name: 'Growth', monthly_credits: 250_000, price_usd: 199, concurrency: 40, rate_limit_per_min: 1_200, active_watches: 500 },
  scale: { code: 'scale', name: 'Scale', monthly_credits: 1_000_000, price_usd: 599, concurrency: 100, rate_limit_per_min: 3_000, active_watches: 2_500 },
  enterprise: {
    code: 'enterprise',
    name: 'Enterprise',
    monthly_credits: 5_000_000,
    price_usd: -1,
    concurrency: 250,
    rate_limit_per_min: 6_000,
    active_watches: 10_000,
  },
};

/** The plan of an account whose calls are not metered (a key made without a plan still has an account). */
export const UNMETERED = 'none';

/** The plan an account is billed on, or null when it is not metered. */
export function billedPlan(code: string | null | undefined): PlanCode | null {
  return !code || code === UNMETERED ? null : planOf(code).code;
}

export function planOf(code: string): Plan {
  return PLANS[code as PlanCode] ?? PLANS.free;
}
