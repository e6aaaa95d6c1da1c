import { describe, expect, it } from 'vitest';
import { failureClassOf, UpstreamFailed } from '../../../src/domain/errors.js';
import type { ReplayRoute } from '../../replay/server.js';
import { rejection, replayPerTest } from './harness.js';

const replay = replayPerTest();

const setup = (routes: ReplayRoute[], env: Record<string, string> = {}) => replay.start(routes, env);

describe('UpstreamClient retries', () => {
  it('retries a 503 once and returns the 200 (attempts 2)', async () => {
    const client = await setup([{ path: '/hotel', body: '<html>ok</html>', failFirst: [{ status: 503, body: 'busy' }] }]);
    const res = await client.fetch({ source: 'otaone', path: '/hotel' });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(res.text()).toBe('<html>ok</html>');
    expect(res.egressMode).toBe('direct');
    expect(replay.server.requests).toHaveLength(2);
  });

  it('retries a 429 without block markers', async () => {
    const client = await setup([{ path: '/x', body: 'fine', failFirst: [{ status: 429, body: 'slow down' }] }]);
    const res = await client.fetch({ source: 'otaone', path: '/x' });
    expect(res.attempts).toBe(2);
  });

  it('retries after the socket is closed mid-request', async () => {
    const client = await setup([{ path: '/x', body: 'after close', failFirst: [{ close: true }] }]);
    const res = await client.fetch({ source: 'otaone', path: '/x' });
    expect(res.text()).toBe('after close');
    expect(res.attempts).toBe(2);
  });

  it('retries an attempt that exceeds its timeout', async () => {
    const client = await setup([{ path: '/slow', body: 'late', failFirst: [{ delayMs: 3000 }] }]);
    const res = await client.fetch({ source: 'otaone', path: '/slow', timeoutMs: 1000 });
    expect(res.text()).toBe('late');
    // the first attempt timed out and a retry answered (on a loaded machine a retry may time out too)
    expect(res.attempts).toBeGreaterThanOrEqual(2);
  });

  it("answers a 404 by the failure table without retrying: the caller's object gone (404) when the request is for it, else an upstream error", async () => {
    const client = await setup([{ path: '/gone', status: 404, body: '<html>not here</html>' }]);
    const gone = await rejection(client.fetch({ source: 'otaone', path: '/gone', notFound: 'property x not found' }));
    expect(gone).toMatchObject({ status: 404, detail: 'property x not found' });
    expect(failureClassOf(gone)).toBe('not_found');
    const moved = await rejection(client.fetch({ source: 'otaone', path: '/gone' }));
    expect(moved).toMatchObject({ status: 502, detail: 'UpstreamHttp404', failure: 'upstream_error' });
    expect(replay.server.requests).toHaveLength(2);
  });

  it('does not retry other 4xx; a status the source reads itself is returned', async () => {
    const client = await setup([{ path: '/bad', status: 400, body: '{"error":"bad"}' }]);
    const res = await client.fetch({ source: 'otaone', path: '/bad', expect: 'json', statuses: [400] });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: 'bad' });
    expect(await rejection(client.fetch({ source: 'otaone', path: '/bad', expect: 'json' }))).toMatchObject({ status: 502, detail: 'UpstreamHttp400' });
    expect(replay.server.requests).toHaveLength(2);
  });

  it("a 403 is a block (502, retryable, what was seen), a 429 a rate limit with the upstream's delay", async () => {
    const client = await setup(
      [
        { path: '/forbidden', status: 403, body: 'no' },
        { path: '/limited', status: 429, headers: { 'retry-after': '42' }, body: 'slow down' },
      ],
      { UPSTREAM_RETRIES: '0' },
    );
    const forbidden = await rejection(client.fetch({ source: 'otaone', path: '/forbidden' }));
    expect(forbidden).toMatchObject({ status: 502, retryable: true, failure: 'blocked', marker: 'status:403' });
    const limited = await rejection(client.fetch({ source: 'otaone', path: '/limited' }));
    expect(limited).toMatchObject({ status: 502, retryable: true, failure: 'rate_limited', retryAfterS: 42 });
  });

  it('throws UpstreamFailed after exhausting retries on 5xx', async () => {
    const client = await setup([{ path: '/down', status: 502, body: 'bad gateway' }]);
    const err = await rejection(client.fetch({ source: 'otaone', path: '/down' }));
    expect(err).toBeInstanceOf(UpstreamFailed);
    expect(err.detail).toBe('UpstreamHttp502');
    expect(replay.server.requests).toHaveLength(3);
  });

  it('names the network error class when the host refuses connections', async () => {
    const client = await setup([], { UPSTREAM_OTAONE_URL: 'http://127.0.0.1:1', UPSTREAM_RETRIES: '1' });
    const err = await rejection(client.fetch({ source: 'otaone', path: '/x' }));
    expect(err).toBeInstanceOf(UpstreamFailed);
    expect(err.status).toBe(502);
    expect(err.detail).toBe('ECONNREFUSED');
  });

  it('follows redirects and reports the final URL', async () => {
    const client = await setup([
      { path: '/old', status: 301, headers: { location: '/new?x=1' } },
      { path: '/new', query: { x: '1' }, body: 'moved' },
    ]);
    const res = await client.fetch({ source: 'otaone', path: '/old' });
    expect(res.text()).toBe('moved');
    expect(res.url).toBe(`${replay.server.url}/new?x=1`);
    expect(res.attempts).toBe(1);
  });

  it('sends a JSON body with content-type on POST', async () => {
    const client = await setup([{ method: 'POST', path: '/graphql', body: { data: { ok: true } } }]);
    const res = await client.fetch({ source: 'otatwo', method: 'POST', path: '/graphql', body: { query: 'q' }, expect: 'json' });
    expect(res.json<{ data: { ok: boolean } }>().data.ok).toBe(true);
    expect(replay.server.requests[0].headers['content-type']).toBe('application/json');
    expect(replay.server.requests[0].body).toBe('{"query":"q"}');
  });

  it('strips the anti-JSON prefix in json()', async () => {
    const client = await setup([{ path: '/trends/api/explore', body: ')]}\'\n{"widgets":[1,2]}', headers: { 'content-type': 'application/json' } }]);
    const res = await client.fetch({ source: 'trends', path: '/trends/api/explore', expect: 'json' });
    expect(res.json()).toEqual({ widgets: [1, 2] });
  });
});
