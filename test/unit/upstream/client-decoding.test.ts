import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixturePath, fixtureSuite, readFixture } from '../../helpers/fixtures.js';
import type { ReplayRoute } from '../../replay/server.js';
import { replayPerTest } from './harness.js';

const replay = replayPerTest();

async function fetchWith(route: ReplayRoute) {
  const client = await replay.start([route]);
  return client.fetch({ source: 'otaone', path: route.path });
}

const PAGE = '<html><body>' + 'Hôtel de la Gare — 129 € '.repeat(400) + '</body></html>';

describe('UpstreamClient content decoding', () => {
  it('decodes gzip; wireBytes is the compressed length', async () => {
    const res = await fetchWith({ path: '/g', body: PAGE, encoding: 'gzip' });
    expect(res.text()).toBe(PAGE);
    expect(res.wireBytes).toBe(zlib.gzipSync(Buffer.from(PAGE)).length);
    expect(res.wireBytes).toBeLessThan(res.body.length);
  });

  it('decodes br', async () => {
    const res = await fetchWith({ path: '/b', body: PAGE, encoding: 'br' });
    expect(res.text()).toBe(PAGE);
    expect(res.wireBytes).toBe(zlib.brotliCompressSync(Buffer.from(PAGE)).length);
  });

  it('decodes deflate', async () => {
    const res = await fetchWith({ path: '/d', body: PAGE, encoding: 'deflate' });
    expect(res.text()).toBe(PAGE);
  });

  it('decodes zstd', async () => {
    const res = await fetchWith({ path: '/z', body: PAGE, encoding: 'zstd' });
    expect(res.text()).toBe(PAGE);
    expect(res.headers['content-encoding']).toBe('zstd');
  });

  it('leaves identity bodies alone', async () => {
    const res = await fetchWith({ path: '/i', body: PAGE });
    expect(res.wireBytes).toBe(Buffer.byteLength(PAGE));
    expect(res.text()).toBe(PAGE);
  });
});

const rel = 'google-flights/results-nonstop-sfo_jfk_economy.html.zst';
const suite = fixtureSuite('UpstreamClient zstd on a recorded page', rel);
describe(suite.title, () => {
  it('decodes a real zstd-compressed page served as-is', async () => {
    const res = await fetchWith({ path: '/travel/flights', fixture: rel, encoding: 'zstd' });
    const expected = readFixture(rel);
    expect(res.wireBytes).toBe(fs.statSync(fixturePath(rel)).size);
    expect(res.body.length).toBe(Buffer.byteLength(expected));
    expect(res.text()).toBe(expected);
    expect(res.text()).toContain('<html');
  });
});
