import { isIP } from 'node:net';
import { InvalidInput } from '../domain/errors.js';
import { isPublicAddress } from './ip-ranges.js';

/*
 * The first of the SSRF rules a webhook receiver meets, checked when the job is submitted (a 422
 * names the field); the delivery itself goes through the safe fetcher, which checks every DNS answer.
 */

/** callback_url must be public HTTPS (plain HTTP only with the test-only private-fetch flag). */
export function checkCallbackUrl(url: string, allowInsecure: boolean): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInput([{ type: 'url_parsing', loc: ['body', 'callback_url'], msg: 'Input should be a valid URL', input: url }]);
  }
  if (parsed.protocol !== 'https:' && !(allowInsecure && parsed.protocol === 'http:')) {
    throw new InvalidInput([{ type: 'url_scheme', loc: ['body', 'callback_url'], msg: 'URL scheme should be https', input: url }]);
  }
  // Names are checked again at delivery, where the safe fetcher validates every DNS answer.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host));
  if (local && !allowInsecure) {
    throw new InvalidInput([{ type: 'url_host', loc: ['body', 'callback_url'], msg: 'callback_url must be a public address', input: url }]);
  }
}
