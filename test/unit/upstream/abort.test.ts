import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamFailed } from '../../../src/domain/errors.js';
import { scopeSources } from '../../../src/sources/context.js';
import { SafeFetcher } from '../../../src/upstream/safe-fetch.js';
import { upstreamScope, websiteFetch, type Upstream, type WebsiteFetch } from '../../../src/upstream/scope.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { rejection, replayClient } from './harness.js';

let server: ReplayServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await server?.close();
  server = undefined;
});

/** A sources' context holding a real upstream client and website fetcher, both pointed at a replay server whose reply takes 2 s. */
async function slowDeps(): Promise<{ upstream: Upstream; safeFetch: WebsiteFetch }> {
  server = await startReplayServer([{ path: '/slow', body: { ok: true }, delayMs: 2_000 }]);
  const { client } = replayClient(server.url);
  closers.push(() => client.close());
  const safeFetch = new SafeFetcher({ allowPrivate: true, timeoutMs: 5_000 });
  return { upstream: upstreamScope((req) => client.fetch(req)), safeFetch: websiteFetch(safeFetch) };
}

describe('scoped upstream and website fetches', () => {
  it('ends the upstream request and its retries when the signal fires; unscoped requests are untouched', async () => {
    const deps = await slowDeps();
    const abort = new AbortController();
    const scoped = scopeSources(deps, { signal: abort.signal });
    const pending = scoped.upstream.fetch({ source: 'otaone', path: '/slow', expect: 'json' });
    await waitFor(async () => server!.requests.length > 0, { what: 'the request to reach the upstream' });
    abort.abort();
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(UpstreamFailed);
    expect(err.detail).toBe('Aborted');
    expect(server!.requests).toHaveLength(1); // no retry after the abort
    const res = await deps.upstream.fetch({ source: 'otaone', path: '/slow', expect: 'json' });
    expect(res.json()).toEqual({ ok: true });
  });

  it('a scope inside a scope (a compared source inside a call) is ended by its own signal too', async () => {
    const deps = await slowDeps();
    const call = new AbortController();
    const deadline = new AbortController();
    const inner = scopeSources(scopeSources(deps, { signal: call.signal }), { signal: deadline.signal });
    const pending = inner.upstream.fetch({ source: 'otaone', path: '/slow', expect: 'json' });
    await waitFor(async () => server!.requests.length > 0, { what: 'the request to reach the upstream' });
    deadline.abort();
    expect((await rejection(pending)).detail).toBe('Aborted');
  });

  it('ends a website fetch when the signal fires', async () => {
    const deps = await slowDeps();
    const abort = new AbortController();
    const pending = scopeSources(deps, { signal: abort.signal }).safeFetch.fetch(`${server!.url}/slow`);
    abort.abort();
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(UpstreamFailed);
  });
});
