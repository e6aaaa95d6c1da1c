import { describe, expect, it } from 'vitest';
import { isPrimaryCookie, isWallCookie, wallOfVerdict, WALLS } from '../../../src/config/walls.js';
import { guards as otaoneGuards } from '../../../src/sources/otaone/guards.js';
import { applyClearance, cookieApplies, harvestOf } from '../../../src/upstream/clearance.js';
import { CookieJar } from '../../../src/upstream/cookie-jar.js';
import type { KeptCookie, WallClearance } from '../../../src/platform/wall-clearances.js';

const cookie = (name: string, domain = '.booking.com', expires = -1): KeptCookie => ({ name, value: `v-${name}`, domain, path: '/', expires });

describe('the walls and their clearance cookies', () => {
  it('each wall names its cookies, and every challenge verdict a browser clears belongs to one wall', () => {
    expect(WALLS.aws_waf.cookies).toEqual(['aws-waf-token']);
    expect(isWallCookie('incap_ses_1234_5678', ['imperva'])).toBe(true);
    expect(isWallCookie('visid_incap_99', ['imperva'])).toBe(true);
    expect(isWallCookie('cf_clearance', ['aws_waf'])).toBe(false);
    expect(isPrimaryCookie('_abck', 'akamai')).toBe(true);
    expect(isPrimaryCookie('bm_sz', 'akamai')).toBe(false);
    for (const verdict of ['AwsWafChallenge', 'CloudflareChallenge', 'AkamaiChallenge', 'ImpervaBlock']) expect(wallOfVerdict(verdict)).not.toBeNull();
    expect(wallOfVerdict('DatadomeBlock')).toBeNull();
    expect(otaoneGuards.walls).toEqual(['aws_waf']);
  });

  it("a cleared visit keeps only the wall's cookies for the source's host: never a session, consent or other site's cookie", () => {
    const held = [
      cookie('aws-waf-token'),
      cookie('bkng'),
      cookie('cors_js'),
      cookie('OptanonConsent'),
      cookie('aws-waf-token', '.other-site.com'),
      cookie('cf_clearance', 'www.booking.com'),
    ];
    const h = harvestOf(held, 'https://www.booking.com', { wall: 'aws_waf', walls: ['aws_waf'], keep: () => undefined }, 'UA/1');
    expect(h).toEqual({ wall: 'aws_waf', userAgent: 'UA/1', cookies: [cookie('aws-waf-token')] });
    const both = harvestOf(held, 'https://www.booking.com', { wall: 'cloudflare', walls: ['cloudflare', 'aws_waf'], keep: () => undefined }, 'UA/1');
    expect(both.cookies.map((c) => `${c.name}@${c.domain}`)).toEqual(['aws-waf-token@.booking.com', 'cf_clearance@www.booking.com']);
  });

  it('host-only cookies go to their host, domain cookies to the domain and its subdomains', () => {
    expect(cookieApplies(cookie('x', 'www.booking.com'), 'www.booking.com')).toBe(true);
    expect(cookieApplies(cookie('x', 'www.booking.com'), 'secure.booking.com')).toBe(false);
    expect(cookieApplies(cookie('x', '.booking.com'), 'secure.booking.com')).toBe(true);
    expect(cookieApplies(cookie('x', '.booking.com'), 'booking.com')).toBe(true);
    expect(cookieApplies(cookie('x', '.booking.com'), 'evilbooking.com')).toBe(false);
  });

  it("a request's jar gets the clearance's unexpired cookies for its URL, beside the session's own", () => {
    const jar = new CookieJar();
    const url = new URL('http://127.0.0.1:9/otaone/x');
    jar.set(url, { name: 'session_own', value: '1' });
    const now = Math.floor(Date.now() / 1000);
    const clearance: WallClearance = {
      source: 'otaone',
      egress: 'direct',
      wall: 'aws_waf',
      userAgent: 'UA/1',
      cookies: [cookie('aws-waf-token', '127.0.0.1', now + 3600), cookie('expired', '127.0.0.1', now - 10), cookie('elsewhere', '.booking.com')],
      obtainedAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
      generation: 1,
    };
    applyClearance(jar, url, clearance);
    expect(jar.header(url)).toBe('session_own=1; aws-waf-token=v-aws-waf-token');
  });
});
