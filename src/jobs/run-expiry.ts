import type { Config } from '../config/config.js';

/** The configured bounds of a queued run's expiry (JOB_MIN_EXPIRY_S, JOB_MAX_EXPIRY_S). */
export interface ExpiryBounds {
  minSeconds: number;
  maxSeconds: number;
}

export function expiryBounds(config: Pick<Config, 'JOB_MIN_EXPIRY_S' | 'JOB_MAX_EXPIRY_S'>): ExpiryBounds {
  return { minSeconds: config.JOB_MIN_EXPIRY_S, maxSeconds: config.JOB_MAX_EXPIRY_S };
}

/**
 * How long a queued run (a batch item, an MCP task, a watch check) may hold its queue entry:
 * twice its expected run time, within the bounds. pg-boss hands an entry out again once it has
 * expired, which is how a run whose worker died is taken up again; the upper bound is how long
 * that can take at most, the lower one keeps a short run from being handed out twice.
 */
export function runExpirySeconds(expectedSeconds: number, bounds: ExpiryBounds): number {
  const twice = Math.ceil((Number.isFinite(expectedSeconds) ? expectedSeconds : 60) * 2);
  return Math.max(bounds.minSeconds, Math.min(bounds.maxSeconds, twice));
}
