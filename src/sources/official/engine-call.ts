/**
 * The requests of one engine quote, all through the SSRF-safe fetcher and answered by the one
 * failure table (domain/errors.ts): a block page or challenge is `blocked`/`challenge`, HTML where
 * JSON is expected `unusable`, 404/410 the property not found, 429 `rate_limited` with the engine's
 * delay, other error statuses by their class; only the request-shaped refusals (400, 422) go back
 * to the engine's parser, which reads its own error (a GraphQL schema error, an invalid origin).
 * The quote's requests share one cookie jar (a booking page's session cookie, then its API), which
 * lives only as long as this one quote of this one caller.
 */
import { UpstreamBlocked, upstreamStatusFailure } from '../../domain/errors.js';
import { detectBlock } from '../../upstream/blocked.js';
import { CookieJar } from '../../upstream/cookie-jar.js';
import type { SourceUses } from '../context.js';
import type { EngineCall } from './engine-types.js';

export interface MeteredCall {
  call: EngineCall;
  /** Wire bytes of every request made so far. */
  bytes(): number;
}

export function engineCall(deps: SourceUses<'safeFetch'>, engine: string, hotelId: string): MeteredCall {
  const jar = new CookieJar();
  let bytes = 0;
  const call: EngineCall = async (url, { expect = 'json', ...init }) => {
    const reply = await deps.safeFetch.fetch(url, { ...init, jar });
    bytes += reply.wireBytes;
    const verdict = detectBlock({ status: reply.status, url: reply.url, headers: reply.headers, body: reply.body, expect });
    if (verdict) throw new UpstreamBlocked(verdict.detail, verdict.marker);
    if (reply.status !== 400 && reply.status !== 422) {
      const failure = upstreamStatusFailure(reply.status, { notFound: `${engine} property ${hotelId} not found`, retryAfter: reply.headers['retry-after'] });
      if (failure) throw failure;
    }
    return { status: reply.status, text: reply.text() };
  };
  return { call, bytes: () => bytes };
}
