import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { UPSTREAM_HOSTS, resolveHosts } from '../../../src/config/hosts.js';
import { replayClient, replayPerTest } from './harness.js';

const replay = replayPerTest();

async function lastRequest(req: Parameters<ReturnType<typeof replayClient>['client']['fetch']>[0], env: Record<string, string> = {}) {
  const client = await replay.start(
    [
      { path: '/p', body: 'ok' },
      { path: '/prefix/p', body: 'ok' },
    ],
    env,
  );
  await client.fetch(req);
  return replay.server.requests[replay.server.requests.length - 1];
}

describe('device header profiles', () => {
  it('iphone sends mobile Safari headers and no client hints', async () => {
    const r = await lastRequest({ source: 'otaone', path: '/p', device: 'iphone', market: 'US' });
    expect(r.headers['user-agent']).toMatch(/iPhone; CPU iPhone OS .* Version\/[\d.]+ Mobile\/\w+ Safari\/604\.1$/);
    expect(r.headers['sec-ch-ua']).toBeUndefined();
    expect(r.headers['accept-language']).toBe('en-US,en;q=0.9');
    expect(r.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(r.headers['sec-fetch-mode']).toBe('navigate');
  });

  it('android sends mobile Chrome headers with client hints', async () => {
    const r = await lastRequest({ source: 'otaone', path: '/p', device: 'android', market: 'DE' });
    expect(r.headers['user-agent']).toMatch(/Linux; Android .* Chrome\/\d+\.0\.0\.0 Mobile Safari\/537\.36$/);
    expect(r.headers['sec-ch-ua']).toContain('"Google Chrome"');
    expect(r.headers['sec-ch-ua-mobile']).toBe('?1');
    expect(r.headers['sec-ch-ua-platform']).toBe('"Android"');
    expect(r.headers['accept-language']).toBe('de-DE,de;q=0.9,en;q=0.8');
    expect(r.headers['accept-encoding']).toBe('gzip, deflate, br, zstd');
  });

  it('desktop (the default) sends Windows Chrome headers; json requests look like XHR', async () => {
    const r = await lastRequest({ source: 'otaone', path: '/p', market: 'gb', expect: 'json' });
    expect(r.headers['user-agent']).toMatch(/Windows NT 10\.0; Win64; x64.* Chrome\/\d+/);
    expect(r.headers['sec-ch-ua-mobile']).toBe('?0');
    expect(r.headers['sec-ch-ua-platform']).toBe('"Windows"');
    expect(r.headers['accept-language']).toBe('en-GB,en;q=0.9');
    expect(r.headers.accept).toBe('application/json, text/plain, */*');
    expect(r.headers['sec-fetch-mode']).toBe('cors');
  });

  it('caller headers override the profile', async () => {
    const r = await lastRequest({ source: 'otaone', path: '/p', headers: { Accept: 'text/plain', 'X-Test': '1' } });
    expect(r.headers.accept).toBe('text/plain');
    expect(r.headers['x-test']).toBe('1');
  });

  it('builds the query, skipping undefined values', async () => {
    const r = await lastRequest({ source: 'otaone', path: '/p', query: { q: 'Hôtel Paris', adults: 2, free: true, gone: undefined } });
    expect(r.query).toEqual({ q: 'Hôtel Paris', adults: '2', free: 'true' });
  });
});

describe('upstream host table', () => {
  it('uses the override of one alias, keeping its path prefix', async () => {
    const client = await replay.start([{ path: '/prefix/p', body: 'ok' }], (url) => ({ UPSTREAM_NETWORK_URL: `${url}/prefix/` }));
    const res = await client.fetch({ source: 'network', path: '/p' });
    expect(res.url).toBe(`${replay.server.url}/prefix/p`);
  });

  it('defaults every alias to its real site and overrides per alias', () => {
    const hosts = resolveHosts({ UPSTREAM_VIDEO_URL: 'http://127.0.0.1:9999/' });
    expect(hosts.video).toBe('http://127.0.0.1:9999');
    expect(hosts.metasearch).toBe('https://www.google.com');
    expect(hosts.hostel).toBe('https://prod.apigee.hostelworld.com');
    expect(Object.keys(hosts).sort()).toEqual(Object.keys(UPSTREAM_HOSTS).sort());
    expect(loadConfig({ UPSTREAM_RENTALTWO_URL: 'http://localhost:1' }).upstreamHosts.rentaltwo).toBe('http://localhost:1');
    expect(() => loadConfig({ UPSTREAM_APPS_URL: 'ftp://example.com' })).toThrow(/UPSTREAM_APPS_URL/);
  });

  it('parses market proxies and refuses proxy modes without any proxy', () => {
    const c = loadConfig({ EGRESS_MODE: 'market_proxy', MARKET_PROXIES: 'us=http://u:p@10.0.0.1:8080, GB=socks5://10.0.0.2:1080' });
    expect(c.MARKET_PROXIES).toEqual({ US: 'http://u:p@10.0.0.1:8080', GB: 'socks5://10.0.0.2:1080' });
    expect(() => loadConfig({ EGRESS_MODE: 'proxy_fallback' })).toThrow(/needs MARKET_PROXIES or DEFAULT_PROXY_URL/);
    expect(() => loadConfig({ MARKET_PROXIES: 'US:http://x' })).toThrow(/MARKET_PROXIES/);
    expect(loadConfig({}).EGRESS_MODE).toBe('direct');
  });
});
