import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafeFetcher } from '../../../src/upstream/safe-fetch.js';
import { websiteFetch } from '../../../src/upstream/scope.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * Routes that fetch a URL the caller names (careers pages, hotel websites) reach public
 * addresses only: loopback, private, link-local, cloud metadata and IPv6 loopback are refused,
 * before any connection and at every redirect. The service runs without the test-only flag.
 */
const REFUSED = [
  'http://127.0.0.1:8080/careers',
  'http://10.0.0.5/careers',
  'http://192.168.1.20/careers',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/careers',
  'http://[::ffff:127.0.0.1]/careers',
  'http://localhost/careers',
];

let svc: TestService;
let key: string;
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer([
    { path: '/jobs', status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
    { path: '/hotel', status: 301, headers: { location: 'http://10.1.2.3/book' } },
  ]);
  svc = await startTestService({ UPSTREAM_RETRIES: '0' });
  key = (await svc.key()).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

describe('SSRF refusal on routes that fetch caller-named URLs', () => {
  it.each(REFUSED)('careers detect and jobs refuse %s, free', async (url) => {
    for (const path of ['/v1/careers/detect', '/v1/careers/jobs']) {
      const res = await svc.call(path, { key, body: { url } });
      expect([400, 422], `${path} ${url}`).toContain(res.status);
      expect(res.headers.get('x-credits-charged') ?? '0').toBe('0');
    }
  });

  it.each(REFUSED)('the official-site rate refuses %s', async (url) => {
    const res = await svc.call('/v1/official', { key, body: { website: url, check_in: '2027-05-01' } });
    expect([400, 422]).toContain(res.status);
    expect(res.headers.get('x-credits-charged')).toBe('0');
  });

  it('a redirect into private space or the metadata address is refused at the hop', async () => {
    // Only the replay server's own address is let through, to reach the first hop.
    svc.deps.safeFetch = websiteFetch(new SafeFetcher({ allowAddresses: ['127.0.0.1'], timeoutMs: 5000 }));
    const careers = await svc.call('/v1/careers/detect', { key, body: { url: `${replay.url}/jobs` } });
    expect(careers.status).toBe(502);
    expect(((await careers.json()) as any).detail).toMatch(/UnsafeRedirect/);
    const official = await svc.call('/v1/official', { key, body: { website: `${replay.url}/hotel`, check_in: '2027-05-01' } });
    expect(official.status).toBe(502);
    expect(replay.requests.map((r) => r.path).sort()).toEqual(['/hotel', '/jobs']);
  });
});
