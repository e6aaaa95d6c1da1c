/**
 * The requests of one engine quote, all through the SSRF-safe fetcher: 404/410 is the property
 * not found, a block page (or HTML where JSON is expected) a 502; any other status goes back to the
 * engine's parser. The quote's requests share one cookie jar (a booking page's session cookie, then
 * its API), which lives only as long as this one quote of this one caller.
 */
import { NotFound, UpstreamFailed } from '../../domain/errors.js';
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
    if (reply.status === 404 || reply.status === 410) throw new NotFound(`${engine} property ${hotelId} not found`);
    const verdict = detectBlock({ status: reply.status, url: reply.url, headers: reply.headers, body: reply.body, expect });
    if (verdict) throw new UpstreamFailed(verdict.detail);
    return { status: reply.status, text: reply.text() };
  };
  return { call, bytes: () => bytes };
}
