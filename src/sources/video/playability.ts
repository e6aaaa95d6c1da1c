import { NotFound, UpstreamFailed } from '../../domain/errors.js';
import { at, obj } from '../../domain/json.js';
import { rendererText } from './yt-json.js';

const AGE_STATUSES = new Set(['AGE_CHECK_REQUIRED', 'AGE_VERIFICATION_REQUIRED']);
const AGE_REASON = /inappropriate|age[- ]restrict|confirm your age|age[- ]verif/i;
const BOT_REASON = /not a bot|unusual traffic/i;
const PRIVATE_REASON = /private/i;

export interface Playability {
  status: string | null;
  reason: string | null;
  age_restricted: boolean;
}

/** Reads playabilityStatus of a player response; null player (no player data at hand) → unknown. */
export function readPlayability(player: unknown): Playability | null {
  const ps = obj(at(player, 'playabilityStatus'));
  if (!ps) return null;
  const status = typeof ps.status === 'string' ? ps.status : null;
  const reason = (typeof ps.reason === 'string' ? ps.reason : null) ?? rendererText(at(ps, 'errorScreen', 'playerErrorMessageRenderer', 'reason'));
  const ageGate =
    (status !== null && AGE_STATUSES.has(status)) ||
    typeof ps.desktopLegacyAgeGateReason === 'number' ||
    (status === 'LOGIN_REQUIRED' && reason !== null && AGE_REASON.test(reason));
  return { status, reason, age_restricted: ageGate };
}

/**
 * Throws for a player answer that holds no video: blocked (502), removed / private / nonexistent (404).
 * An age-gated video still carries its metadata and passes.
 */
export function assertVideoAvailable(player: unknown): Playability | null {
  const p = readPlayability(player);
  if (!p) return null;
  const hasDetails = !!obj(at(player, 'videoDetails'));
  if (p.status === 'OK' || p.age_restricted) return p;
  if (p.status === 'LOGIN_REQUIRED' && p.reason && BOT_REASON.test(p.reason)) throw new UpstreamFailed('BotCheck');
  if (p.status === 'LOGIN_REQUIRED' && p.reason && PRIVATE_REASON.test(p.reason)) throw new NotFound('video is private');
  if (!hasDetails || p.status === 'ERROR') throw new NotFound(p.reason ?? 'video unavailable');
  return p;
}
