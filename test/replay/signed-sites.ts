/**
 * Replay sites that behave like the pages the browser path exists for (shapes and sources in
 * test/fixtures/README.md):
 * - the flight front end, whose booking page (and results page) fetch their data with an RPC the
 *   page's own script signs: the replayed RPC refuses (`[13]`, as the real one refuses plain
 *   clients) any request without a valid `x-goog-batchexecute-bgr` for a nonce it issued;
 * - a site behind a script challenge (Cloudflare's "Just a moment..." interstitial, 403 with
 *   `cf-mitigated: challenge`) whose script sets a clearance cookie and reloads;
 * - a booking page that also tries to reach private addresses.
 * Each page carries an image and a web font, which the browser path must not load.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RecordedRequest, ReplayRoute } from './server.js';
import { BOOKING_PAGE_WITHOUT_OPTIONS, BOOKING_ROWS } from '../fixtures/flights-payloads.js';
import { CALENDAR_GRAPH_RETURN, RPC_REFUSED } from '../fixtures/flights-rpc-payloads.js';

export const BOOKING_PATH = '/travel/flights/booking';
const RPC_BASE = '/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService';
export const BOOKING_RPC_PATH = `${RPC_BASE}/GetBookingResults`;
export const CALENDAR_RPC_PATH = `${RPC_BASE}/GetCalendarGraph`;
export const PAGE_SCRIPT_PATH = '/_/mss/boq-travel-frontend/_/js/k=travel-frontend.signed.js';
/** Sub-resources the pages reference that the browser path skips. */
export const MEDIA_PATHS = ['/logos/70px/B6.png', '/fonts/google-sans.woff2'];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const USD_TOKEN = 'CjRIUHJ1SE9pTmdoeUVBQ0U1S2dCRy0tLS0tLS0tLS1wZm4zOUFBQUFBR29GZ2tjSG5SRHdBEgZBQTI4IzEaCwj4jgIQAhoDVVNEOBxw+I4C';
const ALL_FLIGHTS = [
  ['B6', '16'],
  ['MS', '754'],
  ['MS', '964'],
];

/** A frame line as the front end sends it: its length, then the JSON. */
function line(json: unknown): string {
  const text = JSON.stringify(json);
  return `${text.length}\n${text}\n`;
}

/**
 * The GetBookingResults reply: two `wrb.fr` payloads (the first without an option list, as the
 * recorded capture of the Go client's wire notes has it), then the bookkeeping rows.
 */
export function bookingResultsReply(rows: unknown[] = BOOKING_ROWS): string {
  const header = [null, [[1, 2, 3], null, null, null, null, [[4]]], 1, 'request-id', 'session-id'];
  const first = [header, null];
  const second = [header, [rows], ALL_FLIGHTS, false, null, null, [[null, 1871], USD_TOKEN]];
  return (
    `)]}'\n\n` +
    line([['wrb.fr', null, JSON.stringify(first), null, null, null, 'generic']]) +
    line([['wrb.fr', null, JSON.stringify(second), null, null, null, 'generic']]) +
    line([
      ['di', 412],
      ['af.httprm', 411, '-3906582139412373112', 58],
    ]) +
    line([['e', 5, null, null, 10542]])
  );
}

/** The page's own script: signs the RPC body with the page's nonce and posts it, as the front end does. */
const PAGE_SCRIPT = `(async () => {
  // the front end's script runs once the page (and its frames) loaded
  if (document.readyState !== 'complete') await new Promise((resolve) => addEventListener('load', resolve, { once: true }));
  const g = window.WIZ_global_data;
  const rpc = document.documentElement.dataset.rpc;
  const here = new URL(location.href);
  const args = rpc === 'GetBookingResults' ? [[null, here.searchParams.get('tfs')], [null, null, 1, null, [], 1, [1, 0, 0, 0]]] : [null, [null, null, 1, null, [], 1, [1, 0, 0, 0]], ['2026-07-15', '2026-09-13']];
  const body = 'f.req=' + encodeURIComponent(JSON.stringify([null, JSON.stringify(args)])) + '&at=' + encodeURIComponent(g.SNlM0e) + '&';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(g.Yllh3e + '|' + body));
  const bgr = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  const previous = localStorage.getItem('last_booking') || '';
  localStorage.setItem('last_booking', here.searchParams.get('tfs') || 'x');
  const query = new URLSearchParams({ 'f.sid': g.FdrFJe, bl: g.cfb2h, hl: here.searchParams.get('hl') || 'en', 'soc-app': '162', 'soc-platform': '1', 'soc-device': '1', _reqid: '211' + Math.floor(Math.random() * 9000 + 1000), rt: 'c' });
  const res = await fetch('${RPC_BASE}/' + rpc + '?' + query, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'x-same-domain': '1', 'x-goog-batchexecute-bgr': bgr, 'x-previous-booking': previous },
    body,
  });
  await res.text();
})();`;

/** What the page head carries: the front end's global data (session id, build label, the signing nonce). */
function wizData(nonce: string): string {
  const data = {
    FdrFJe: `-${randomBytes(8).readBigInt64BE()}`,
    cfb2h: 'boq_travel-frontend-flights-ui_20260921.02_p0',
    SNlM0e: `AKlEn5${randomBytes(9).toString('base64url')}`,
    Yllh3e: nonce,
  };
  // merged into the page's own global data where it has some (the recorded results pages do)
  return `<script nonce="n">window.WIZ_global_data = Object.assign(window.WIZ_global_data || {}, ${JSON.stringify(data)});</script>`;
}

const MEDIA = `<style>@font-face{font-family:"Google Sans";src:url(${MEDIA_PATHS[1]}) format("woff2")}body{font-family:"Google Sans"}</style>`;

/** Issued nonces: a signature is valid for one the server handed out. */
export class Signer {
  readonly nonces = new Set<string>();

  issue(): string {
    const n = randomBytes(12).toString('base64url');
    this.nonces.add(n);
    return n;
  }

  valid(req: RecordedRequest): boolean {
    const bgr = req.headers['x-goog-batchexecute-bgr'];
    return typeof bgr === 'string' && [...this.nonces].some((n) => sha256(`${n}|${req.body}`) === bgr);
  }
}

/** A page whose script makes the signed `rpc` call; `extra` is more of its markup. */
function signedPage(base: string, rpc: 'GetBookingResults' | 'GetCalendarGraph', nonce: string, extra = ''): string {
  return (
    base
      // the recorded pages name their site as base URL; the replay stands in for that site
      .replace(/<base href="https:\/\/www\.google\.com\/">/, '<base href="/">')
      .replace('<html lang="en" dir="ltr">', `<html lang="en" dir="ltr" data-rpc="${rpc}">`)
      .replace(/<html([^>]*)>/, (m, attrs: string) => (attrs.includes('data-rpc') ? m : `<html${attrs} data-rpc="${rpc}">`))
      .replace('</head>', `<script nonce="n">window.AF_initDataCallback ||= function () {};</script>${MEDIA}</head>`)
      .replace(
        /<\/body>(?![\s\S]*<\/body>)/,
        `<img src="${MEDIA_PATHS[0]}" alt="JetBlue">${extra}${wizData(nonce)}<script src="${PAGE_SCRIPT_PATH}" nonce="n"></script></body>`,
      )
  );
}

/** Attempts a hostile page makes: a cloud metadata address, another loopback port (fetch, WebSocket), the same port by another name, a beacon, a redirect into private space. */
function privateReaches(canaryPort: number, replayPort: number): string {
  return (
    `<script nonce="n">` +
    `fetch('http://169.254.169.254/latest/meta-data/').catch(() => {});` +
    `fetch('http://127.0.0.1:${canaryPort}/steal?via=fetch').catch(() => {});` +
    `fetch('http://localhost:${replayPort}/steal?via=name').catch(() => {});` +
    `navigator.sendBeacon('http://10.0.0.1/beacon', 'x');` +
    `try { new WebSocket('ws://127.0.0.1:${canaryPort}/ws'); } catch {}` +
    `</script><iframe src="/go-private"></iframe>`
  );
}

export interface SignedSiteOptions {
  /** Booking pages asked for in this currency are the hostile variant. */
  hostileCurrency?: string;
  canaryPort?: number;
  replayPort?: () => number;
  /** The results page (a recorded one) answering this request, to which the calendar's signed call is added; absent: no such routes. */
  resultsPage?: (req: RecordedRequest) => string;
}

/** Routes of the flight front end with signed RPCs. */
export function signedFlightRoutes(signer: Signer, opts: SignedSiteOptions = {}): ReplayRoute[] {
  const routes: ReplayRoute[] = [
    { path: PAGE_SCRIPT_PATH, headers: { 'content-type': 'text/javascript; charset=utf-8' }, body: PAGE_SCRIPT },
    { path: '/go-private', status: 302, headers: { location: `http://127.0.0.1:${opts.canaryPort ?? 1}/steal?via=redirect` }, body: '' },
    {
      path: BOOKING_PATH,
      reply: (req) => {
        const hostile = opts.hostileCurrency && req.query.curr === opts.hostileCurrency;
        return signedPage(
          BOOKING_PAGE_WITHOUT_OPTIONS,
          'GetBookingResults',
          signer.issue(),
          hostile ? privateReaches(opts.canaryPort ?? 1, opts.replayPort?.() ?? 1) : '',
        );
      },
    },
    { method: 'POST', path: BOOKING_RPC_PATH, reply: (req) => (signer.valid(req) ? bookingResultsReply() : RPC_REFUSED) },
  ];
  if (opts.resultsPage) {
    routes.push(
      { path: '/travel/flights/search', reply: (req) => signedPage(opts.resultsPage!(req), 'GetCalendarGraph', signer.issue()) },
      { method: 'POST', path: CALENDAR_RPC_PATH, reply: (req) => (signer.valid(req) ? CALENDAR_GRAPH_RETURN : RPC_REFUSED) },
    );
  }
  return routes;
}

/** The script challenge: a proof computed by script, set as cookie, then a reload (Cloudflare's interstitial, reduced). */
function challengePage(nonce: string): string {
  return (
    `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta name="robots" content="noindex,nofollow">` +
    `<meta http-equiv="refresh" content="390">${MEDIA}</head><body><div class="main-wrapper" role="main"><div class="main-content">` +
    `<noscript><div>Enable JavaScript and cookies to continue</div></noscript></div></div>` +
    `<img src="${MEDIA_PATHS[0]}" alt="">` +
    `<script>(function(){window._cf_chl_opt={cvId:'3',cZone:location.hostname,cType:'managed',cH:'${nonce}'};` +
    `crypto.subtle.digest('SHA-256',new TextEncoder().encode(window._cf_chl_opt.cH)).then(function(d){` +
    `var h=Array.from(new Uint8Array(d),function(b){return b.toString(16).padStart(2,'0')}).join('');` +
    `document.cookie='cf_clearance='+h+'; path=/';location.reload();});})();</script></body></html>`
  );
}

/** Issued challenge nonces; a request passes with the cookie one of them proves. */
export class Challenge {
  readonly #proofs = new Set<string>();
  served = 0;

  /** Every clearance issued so far stops passing (its lifetime ran out). */
  revokeAll(): void {
    this.#proofs.clear();
  }

  cleared(req: RecordedRequest): boolean {
    const m = /(?:^|;\s*)cf_clearance=([0-9a-f]{64})/.exec(String(req.headers.cookie ?? ''));
    return !!m && this.#proofs.has(m[1]);
  }

  /** The page at `path` (`route`) behind the challenge: cleared requests get it, others the interstitial. */
  protect(route: ReplayRoute): ReplayRoute[] {
    return [
      { ...route, match: (req) => this.cleared(req) && (route.match?.(req) ?? true) },
      {
        path: route.path,
        status: 403,
        headers: {
          'cf-mitigated': 'challenge',
          server: 'cloudflare',
          'content-type': 'text/html; charset=UTF-8',
          'cache-control': 'private, max-age=0, no-store',
        },
        reply: () => {
          const nonce = randomBytes(16).toString('hex');
          this.#proofs.add(sha256(nonce));
          this.served++;
          return challengePage(nonce);
        },
      },
    ];
  }
}
