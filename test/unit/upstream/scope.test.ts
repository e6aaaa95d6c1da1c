import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamTap } from '../../../src/core/compat/capture.js';
import { DependencyDown } from '../../../src/domain/errors.js';
import { NO_QUEUE } from '../../../src/jobs/job-queue.js';
import { upstreamScope, type Upstream } from '../../../src/upstream/scope.js';
import { newUpstreamSession } from '../../../src/upstream/session.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { replayClient } from './harness.js';

let server: ReplayServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await server?.close();
  server = undefined;
});

/** The real client on a replay server whose /login sets a cookie and whose /page shows what came back. */
async function cookieUpstream(): Promise<Upstream> {
  server = await startReplayServer([
    { path: '/login', headers: { 'set-cookie': 'sid=abc; Path=/' }, body: { ok: true } },
    { path: '/page', body: { ok: true } },
  ]);
  const { client } = replayClient(server.url);
  closers.push(() => client.close());
  return upstreamScope((req) => client.fetch(req));
}

const cookieOf = (n: number) => server!.requests.filter((r) => r.path === '/page')[n]?.headers.cookie ?? null;

describe('upstream scopes', () => {
  it("a scope's requests share its session's cookies; another scope, or none, sees none of them", async () => {
    const upstream = await cookieUpstream();
    const call = upstream.scoped({ session: newUpstreamSession() });
    await call.fetch({ source: 'otaone', path: '/login', expect: 'json' });
    await call.fetch({ source: 'otaone', path: '/page', expect: 'json' });
    await upstream.scoped({ session: newUpstreamSession() }).fetch({ source: 'otaone', path: '/page', expect: 'json' });
    await upstream.fetch({ source: 'otaone', path: '/page', expect: 'json' });
    expect([cookieOf(0), cookieOf(1), cookieOf(2)]).toEqual(['sid=abc', null, null]);
  });

  it('a narrower scope keeps the enclosing session unless it brings its own, and names the one it uses', async () => {
    const upstream = await cookieUpstream();
    const session = newUpstreamSession();
    const call = upstream.scoped({ session });
    await call.fetch({ source: 'otaone', path: '/login', expect: 'json' });
    const deadline = call.scoped({ signal: new AbortController().signal });
    expect(deadline.session).toBe(session);
    await deadline.fetch({ source: 'otaone', path: '/page', expect: 'json' });
    const own = call.scoped({ session: newUpstreamSession() });
    expect(own.session).not.toBe(session);
    await own.fetch({ source: 'otaone', path: '/page', expect: 'json' });
    expect([cookieOf(0), cookieOf(1)]).toEqual(['sid=abc', null]);
    expect(upstream.session).toBeNull();
  });

  it("the compatible search's tap sees the requests of scopes made inside the tapped one", async () => {
    const upstream = await cookieUpstream();
    const tap = new UpstreamTap();
    const tapped = tap.around(upstream.scoped({ session: newUpstreamSession() }));
    await tapped.fetch({ source: 'otaone', path: '/login', expect: 'json' });
    await tapped.scoped({ signal: new AbortController().signal }).fetch({ source: 'otaone', path: '/page', expect: 'json' });
    expect(tap.replies.map((r) => new URL(r.url).pathname)).toEqual(['/login', '/page']);
    expect(cookieOf(0)).toBe('sid=abc');
  });
});

describe('a process without a queue', () => {
  it('answers a submission with 503 and queues nothing', () => {
    expect(NO_QUEUE.running).toBe(false);
    expect(() => NO_QUEUE.boss()).toThrow(DependencyDown);
    expect(() => NO_QUEUE.wake()).not.toThrow();
  });
});
