/**
 * The bot walls a browser can clear by running their script, and the anonymous clearance cookies
 * each one names. Facts, with where they come from (test/fixtures/README.md cites them too):
 *
 * - AWS WAF: a Challenge rule answers `202` with `x-amzn-waf-action: challenge` and a JavaScript
 *   interstitial; once the script succeeds the client holds a token in the `aws-waf-token` cookie
 *   and the original request is resubmitted (AWS WAF API reference, ChallengeAction). The token's
 *   challenge timestamp stays valid for the web ACL's immunity time: 300 s by default, at most
 *   259,200 s (AWS WAF developer guide, "token immunity times"). The first OTA's plain search
 *   answers with that token alone, reusable for days (MikkoParkkola/trvl PR #200, 2026-06).
 * - Cloudflare: the interstitial ("Just a moment...", `cf-mitigated: challenge`) sets `cf_clearance`
 *   once passed, tied to the visitor and device it was issued to (developers.cloudflare.com,
 *   Challenges › Clearance); clients reuse it only with the same IP and user agent (cf-clearance on
 *   PyPI). `__cf_bm` carries the bot score, generated per site, valid up to 30 minutes from the last
 *   request, and "does not correspond to any user ID" (Cloudflare cookie reference).
 * - Akamai Bot Manager: `_abck` holds the sensor's verdict (tilde markers flip from "challenge me" to
 *   validated after the sensor_data POST), `bm_sz` is set before any script runs and feeds the
 *   sensor, `ak_bmsc` comes from the pixel challenge (crawlex.net on `_abck` and on `bm_sz`); the
 *   scoring cookies are first-party security cookies, none used for marketing (flowconsent.com,
 *   Akamai Bot Manager). Plain clients of the group's sites meet 429 until the sensor has run.
 * - Imperva (Incapsula): `reese84` (the newer script's token) and the older `incap_ses_*`,
 *   `visid_incap_*`, `nlbi_*` cookies (capsolver docs, "Imperva: solving reese84"; zendriver-imperva
 *   detect.js).
 *
 * Only these cookies are ever kept: never a session, personalisation, consent or account cookie.
 */

const WALL_IDS = ['aws_waf', 'cloudflare', 'akamai', 'imperva'] as const;
export type WallId = (typeof WALL_IDS)[number];

export interface Wall {
  /** Human name, for the operator. */
  name: string;
  /** The block verdicts (upstream/blocked.ts details) that mean this wall asked for its script. */
  verdicts: readonly string[];
  /** Cookies of the clearance: exact names, or prefixes ending in `*`. */
  cookies: readonly string[];
  /** The cookies whose expiry bounds the clearance (the wall's own word on how long it lasts), in order. */
  primary: readonly string[];
}

export const WALLS: Record<WallId, Wall> = {
  aws_waf: { name: 'AWS WAF', verdicts: ['AwsWafChallenge'], cookies: ['aws-waf-token'], primary: ['aws-waf-token'] },
  cloudflare: { name: 'Cloudflare', verdicts: ['CloudflareChallenge'], cookies: ['cf_clearance', '__cf_bm'], primary: ['cf_clearance'] },
  akamai: { name: 'Akamai Bot Manager', verdicts: ['AkamaiChallenge'], cookies: ['_abck', 'bm_sz', 'ak_bmsc', 'bm_sv'], primary: ['_abck'] },
  imperva: { name: 'Imperva', verdicts: ['ImpervaBlock'], cookies: ['reese84', 'incap_ses_*', 'visid_incap_*', 'nlbi_*'], primary: ['reese84', 'incap_ses_*'] },
};

/** The wall a block verdict belongs to, if it is one a browser clears. */
export function wallOfVerdict(detail: string): WallId | null {
  return WALL_IDS.find((id) => WALLS[id].verdicts.includes(detail)) ?? null;
}

const matches = (pattern: string, name: string) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern);

/** Whether a cookie name is one of `walls`' clearance cookies. */
export function isWallCookie(name: string, walls: readonly WallId[]): boolean {
  return walls.some((id) => WALLS[id].cookies.some((c) => matches(c, name)));
}

/** Whether a cookie name bounds the lifetime of `wall`'s clearance. */
export function isPrimaryCookie(name: string, wall: WallId): boolean {
  return WALLS[wall].primary.some((c) => matches(c, name));
}
