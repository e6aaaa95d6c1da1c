import { afterEach, describe, expect, it } from 'vitest';
import { BadRequest, UpstreamFailed } from '../../../src/domain/errors.js';
import { isPublicAddress } from '../../../src/upstream/ip-ranges.js';
import { SafeFetcher } from '../../../src/upstream/safe-fetch.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { rejection } from './harness.js';

let server: ReplayServer | undefined;
let fetcher: SafeFetcher | undefined;
afterEach(async () => {
  await fetcher?.close();
  await server?.close();
  fetcher = server = undefined;
});

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local, shared, multicast and reserved ranges', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.1.1',
      '0.0.0.0',
      '224.0.0.251',
      '255.255.255.255',
      '198.18.0.1',
      '192.0.2.10',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of [
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('accepts global unicast, including public IPv4 behind IPv6 forms', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
    expect(isPublicAddress('example.com')).toBe(false);
  });
});

describe('SafeFetcher refusals', () => {
  it.each([
    'http://127.0.0.1/',
    'http://10.1.2.3/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://2130706433/', // 127.0.0.1 written as one number
    'http://0x7f.1/',
  ])('refuses %s before connecting', async (url) => {
    fetcher = new SafeFetcher();
    const err = await rejection(fetcher.fetch(url));
    expect(err).toBeInstanceOf(BadRequest);
    expect(err.detail).toMatch(/not a public address/);
  });

  it('refuses a host name that resolves to loopback (checked in the socket lookup)', async () => {
    server = await startReplayServer([{ path: '/', body: 'secret' }]);
    fetcher = new SafeFetcher();
    const err = await rejection(fetcher.fetch(`http://localhost:${server.port}/`));
    expect(err).toBeInstanceOf(BadRequest);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses other schemes and credentials', async () => {
    fetcher = new SafeFetcher();
    expect((await rejection(fetcher.fetch('file:///etc/passwd'))).detail).toBe('url must use http or https');
    expect((await rejection(fetcher.fetch('ftp://example.com/'))).detail).toBe('url must use http or https');
    expect((await rejection(fetcher.fetch('http://u:p@example.com/'))).detail).toBe('url must not carry credentials');
    expect(await rejection(fetcher.fetch('not a url'))).toBeInstanceOf(BadRequest);
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:10.0.0.1]/', 'http://10.0.0.8:8080/', 'http://0xa000001/', 'file:///etc/passwd'])(
    'refuses a redirect into private space (%s)',
    async (target) => {
      server = await startReplayServer([{ path: '/careers', status: 302, headers: { location: target } }]);
      fetcher = new SafeFetcher({ allowAddresses: ['127.0.0.1'] });
      const err = await rejection(fetcher.fetch(`${server.url}/careers`));
      expect(err).toBeInstanceOf(UpstreamFailed);
      expect(err.detail).toBe('UnsafeRedirect');
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe('SafeFetcher with the replay server (allowPrivate, test only)', () => {
  it('follows redirects, keeps cookies and decodes', async () => {
    server = await startReplayServer([
      { path: '/', status: 301, headers: { location: '/jobs', 'set-cookie': 'sid=1; Path=/' } },
      { path: '/jobs', body: '<html>Open roles</html>', encoding: 'gzip' },
    ]);
    fetcher = new SafeFetcher({ allowPrivate: true });
    const res = await fetcher.fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe('<html>Open roles</html>');
    expect(res.url).toBe(`${server.url}/jobs`);
    expect(res.redirects).toEqual([`${server.url}/`]);
    expect(server.requests[1].headers.cookie).toBe('sid=1');
  });

  it('a Location that is no URL is a failed upstream (502), not a fault', async () => {
    server = await startReplayServer([{ path: '/moved', status: 302, headers: { location: 'http://[' } }]);
    fetcher = new SafeFetcher({ allowPrivate: true });
    const err = await rejection(fetcher.fetch(`${server.url}/moved`));
    expect(err).toBeInstanceOf(UpstreamFailed);
    expect(err.detail).toBe('BadRedirect');
  });

  it('stops after 5 redirects', async () => {
    server = await startReplayServer(Array.from({ length: 7 }, (_, i) => ({ path: `/r${i}`, status: 302, headers: { location: `/r${i + 1}` } })));
    fetcher = new SafeFetcher({ allowPrivate: true });
    const err = await rejection(fetcher.fetch(`${server.url}/r0`));
    expect(err.detail).toBe('TooManyRedirects');
    expect(server.requests).toHaveLength(6);
  });

  it('caps the body size', async () => {
    server = await startReplayServer([{ path: '/big', body: 'x'.repeat(10_000) }]);
    fetcher = new SafeFetcher({ allowPrivate: true, maxBytes: 1_000 });
    expect((await rejection(fetcher.fetch(`${server.url}/big`))).detail).toBe('ReplyTooLarge');
  });

  it('returns error statuses to the caller', async () => {
    server = await startReplayServer([{ path: '/missing', status: 404, body: 'nope' }]);
    fetcher = new SafeFetcher({ allowPrivate: true });
    expect((await fetcher.fetch(`${server.url}/missing`)).status).toBe(404);
  });
});
