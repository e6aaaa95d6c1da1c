import { takeRateLimit } from '../platform/rate-limit.js';
import type { Tool, ToolContext } from './define-tool.js';
import { parseInput, type Location } from './validation.js';

export interface Meter {
  /** Credits charged (0 until a metered call succeeds). */
  charged: number;
  /** Credits left after the charge; null when the key has no billing account or metering is off. */
  remaining: number | null;
  /** Whether the response is metered and carries the credit headers. */
  metered: boolean;
  rateLimited: boolean;
}

export function newMeter(): Meter {
  return { charged: 0, remaining: null, metered: false, rateLimited: false };
}

/**
 * The one path every call takes, REST or MCP: rate limit, validate, reserve (when
 * enforced), run, charge the actual cost of a non-empty success. Failures charge 0
 * and release what was reserved.
 */
export async function invokeTool(
  tool: Tool,
  raw: unknown,
  locate: (key: string | undefined) => Location,
  ctx: ToolContext,
  meter: Meter,
): Promise<unknown> {
  const { deps, key, requestId } = ctx;
  const mode = deps.config.CREDITS_MODE;
  const billed = tool.metered && mode !== 'off';
  meter.metered = billed;
  try {
    await takeRateLimit(deps.sql, key.id, key.rate_limit_per_min);
  } catch (err) {
    meter.rateLimited = true;
    throw err;
  }
  const input = parseInput(tool.input, raw, locate);
  const account = billed && key.account_id ? { id: key.account_id, plan: key.plan ?? 'free' } : null;
  const enforced = mode === 'enforce' && account !== null;
  if (enforced) await deps.credits.reserve(account.id, account.plan, requestId, tool.credits.max(input));
  let output: unknown;
  try {
    output = await tool.handler(input, ctx);
  } catch (err) {
    if (enforced) await deps.credits.release(requestId).catch(() => undefined);
    throw err;
  }
  if (!billed) return output;
  const actual = Math.max(0, Math.round(tool.credits.actual(input, output)));
  meter.charged = actual;
  if (!account) return output;
  const note = `${tool.method} ${tool.path}`;
  meter.remaining = enforced
    ? await deps.credits.settle(account.id, account.plan, requestId, actual, note)
    : actual > 0
      ? await deps.credits.charge(account.id, account.plan, requestId, actual, note)
      : await deps.credits.remaining(account.id, account.plan);
  return output;
}
