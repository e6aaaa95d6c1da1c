/**
 * Block-page, captcha and unusable-reply detection, in one place. Markers are facts about the
 * bot walls in front of the upstreams (Google /sorry, DataDome, PerimeterX/HUMAN, Akamai,
 * Cloudflare, AWS WAF); each verdict's `detail` is the short name UpstreamFailed carries.
 */
import { SCRIPT_CHALLENGES, UpstreamBlocked } from '../domain/errors.js';
import type { Expect } from './devices.js';

export { UpstreamBlocked };

/**
 * Whether a failure is a script challenge page (the table's `challenge` class): interstitials a real
 * browser clears by running them (a script sets a clearance cookie and reloads), which the browser
 * path retries once. Captchas and hard blocks are not among them.
 */
export function isScriptChallenge(err: unknown): boolean {
  return err instanceof UpstreamBlocked && SCRIPT_CHALLENGES.has(err.detail);
}

export interface BlockVerdict {
  detail: string;
  marker: string;
}

export interface ReplyProbe {
  status: number;
  url: string;
  headers: Record<string, string>;
  body: Buffer | string;
  expect?: Expect;
}

/** Header name, value pattern, detail; checked on every status. */
const HEADER_MARKERS: [string, RegExp, string][] = [
  ['x-amzn-waf-action', /challenge|captcha/i, 'AwsWafChallenge'],
  ['cf-mitigated', /challenge/i, 'CloudflareChallenge'],
];

/** Header markers that also appear on healthy replies, so they count only on blocking statuses. */
const ERROR_HEADER_MARKERS: [string, RegExp, string][] = [
  ['x-datadome', /./, 'DatadomeBlock'],
  ['x-dd-b', /./, 'DatadomeBlock'],
  ['server', /AkamaiGHost/i, 'AkamaiBlock'],
];

/** Body text found only on challenge pages: a verdict on any status. */
const STRONG_BODY_MARKERS: [string, string][] = [
  ['Our systems have detected unusual traffic', 'UnusualTraffic'],
  ['unusual traffic from your computer network', 'UnusualTraffic'],
  ['captcha-delivery.com', 'DatadomeBlock'],
  ['px-captcha', 'PerimeterXBlock'],
  ['Access to this page has been denied', 'PerimeterXBlock'],
  ['Robot or human?', 'PerimeterXBlock'],
  ['Show us your human side', 'HumanCheck'],
  ["can't tell if you're a human", 'HumanCheck'],
  ['<title>Just a moment...</title>', 'CloudflareChallenge'],
  ['Attention Required! | Cloudflare', 'CloudflareChallenge'],
  ['errors.edgesuite.net', 'AkamaiBlock'],
  ['_Incapsula_Resource', 'ImpervaBlock'],
  ['Pardon Our Interruption', 'ImpervaBlock'],
];

/** Body text that healthy pages may also carry (login forms, sensor scripts): counts only on blocking statuses. */
const WEAK_BODY_MARKERS: [string, string][] = [
  ['g-recaptcha', 'CaptchaChallenge'],
  ['recaptcha/api', 'CaptchaChallenge'],
  ['hcaptcha.com', 'CaptchaChallenge'],
  ['_pxAppId', 'PerimeterXBlock'],
  ['/cdn-cgi/challenge-platform/', 'CloudflareChallenge'],
  ['You have been blocked', 'AccessDenied'],
  ['Access Denied', 'AkamaiBlock'],
  ['captcha', 'CaptchaChallenge'],
];

/** Challenge pages are small; scanning a multi-megabyte result page for words invites false alarms. */
const STRONG_SCAN_LIMIT = 256 * 1024;
const WEAK_SCAN_LIMIT = 64 * 1024;

/**
 * Statuses bot walls answer with. A 404/410 page is left to the source (it may still carry a
 * captcha script in its chrome); 202 is AWS WAF's challenge.
 */
const BLOCKING_STATUSES = new Set([202, 403, 405, 429, 503]);
/** The professional network answers its bot wall with this non-standard status. */
const DENIED_STATUSES = new Set([999]);

export function isSorryUrl(url: string): boolean {
  try {
    return /^\/sorry(\/|$)/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The search engine's consent interstitial lives on `consent.<domain>`. */
export function isConsentUrl(url: string): boolean {
  try {
    return new URL(url).hostname.toLowerCase().startsWith('consent.');
  } catch {
    return false;
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const XSSI_PREFIX = ")]}'";

/** Whether the body's first visible character opens JSON (`{`, `[`) or the RPC front end's `)]}'` prefix. */
function startsAsData(body: Buffer | string): boolean {
  const text = typeof body === 'string' ? body.slice(0, 64) : body.subarray(0, 64).toString('utf8');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (WHITESPACE.has(c) || c === 0xfeff) continue; // 0xfeff: a byte-order mark
    return c === 0x7b || c === 0x5b || text.startsWith(XSSI_PREFIX, i);
  }
  return false;
}

function bodyHas(body: Buffer | string, text: string): boolean {
  return (typeof body === 'string' ? body : body.subarray(0, STRONG_SCAN_LIMIT).toString('utf8')).includes(text);
}

/** A verdict when the reply is a block page, captcha or otherwise unusable; null when it is a real answer. */
export function detectBlock(reply: ReplyProbe): BlockVerdict | null {
  const { status, headers } = reply;
  const blockingStatus = BLOCKING_STATUSES.has(status);

  if (isSorryUrl(reply.url)) return { detail: 'CaptchaChallenge', marker: 'url:/sorry/' };
  if (isConsentUrl(reply.url)) return { detail: 'ConsentWall', marker: 'url:consent.' };
  if (DENIED_STATUSES.has(status)) return { detail: 'RequestDenied', marker: `status:${status}` };

  for (const [name, re, detail] of HEADER_MARKERS) {
    if (headers[name] !== undefined && re.test(headers[name])) return { detail, marker: `header:${name}` };
  }
  // Akamai's sensor wall: a refusal that hands out the sensor's cookies (they clear once its script has run);
  // its hard block ("Access Denied", errors.edgesuite.net) is no challenge
  if (blockingStatus && /(^|[,;\n]\s*)(_abck|bm_sz)=/.test(headers['set-cookie'] ?? '') && !bodyHas(reply.body, 'errors.edgesuite.net')) {
    return { detail: 'AkamaiChallenge', marker: 'cookie:_abck' };
  }
  if (blockingStatus) {
    for (const [name, re, detail] of ERROR_HEADER_MARKERS) {
      if (headers[name] !== undefined && re.test(headers[name])) return { detail, marker: `header:${name}` };
    }
  }

  // Challenge pages are HTML: a successful JSON or RPC reply needs no text scan (or decoding).
  if (status >= 200 && status < 300 && startsAsData(reply.body)) return null;

  const size = reply.body.length;
  const body = typeof reply.body === 'string' ? reply.body : reply.body.subarray(0, STRONG_SCAN_LIMIT).toString('utf8');
  if (size <= STRONG_SCAN_LIMIT) {
    const lower = body.toLowerCase();
    for (const [marker, detail] of STRONG_BODY_MARKERS) {
      if (lower.includes(marker.toLowerCase())) return { detail, marker: `body:${marker}` };
    }
    if (blockingStatus && size <= WEAK_SCAN_LIMIT) {
      for (const [marker, detail] of WEAK_BODY_MARKERS) {
        if (lower.includes(marker.toLowerCase())) return { detail, marker: `body:${marker}` };
      }
    }
  }

  if (status >= 200 && status < 300 && reply.expect && reply.expect !== 'any') {
    const trimmed = body.trimStart();
    if (status !== 204 && status !== 205 && trimmed.length === 0) return { detail: 'EmptyReply', marker: 'body:empty' };
    if (reply.expect === 'json' && /^<(!doctype|html|\?xml|head|body)/i.test(trimmed)) {
      return { detail: 'UnexpectedHtmlReply', marker: 'body:html' };
    }
  }
  return null;
}
