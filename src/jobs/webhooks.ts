import { createHmac } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import { isIP } from 'node:net';
import { InvalidInput } from '../platform/errors.js';
import { isPublicAddress } from '../upstream/ip-ranges.js';
import type { SafeFetcher } from '../upstream/safe-fetch.js';

/**
 * `job.completed` delivery. The body is signed with HMAC-SHA256 over `<timestamp>.<body>`
 * and sent as `x-signature: t=<unix seconds>,v1=<hex>`; receivers recompute it with the
 * shared secret and reject timestamps older than five minutes.
 */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

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

export interface WebhookOutcome {
  delivered: boolean;
  error: string | null;
}

export async function deliverWebhook(deps: AppDeps, fetcher: SafeFetcher, url: string, event: unknown): Promise<WebhookOutcome> {
  const secret = deps.config.WEBHOOK_SIGNING_SECRET!;
  const body = JSON.stringify(event);
  const ts = Math.floor(Date.now() / 1000);
  try {
    const res = await fetcher.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'hotelrates-webhooks/1.0',
        'webhook-id': (event as { id: string }).id,
        'x-signature': signWebhook(secret, body, ts),
      },
      body,
    });
    if (res.status >= 200 && res.status < 300) return { delivered: true, error: null };
    return { delivered: false, error: `HTTP ${res.status}` };
  } catch (err) {
    const e = err as { detail?: unknown; message?: string };
    return { delivered: false, error: String(e.detail ?? e.message ?? 'delivery failed') };
  }
}
