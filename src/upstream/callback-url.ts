import dns from 'node:dns/promises';
import { isIP } from 'node:net';
import { InvalidInput } from '../domain/errors.js';
import { isPublicAddress } from './ip-ranges.js';

/*
 * The SSRF rules a webhook receiver meets, checked when the job or watch is created (a 422 names
 * the field) with the delivery's own rules, so that a URL that can never be delivered is refused
 * then rather than left pending through the whole retry schedule. The delivery itself goes through
 * the safe fetcher, which checks every DNS answer again (a name may change what it resolves to).
 */

const refuse = (url: string, type: string, msg: string) => new InvalidInput([{ type, loc: ['body', 'callback_url'], msg, input: url }]);

/** Whether a host name names this machine whatever DNS says (`localhost`, `x.localhost`, with or without the root's trailing dot). */
function loopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The addresses a name resolves to now; none when it does not resolve (then only the delivery can tell). */
async function addressesOf(host: string): Promise<string[]> {
  try {
    return (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

/**
 * callback_url must be public HTTPS without credentials, on a host that is not this machine or a
 * private network: an IP literal is checked as it is, a name by what it resolves to now. Plain
 * HTTP and private hosts pass only with the test-only private-fetch flag (`allowInsecure`).
 */
export async function checkCallbackUrl(url: string, allowInsecure: boolean): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(url, 'url_parsing', 'Input should be a valid URL');
  }
  if (parsed.protocol !== 'https:' && !(allowInsecure && parsed.protocol === 'http:')) throw refuse(url, 'url_scheme', 'URL scheme should be https');
  // the delivery refuses a URL with credentials (safe-fetch.ts): never deliverable
  if (parsed.username || parsed.password) throw refuse(url, 'url_credentials', 'callback_url must not carry credentials (user:password@)');
  if (allowInsecure) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  // a name is looked up as given and without the root's trailing dot (hosts files know only the latter)
  const names = [...new Set([host, host.replace(/\.+$/, '')])];
  const publicHost =
    isIP(host) !== 0 ? isPublicAddress(host) : !loopbackName(host) && (await Promise.all(names.map(addressesOf))).flat().every(isPublicAddress);
  if (!publicHost) throw refuse(url, 'url_host', 'callback_url must be a public address (its host resolves to this machine or a private network)');
}
