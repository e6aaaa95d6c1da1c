import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged } from '../../../src/domain/errors.js';
import { DIAGNOSTICS_KEEP, keepRawReply, withContractGuard } from '../../../src/upstream/diagnostics.js';
import { makeResponse } from '../../../src/upstream/response.js';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'diag-test-'));
}

function response(dataDir: string | null, body: string) {
  return makeResponse({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: Buffer.from(body),
    wireBytes: body.length,
    url: 'https://www.booking.com/hotel/fr/x.html',
    elapsedMs: 5,
    egressMode: 'direct',
    attempts: 1,
    source: 'otaone',
    framing: 'length',
    dataDir,
  });
}

describe('diagnostics', () => {
  it('keeps a raw reply gzip-compressed with its metadata', async () => {
    const dir = tmp();
    const file = await keepRawReply(dir, 'otaone', '<html>changed</html>', { url: 'https://x/', status: 200 });
    expect(path.dirname(file)).toBe(path.join(dir, 'diagnostics', 'otaone'));
    expect(path.basename(file)).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}\.html\.gz$/);
    expect(zlib.gunzipSync(fs.readFileSync(file)).toString()).toBe('<html>changed</html>');
    const meta = JSON.parse(fs.readFileSync(file.replace(/\.html\.gz$/, '.meta.json'), 'utf8'));
    expect(meta).toMatchObject({ source: 'otaone', url: 'https://x/', status: 200 });
  });

  it('keeps only the newest files per source', async () => {
    const dir = tmp();
    for (let i = 0; i < DIAGNOSTICS_KEEP + 3; i++) await keepRawReply(dir, 'video', `r${i}`, {});
    const names = fs.readdirSync(path.join(dir, 'diagnostics', 'video'));
    expect(names.filter((n) => n.endsWith('.html.gz'))).toHaveLength(DIAGNOSTICS_KEEP);
    expect(names.filter((n) => n.endsWith('.meta.json'))).toHaveLength(DIAGNOSTICS_KEEP);
  });

  it('withContractGuard keeps the reply of a contract failure and rethrows', async () => {
    const dir = tmp();
    const err = await withContractGuard('otaone', response(dir, '<html>new layout</html>'), () => {
      throw new UpstreamContractChanged('otaone', 'room table');
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamContractChanged);
    const kept = fs.readdirSync(path.join(dir, 'diagnostics', 'otaone')).filter((n) => n.endsWith('.gz'));
    expect(kept).toHaveLength(1);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'diagnostics', 'otaone', kept[0]))).toString()).toBe('<html>new layout</html>');
  });

  it('withContractGuard returns the parse and keeps nothing for other errors', async () => {
    const dir = tmp();
    expect(await withContractGuard('otaone', response(dir, '<b>7</b>'), (r) => r.text().length)).toBe(8);
    await expect(withContractGuard('otaone', response(dir, 'x'), () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(fs.existsSync(path.join(dir, 'diagnostics'))).toBe(false);
  });

  it('a parser tripping over a reply (TypeError, a broken URL) is a contract change, kept like one', async () => {
    const dir = tmp();
    const trip = await withContractGuard('otaone', response(dir, '{"rooms":null}'), (r) => (JSON.parse(r.text()).rooms as string[]).length).catch(
      (e: unknown) => e,
    );
    expect(trip).toBeInstanceOf(UpstreamContractChanged);
    expect((trip as Error).message).toBe('otaone upstream contract changed: unreadable reply (TypeError)');
    const link = await withContractGuard('otaone', response(dir, 'http://['), (r) => new URL(r.text(), 'https://www.booking.com').href).catch(
      (e: unknown) => e,
    );
    expect(link).toBeInstanceOf(UpstreamContractChanged);
    expect(fs.readdirSync(path.join(dir, 'diagnostics', 'otaone')).filter((n) => n.endsWith('.gz'))).toHaveLength(2);
  });
});
