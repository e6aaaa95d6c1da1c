import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged, UpstreamFailed } from '../../../src/domain/errors.js';
import { withContractGuard } from '../../../src/upstream/diagnostics.js';
import type { ReplayCut, ReplayRoute } from '../../replay/server.js';
import { rejection, replayPerTest } from './harness.js';

const replay = replayPerTest();

const JSON_BODY = { rooms: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `Room ${i}`, price: 100 + i })) };
const JSON_LENGTH = Buffer.byteLength(JSON.stringify(JSON_BODY));
const PAGE = `<html><body>${'<div class="room">Double room 129 €</div>'.repeat(400)}</body></html>`;

const client = (routes: ReplayRoute[], retries = '0') => replay.start(routes, { UPSTREAM_RETRIES: retries });

describe('a transfer cut mid-way is an upstream failure (502, retried), never a contract change', () => {
  const cuts: [string, Partial<ReplayRoute> & { cut: ReplayCut }][] = [
    ['short body under a Content-Length', { body: JSON_BODY, cut: { at: 3000 } }],
    ['socket reset mid-body', { body: JSON_BODY, cut: { at: 3000, end: 'reset' } }],
    ['chunked body without its last chunk', { body: JSON_BODY, cut: { at: 3000, framing: 'chunked' } }],
    ['gzip stream cut (the transfer itself looks whole)', { body: JSON_BODY, encoding: 'gzip', cut: { at: 400, framing: 'close' } }],
    ['zstd stream cut', { body: JSON_BODY, encoding: 'zstd', cut: { at: 3000, framing: 'close' } }],
    ['br stream cut', { body: JSON_BODY, encoding: 'br', cut: { at: 200, framing: 'close' } }],
    ['JSON ended by the connection closing mid-document', { body: JSON_BODY, cut: { at: 3000, framing: 'close' } }],
    ['HTML page ended by the connection closing before </html>', { body: PAGE, cut: { at: 3000, framing: 'close' } }],
  ];
  for (const [name, route] of cuts) {
    it(name, async () => {
      const c = await client([{ path: '/cut', ...route }], '1');
      const err = await rejection(c.fetch({ source: 'otaone', path: '/cut', expect: 'any' }));
      expect(err).toBeInstanceOf(UpstreamFailed);
      expect(err.status).toBe(502);
      expect(err.retryable).toBe(true);
      expect(replay.server.requests).toHaveLength(2); // retried like any network failure
    });
  }

  it('a cut followed by a whole reply succeeds on the retry', async () => {
    const c = await client([{ path: '/once', body: JSON_BODY, failFirst: [{ cut: { at: 2000, end: 'reset' } }] }], '1');
    const res = await c.fetch({ source: 'otaone', path: '/once', expect: 'json' });
    expect(res.json()).toEqual(JSON_BODY);
    expect(res.attempts).toBe(2);
  });

  it('a whole reply ended by the connection closing is accepted (its end proves nothing, its content does)', async () => {
    const c = await client([{ path: '/whole', body: JSON_BODY, cut: { at: JSON_LENGTH, framing: 'close' } }]);
    const res = await c.fetch({ source: 'otaone', path: '/whole', expect: 'json' });
    expect(res.framing).toBe('close');
    expect(res.json()).toEqual(JSON_BODY);
  });

  it('JSON that stops mid-document inside a whole transfer is cut too; a whole reply of another shape is the contract change', async () => {
    const text = JSON.stringify(JSON_BODY);
    const c = await client([
      { path: '/half', body: text.slice(0, 2000), headers: { 'content-type': 'application/json' } },
      { path: '/other', body: { error: 'moved' } },
      { path: '/html', body: '<html><body>no grid here</body></html>' },
    ]);
    const half = await c.fetch({ source: 'otaone', path: '/half', expect: 'json' });
    expect(() => half.json()).toThrow(UpstreamFailed);
    const parse = (r: typeof half) => {
      const v = r.json<{ rooms?: unknown }>();
      if (!v.rooms) throw new UpstreamContractChanged('otaone', 'rooms missing');
      return v;
    };
    expect(await rejection(withContractGuard('otaone', await c.fetch({ source: 'otaone', path: '/other', expect: 'json' }), parse))).toBeInstanceOf(
      UpstreamContractChanged,
    );
    const page = await c.fetch({ source: 'otaone', path: '/html' });
    const guarded = await rejection(
      withContractGuard('otaone', page, () => {
        throw new UpstreamContractChanged('otaone', 'grid missing');
      }),
    );
    expect(guarded).toBeInstanceOf(UpstreamContractChanged);
    expect(guarded.status).toBe(503);
  });
});
