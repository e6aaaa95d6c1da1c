import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-12-01');

/**
 * Plain REST behaviour of every route: a wrong method is 405 with `Allow`, a body that is not JSON
 * is 415 (not an empty input), and every 502/503 names the source it came from and says whether
 * to retry (`source`, `retryable`, `retry`), on our routes and on the compatible family alike.
 */
describe('REST: methods, media types and upstream failures', () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/travel/search', query: { q: 'Down' }, status: 500, body: 'server error' },
      { path: '/travel/search', body: '<html><body><p>a page without its data</p></body></html>', headers: { 'content-type': 'text/html' } },
    ]);
    // the video alias points at a host that cannot be resolved (.invalid never resolves)
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_VIDEO_URL: 'http://video-upstream.invalid', UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  const send = async (method: string, path: string, init: { body?: string; type?: string } = {}) => {
    const headers: Record<string, string> = { 'x-api-key': key };
    if (init.type) headers['content-type'] = init.type;
    const res = await fetch(`${svc.url}${path}`, { method, headers, body: init.body });
    const text = await res.text();
    return {
      status: res.status,
      allow: res.headers.get('allow'),
      charged: res.headers.get('x-credits-charged'),
      retryAfter: res.headers.get('retry-after'),
      body: text ? JSON.parse(text) : null,
    };
  };

  it('a path of an operation with another method is 405 naming the allowed ones in Allow', async () => {
    const put = await send('PUT', '/v1/hotels/search', { body: '{}', type: 'application/json' });
    expect([put.status, put.allow, put.body]).toEqual([405, 'POST', { detail: 'method PUT not allowed on /v1/hotels/search; allowed: POST' }]);
    const del = await send('DELETE', '/v1/billing');
    expect([del.status, del.allow]).toEqual([405, 'GET, HEAD']);
    const compat = await send('POST', '/api/v1/me', { body: '{}', type: 'application/json' });
    expect([compat.status, compat.allow, compat.body.error]).toEqual([405, 'GET, HEAD', 'method POST not allowed on /api/v1/me; allowed: GET, HEAD']);
    const serp = await send('PATCH', '/v1/serp/google_hotels');
    expect([serp.status, serp.allow]).toEqual([405, 'GET, HEAD, POST']);
    // templated paths too; an unknown path stays 404
    expect((await send('POST', '/v1/jobs/job_x')).allow).toBe('GET, HEAD');
    expect((await send('PUT', '/v1/nothing-here')).status).toBe(404);
  });

  it('a body that is not JSON is 415, recorded like any refused call; an empty body is an empty input', async () => {
    const text = await send('POST', '/v1/hotels/search', { body: '{"q":"Tokyo"}', type: 'text/plain' });
    expect([text.status, text.charged, text.body]).toEqual([
      415,
      null,
      { detail: 'request body must be JSON (Content-Type: application/json), not text/plain' },
    ]);
    const form = await send('POST', '/v1/hotels/search', { body: 'q=Tokyo', type: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const compat = await send('POST', '/v1/serp/google_hotels', { body: 'q=Tokyo', type: 'text/plain;charset=utf-8' });
    expect([compat.status, compat.body.error]).toEqual([415, 'request body must be JSON (Content-Type: application/json), not text/plain;charset=utf-8']);
    const empty = await send('POST', '/v1/hotels/search', { type: 'text/plain' });
    expect([empty.status, empty.body.detail[0].loc]).toEqual([422, ['body', 'q']]);
    const [row] = await svc.deps.sql`SELECT count(*)::int AS n FROM request_history WHERE path = '/v1/hotels/search' AND status = 415`;
    expect(row.n).toBe(2);
  });

  it('502 and 503 name the source, the failure class and whether to retry, and a retryable one says when (Retry-After)', async () => {
    const down = await send('POST', '/v1/hotels/search', { body: JSON.stringify({ q: 'Down', check_in: S('2026-12-01') }), type: 'application/json' });
    expect([down.status, down.body, down.retryAfter]).toEqual([
      502,
      {
        detail: 'UpstreamHttp500',
        source: 'metasearch',
        failure: 'upstream_error',
        retryable: true,
        retry: 'retry with exponential backoff; nothing was charged',
      },
      '5',
    ]);
    const changed = await send('POST', '/v1/hotels/search', { body: JSON.stringify({ q: 'Tokyo', check_in: S('2026-12-01') }), type: 'application/json' });
    expect([changed.status, changed.retryAfter]).toEqual([503, null]);
    expect(changed.body).toMatchObject({
      source: 'metasearch',
      failure: 'contract_changed',
      retryable: false,
      retry: expect.stringMatching(/^do not retry until the service is updated: the metasearch upstream no longer/),
    });
    const unresolved = await send('POST', '/v1/video/search', { body: JSON.stringify({ q: 'test' }), type: 'application/json' });
    expect(unresolved.status).toBe(502);
    expect(unresolved.body).toMatchObject({ source: 'video', retryable: true });
    expect(unresolved.body.retry).toMatch(/^retry/);
    const compat = await send('GET', S.text('/api/v1/search?engine=google_hotels&q=Down&check_in_date=2026-12-01&check_out_date=2026-12-02'));
    expect([compat.status, compat.body.error]).toEqual([502, 'metasearch: UpstreamHttp500; retry with exponential backoff; nothing was charged']);
  });
});
