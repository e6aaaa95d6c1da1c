/**
 * Replay sites behind the bot walls the clearance reuse is for, built from their public facts
 * (sources in test/fixtures/README.md and src/config/walls.ts):
 * - AWS WAF (`AwsWafWall`): a request without a valid `aws-waf-token` gets `202` with
 *   `x-amzn-waf-action: challenge` and the JavaScript interstitial (`window.gokuProps`, a
 *   `challenge.js` whose `AwsWafIntegration.getToken()` earns the token, then a reload); the token is
 *   set as the `aws-waf-token` cookie by the script, and the page behind the wall answers any request
 *   carrying one it issued, for the immunity time, from the user agent it was issued to.
 * - Akamai Bot Manager (`AkamaiWall`): a request without a validated `_abck` gets 429 with a
 *   challenge-state `_abck` (`~-1~`) and `bm_sz`, and a page loading the sensor script; the script
 *   posts `sensor_data` and the answer sets a validated `_abck` (`~0~`); the script then reloads.
 * The challenges' computations are not modelled (a nonce proves the script ran): what matters is
 * that only a browser running the page's script earns the cookie, and that plain requests carrying
 * it pass. Each wall counts what it served so the tests can see who cleared and who went plain.
 */
import { randomBytes } from 'node:crypto';
import type { RecordedRequest, ReplayAnswer, ReplayRoute } from './server.js';

const cookieOf = (req: RecordedRequest, name: string) => new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(String(req.headers.cookie ?? ''))?.[1] ?? null;
const userAgent = (req: RecordedRequest) => String(req.headers['user-agent'] ?? '');

/** Where the replayed AWS WAF serves its script and its verify endpoint (the real ones live on `<id>.token.awswaf.com`). */
const AWS_WAF_SCRIPT = '/__awswaf/challenge.js';
const AWS_WAF_VERIFY = '/__awswaf/verify';

/** The interstitial as AWS WAF serves it for `Accept: text/html`: the script's parameters, the script, the token, a reload. */
function awsWafInterstitial(nonce: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title></title><script>window.awsWafCookieDomainList = [];window.gokuProps = ${JSON.stringify({ key: 'AQIDAHjcYu', iv: 'A6weaQ', context: nonce })};</script>` +
    `<script src="${AWS_WAF_SCRIPT}"></script></head><body><div id="challenge-container"></div>` +
    `<script>AwsWafIntegration.saveReferrer();AwsWafIntegration.getToken().then(() => { window.location.reload(true); });</script>` +
    `<noscript><h1>JavaScript is disabled</h1>In order to continue, you need to verify that you're not a robot by solving a CAPTCHA puzzle.</noscript></body></html>`
  );
}

/** challenge.js, reduced: proves it ran (the nonce back), takes the token and sets it as the site's cookie. */
const AWS_WAF_CHALLENGE_JS = `window.AwsWafIntegration = {
  saveReferrer() {},
  async getToken() {
    const res = await fetch('${AWS_WAF_VERIFY}', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge: window.gokuProps.context }) });
    const { token } = await res.json();
    document.cookie = 'aws-waf-token=' + token + '; path=/; max-age=345600';
    return token;
  },
};`;

export class AwsWafWall {
  readonly #nonces = new Set<string>();
  readonly #tokens = new Map<string, { ua: string; at: number }>();
  /** Interstitials served, tokens issued, requests let through on a token. */
  challenged = 0;
  issued = 0;
  passed = 0;

  /** `immunityMs`: how long a token passes (AWS WAF's challenge immunity time). */
  constructor(private readonly immunityMs = 3_600_000) {}

  /** Every token issued so far stops passing (the immunity time ran out). */
  expireAll(): void {
    this.#tokens.clear();
  }

  valid(req: RecordedRequest): boolean {
    const token = cookieOf(req, 'aws-waf-token');
    const t = token ? this.#tokens.get(token) : undefined;
    return !!t && t.ua === userAgent(req) && Date.now() - t.at < this.immunityMs;
  }

  /** The wall's own endpoints (its script and the token service). */
  routes(): ReplayRoute[] {
    return [
      { path: AWS_WAF_SCRIPT, headers: { 'content-type': 'text/javascript' }, body: AWS_WAF_CHALLENGE_JS },
      {
        method: 'POST',
        path: AWS_WAF_VERIFY,
        respond: (req) => {
          const nonce = (JSON.parse(req.body || '{}') as { challenge?: string }).challenge ?? '';
          if (!this.#nonces.delete(nonce)) return { status: 403, body: { error: 'unknown challenge' } };
          const token = `${randomBytes(16).toString('hex')}:${Date.now()}`;
          this.#tokens.set(token, { ua: userAgent(req), at: Date.now() });
          this.issued++;
          return { body: { token } };
        },
      },
    ];
  }

  /** `route` behind the wall: a request with a valid token gets it, any other the 202 interstitial. */
  protect(route: ReplayRoute): ReplayRoute[] {
    return behindWall(this, route, () => {
      const nonce = randomBytes(12).toString('hex');
      this.#nonces.add(nonce);
      return {
        status: 202,
        headers: { 'x-amzn-waf-action': 'challenge', 'cache-control': 'no-store, max-age=0', server: 'CloudFront' },
        body: awsWafInterstitial(nonce),
      };
    });
  }
}

/** Where the replayed Akamai sensor script lives (a site-specific path on the real sites). */
const AKAMAI_SENSOR = '/fxQfz8/7Dvs/akam/13/4b1c0e0d';

const AKAMAI_SENSOR_JS = `(async () => {
  const sensor_data = '3;0;1;0;' + (window.bmak && window.bmak.nonce) + ';' + navigator.userAgent.length;
  await fetch('${AKAMAI_SENSOR}', { method: 'POST', credentials: 'include', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify({ sensor_data }) });
  location.reload();
})();`;

export class AkamaiWall {
  readonly #nonces = new Set<string>();
  readonly #valid = new Map<string, string>();
  /** 429s served, validated `_abck` cookies issued, requests let through on one. */
  challenged = 0;
  issued = 0;
  passed = 0;

  expireAll(): void {
    this.#valid.clear();
  }

  valid(req: RecordedRequest): boolean {
    const abck = cookieOf(req, '_abck');
    return !!abck && this.#valid.get(abck) === userAgent(req);
  }

  routes(): ReplayRoute[] {
    return [
      { path: AKAMAI_SENSOR, headers: { 'content-type': 'text/javascript' }, body: AKAMAI_SENSOR_JS },
      {
        method: 'POST',
        path: AKAMAI_SENSOR,
        respond: (req) => {
          const data = (JSON.parse(req.body || '{}') as { sensor_data?: string }).sensor_data ?? '';
          const nonce = data.split(';')[4] ?? '';
          if (!this.#nonces.delete(nonce)) return { status: 400, body: { success: false } };
          const abck = `${randomBytes(24).toString('hex').toUpperCase()}~0~YAAQ${randomBytes(8).toString('hex')}~-1~-1`;
          this.#valid.set(abck, userAgent(req));
          this.issued++;
          return { status: 201, headers: { 'set-cookie': `_abck=${abck}; Path=/; Max-Age=31536000` }, body: { success: true } };
        },
      },
    ];
  }

  /** `route` behind the wall: a validated `_abck` passes; anything else gets 429 with the sensor's cookies and script. */
  protect(route: ReplayRoute): ReplayRoute[] {
    return behindWall(this, route, () => {
      const nonce = randomBytes(10).toString('hex');
      this.#nonces.add(nonce);
      return {
        status: 429,
        headers: {
          'set-cookie': [
            `_abck=${randomBytes(24).toString('hex').toUpperCase()}~-1~YAAQ${nonce}~-1~-1; Path=/; Max-Age=31536000`,
            `bm_sz=${randomBytes(20).toString('hex').toUpperCase()}~YAAQ${nonce}; Path=/; Max-Age=14400`,
          ],
          server: 'AkamaiGHost',
        },
        body: `<!DOCTYPE html><html><head><title>Just a moment</title><script>window.bmak = { nonce: '${nonce}' };</script><script src="${AKAMAI_SENSOR}"></script></head><body></body></html>`,
      };
    });
  }
}

/** A wall's counters and its test of a request, as behindWall uses them. */
interface Wall {
  challenged: number;
  passed: number;
  valid(req: RecordedRequest): boolean;
}

/** `route` behind `wall`: a request it finds valid gets the route (counted as passed), any other its challenge (counted). */
function behindWall(wall: Wall, route: ReplayRoute, challenge: () => ReplayAnswer): ReplayRoute[] {
  return [
    {
      ...route,
      match: (req) => {
        const ok = wall.valid(req) && (route.match?.(req) ?? true);
        if (ok) wall.passed++;
        return ok;
      },
    },
    {
      method: route.method,
      path: route.path,
      respond: () => {
        wall.challenged++;
        return challenge();
      },
    },
  ];
}
