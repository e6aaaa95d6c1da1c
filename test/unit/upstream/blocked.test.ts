import { describe, expect, it } from 'vitest';
import { detectBlock, isConsentUrl, isScriptChallenge, isSorryUrl, UpstreamBlocked } from '../../../src/upstream/blocked.js';
import { fixtureSuite, readFixture } from '../../helpers/fixtures.js';

const probe = (status: number, body: string, headers: Record<string, string> = {}, url = 'https://www.example.com/x') => ({
  status,
  body,
  headers,
  url,
  expect: 'html' as const,
});

describe('detectBlock', () => {
  it('recognises the walls by their markers', () => {
    expect(detectBlock(probe(200, 'x', {}, 'https://www.google.com/sorry/index?continue=y'))?.detail).toBe('CaptchaChallenge');
    expect(detectBlock(probe(200, 'x', {}, 'https://consent.google.com/ml?continue=y'))?.detail).toBe('ConsentWall');
    expect(detectBlock(probe(202, '', { 'x-amzn-waf-action': 'challenge' }))?.detail).toBe('AwsWafChallenge');
    expect(detectBlock(probe(403, '<html>x</html>', { 'cf-mitigated': 'challenge' }))?.detail).toBe('CloudflareChallenge');
    expect(detectBlock(probe(403, '<div id="px-captcha"></div>'))?.detail).toBe('PerimeterXBlock');
    expect(detectBlock(probe(200, '<title>Robot or human?</title>'))?.detail).toBe('PerimeterXBlock');
    expect(detectBlock(probe(429, '<h1>Bot or Not?</h1><h2>Show us your human side...</h2>'))?.detail).toBe('HumanCheck');
    expect(detectBlock(probe(403, '<H1>Access Denied</H1>Reference&#32;&#35;18', { server: 'AkamaiGHost' }))?.detail).toBe('AkamaiBlock');
    expect(detectBlock(probe(999, '<html></html>'))?.detail).toBe('RequestDenied');
  });

  it("Akamai's sensor wall: a refusal handing out _abck / bm_sz is a script challenge; its hard block and healthy pages are not", () => {
    const sensor = { 'set-cookie': '_abck=0A1B~-1~YAAQ~-1~-1; Path=/, bm_sz=FF~YAAQ; Path=/', server: 'AkamaiGHost' };
    expect(detectBlock(probe(429, '<html><script src="/akam/13/x"></script></html>', sensor))).toEqual({ detail: 'AkamaiChallenge', marker: 'cookie:_abck' });
    // the browser's header form: repeated headers joined by newlines
    expect(detectBlock(probe(403, '<html></html>', { 'set-cookie': 'foo=1\nbm_sz=FF~YAAQ; Path=/' }))?.detail).toBe('AkamaiChallenge');
    expect(detectBlock(probe(403, '<H1>Access Denied</H1> errors.edgesuite.net', sensor))?.detail).toBe('AkamaiBlock');
    expect(detectBlock(probe(200, '<html>rooms</html>', sensor))).toBeNull();
    expect(isScriptChallenge(new UpstreamBlocked('AkamaiChallenge', 'cookie:_abck'))).toBe(true);
  });

  it('weak markers count only on blocking statuses', () => {
    const loginForm = '<form><div class="g-recaptcha"></div></form><p>Access Denied to members only</p>';
    expect(detectBlock(probe(200, loginForm))).toBeNull();
    expect(detectBlock(probe(403, loginForm))?.detail).toBe('CaptchaChallenge');
    expect(detectBlock(probe(404, loginForm))).toBeNull();
    expect(detectBlock(probe(404, 'x', { server: 'AkamaiGHost' }))).toBeNull();
    expect(detectBlock(probe(500, 'Internal error'))).toBeNull();
    expect(detectBlock(probe(403, 'Forbidden'))).toBeNull();
  });

  it('flags empty and mistyped 2xx replies unless anything goes', () => {
    expect(detectBlock(probe(200, '  \n'))?.detail).toBe('EmptyReply');
    expect(detectBlock({ ...probe(200, ''), expect: 'any' })).toBeNull();
    expect(detectBlock({ ...probe(200, '<html><body>hi</body></html>'), expect: 'json' })?.detail).toBe('UnexpectedHtmlReply');
    expect(detectBlock({ ...probe(200, ")]}'\n[1]"), expect: 'json' })).toBeNull();
    expect(detectBlock(probe(204, ''))).toBeNull();
  });

  it('a successful JSON or RPC reply is data, not a wall, whatever text it quotes; the same text in HTML is a wall', () => {
    const quoting = '{"note":"Our systems have detected unusual traffic","html":"<title>Just a moment...</title>"}';
    expect(detectBlock(probe(200, quoting))).toBeNull();
    expect(detectBlock(probe(200, Buffer.from(`\ufeff  [${quoting}]`) as unknown as string))).toBeNull();
    expect(detectBlock(probe(200, `)]}'\n${quoting}`))).toBeNull();
    expect(detectBlock(probe(200, `<html>${quoting}</html>`))?.detail).toBe('UnusualTraffic');
    expect(detectBlock(probe(429, quoting))?.detail).toBe('UnusualTraffic');
    expect(detectBlock(probe(200, '{}', { 'cf-mitigated': 'challenge' }))?.detail).toBe('CloudflareChallenge');
  });

  it('classifies URLs', () => {
    expect(isSorryUrl('https://www.google.com/sorry/index')).toBe(true);
    expect(isSorryUrl('https://www.google.com/search?q=sorry')).toBe(false);
    expect(isConsentUrl('https://consent.youtube.com/m?continue=x')).toBe(true);
    expect(isConsentUrl('https://www.youtube.com/consent')).toBe(false);
  });
});

const pages = [
  'google-hotels/travel-search-paris-budget.html',
  'booking/search-results-cards-belgrade-2026-11-14.html',
  'linkedin/job-view-guest-page-4411867124.html',
  'linkedin/jobs-guest-search-seeMoreJobPostings-quality-manager.html',
  'youtube/watch-page-GJLlxj_dtq8.html',
];
const jsons = ['hostelworld/availability-property-93919-2026-06.json', 'apps/itunes-lookup-macsoftware-slack-803453959.json'];
const suite = fixtureSuite('detectBlock on recorded healthy replies', ...pages, ...jsons);
describe(suite.title, () => {
  it('does not mistake real pages for block pages', () => {
    for (const rel of pages) expect(detectBlock(probe(200, readFixture(rel))), rel).toBeNull();
    for (const rel of jsons) expect(detectBlock({ ...probe(200, readFixture(rel)), expect: 'json' }), rel).toBeNull();
  });
});
