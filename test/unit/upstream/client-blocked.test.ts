import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamFailed } from '../../../src/domain/errors.js';
import { UpstreamBlocked } from '../../../src/upstream/blocked.js';
import { startConnectProxy, type ConnectProxy } from '../../replay/connect-proxy.js';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay/server.js';
import { rejection, replayClient } from './harness.js';

let server: ReplayServer | undefined;
let proxy: ConnectProxy | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  await server?.close();
  await proxy?.close();
  close = server = proxy = undefined;
});

async function setup(routes: ReplayRoute[], env: Record<string, string> = {}) {
  server = await startReplayServer(routes);
  const made = replayClient(server.url, env);
  close = () => made.client.close();
  return made;
}

const SORRY_PAGE =
  '<html><head><title>https://www.google.com/search</title></head><body><div id="infoDiv">Our systems have detected unusual traffic from your computer network.</div><div class="g-recaptcha" data-sitekey="x"></div></body></html>';
const DATADOME_PAGE = `<html><body><script>var dd={'rt':'c','cid':'x','hsh':'y','host':'geo.captcha-delivery.com'}</script><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>`;

describe('block pages', () => {
  it('a /sorry/ redirect is a captcha: UpstreamFailed, not retried, raw reply not fetched', async () => {
    const { client } = await setup([{ path: '/search', status: 302, headers: { location: '/sorry/index?continue=x' } }]);
    const err = await rejection(client.fetch({ source: 'metasearch', path: '/search' }));
    expect(err).toBeInstanceOf(UpstreamFailed);
    expect(err.detail).toBe('CaptchaChallenge');
    expect(server!.requests.map((r) => r.path)).toEqual(['/search']);
  });

  it('a 429 "unusual traffic" page is a block, not a retryable rate limit', async () => {
    const { client, dataDir } = await setup([{ path: '/travel/search', status: 429, body: SORRY_PAGE }]);
    const err = await rejection(client.fetch({ source: 'metasearch', path: '/travel/search' }));
    expect(err).toBeInstanceOf(UpstreamBlocked);
    expect(err.detail).toBe('UnusualTraffic');
    expect(server!.requests).toHaveLength(1);
    const kept = fs.readdirSync(path.join(dataDir, 'diagnostics', 'metasearch'));
    expect(kept.filter((f) => f.endsWith('.html.gz'))).toHaveLength(1);
  });

  it('a 403 DataDome challenge names DataDome', async () => {
    const { client } = await setup([{ path: '/h', status: 403, body: DATADOME_PAGE, headers: { 'x-datadome': 'protected' } }]);
    const err = await rejection(client.fetch({ source: 'otatwo', path: '/h' }));
    expect(err.detail).toBe('DatadomeBlock');
  });

  it('an empty 200 is unusable when html is expected', async () => {
    const { client } = await setup([{ path: '/e', body: '' }]);
    expect((await rejection(client.fetch({ source: 'otaone', path: '/e' }))).detail).toBe('EmptyReply');
  });

  it('HTML where JSON was expected is unusable', async () => {
    const { client } = await setup([{ path: '/api', body: '<!DOCTYPE html><html><body>Log in</body></html>' }]);
    expect((await rejection(client.fetch({ source: 'otaone', path: '/api', expect: 'json' }))).detail).toBe('UnexpectedHtmlReply');
  });

  it('exhausted 429s end as RateLimited', async () => {
    const { client } = await setup([{ path: '/r', status: 429, body: 'Too Many Requests' }]);
    const err = await rejection(client.fetch({ source: 'otaone', path: '/r' }));
    expect(err.detail).toBe('RateLimited');
    expect(server!.requests).toHaveLength(3);
  });
});

describe('consent redirect', () => {
  const consentRoutes: ReplayRoute[] = [
    { path: '/travel/search', match: (r) => /(^|; )SOCS=/.test(String(r.headers.cookie ?? '')), body: '<html>hotels</html>' },
    {
      path: '/travel/search',
      status: 302,
      headers: { location: 'https://consent.google.com/ml?continue=https://www.google.com/travel/search&gl=DE&hl=de&pc=trv' },
    },
  ];

  it('sets the consent cookies and retries once', async () => {
    const { client } = await setup(consentRoutes);
    const res = await client.fetch({ source: 'metasearch', path: '/travel/search', market: 'DE' });
    expect(res.text()).toBe('<html>hotels</html>');
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[0].headers.cookie).toBeUndefined();
    expect(server!.requests[1].headers.cookie).toMatch(/SOCS=CAESEwgDEgk0ODE3Nzk3MjQaAmVuIAEaBgiA_LyaBg/);
    // the jar keeps the choice: the next request goes straight through
    await client.fetch({ source: 'metasearch', path: '/travel/search' });
    expect(server!.requests).toHaveLength(3);
  });

  it('a consent wall that persists is UpstreamFailed(ConsentWall)', async () => {
    const { client } = await setup([consentRoutes[1]]);
    const err = await rejection(client.fetch({ source: 'metasearch', path: '/travel/search' }));
    expect(err.detail).toBe('ConsentWall');
    expect(server!.requests).toHaveLength(2);
  });

  it('keeps cookies the upstream sets on a redirect', async () => {
    const { client } = await setup([
      { path: '/start', status: 302, headers: { location: '/land', 'set-cookie': 'bkng_sso=abc; Path=/; HttpOnly' } },
      { path: '/land', body: 'landed' },
    ]);
    await client.fetch({ source: 'otaone', path: '/start' });
    expect(server!.requests[1].headers.cookie).toBe('bkng_sso=abc');
  });
});

describe('egress modes', () => {
  it('proxy_fallback goes direct first and through the proxy when blocked', async () => {
    proxy = await startConnectProxy();
    const { client } = await setup([{ path: '/hotel', body: '<html>rooms</html>', failFirst: [{ status: 403, body: DATADOME_PAGE }] }], {
      EGRESS_MODE: 'proxy_fallback',
      DEFAULT_PROXY_URL: proxy.url,
    });
    const res = await client.fetch({ source: 'otaone', path: '/hotel', market: 'US' });
    expect(res.text()).toBe('<html>rooms</html>');
    expect(res.egressMode).toBe('proxy_fallback');
    expect(res.attempts).toBe(2);
    expect(proxy.tunnels).toHaveLength(1);
    expect(proxy.tunnels[0].target).toBe(`127.0.0.1:${server!.port}`);
  });

  it('proxy_fallback stays direct when not blocked', async () => {
    proxy = await startConnectProxy();
    const { client } = await setup([{ path: '/hotel', body: 'ok' }], { EGRESS_MODE: 'proxy_fallback', DEFAULT_PROXY_URL: proxy.url });
    const res = await client.fetch({ source: 'otaone', path: '/hotel' });
    expect(res.egressMode).toBe('direct');
    expect(proxy.tunnels).toHaveLength(0);
  });

  it('market_proxy uses the market’s proxy with its credentials', async () => {
    proxy = await startConnectProxy();
    const withAuth = proxy.url.replace('http://', 'http://user:s3cret@');
    const { client } = await setup([{ path: '/hotel', body: 'ok' }], { EGRESS_MODE: 'market_proxy', MARKET_PROXIES: `GB=${withAuth}` });
    const res = await client.fetch({ source: 'otaone', path: '/hotel', market: 'GB' });
    expect(res.egressMode).toBe('market_proxy');
    expect(proxy.tunnels[0].proxyAuthorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    const direct = await client.fetch({ source: 'otaone', path: '/hotel', market: 'FR' });
    expect(direct.egressMode).toBe('direct');
    expect(proxy.tunnels).toHaveLength(1);
  });
});
