import { CookieJar } from './cookie-jar.js';

/** Who a kept raw reply belongs to, written beside it. */
export interface ReplyOwner {
  account_id: string | null;
  request_id: string | null;
}

/**
 * What the upstream requests of ONE logical operation (one API call, one batch item) share, and
 * nothing else does: the cookies upstream replies set, and whether raw replies may be kept.
 * A request without a session gets a jar of its own that ends with it.
 */
export interface UpstreamSession {
  readonly cookies: CookieJar;
  /** Owner of raw replies kept for diagnosis; null when nothing of this operation may be stored (zero_retention). */
  readonly keep: ReplyOwner | null;
  /** Which paths this operation's requests took: the plain client, headless Chromium (the live check reports it). */
  readonly paths: Set<'http' | 'browser'>;
}

export function newUpstreamSession(keep: ReplyOwner | null = { account_id: null, request_id: null }): UpstreamSession {
  return { cookies: new CookieJar(), keep, paths: new Set() };
}
