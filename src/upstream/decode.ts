import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { TRUNCATED, UpstreamFailed } from '../domain/errors.js';

/** Detail of a reply whose transfer or compressed stream ended early (the table's `unusable` class, never a contract change). */
export { TRUNCATED };

/**
 * Decodes a body by its Content-Encoding (possibly a list, applied in order). Output is capped
 * so a small hostile reply cannot expand into gigabytes.
 */
export function decodeBody(raw: Buffer, contentEncoding: string | undefined, maxBytes: number): Buffer {
  if (!contentEncoding || raw.length === 0) return raw;
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  let body = raw;
  for (const coding of codings.reverse()) body = decodeOne(body, coding, maxBytes);
  return body;
}

function decodeOne(body: Buffer, coding: string, maxBytes: number): Buffer {
  const opts = { maxOutputLength: maxBytes };
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.gunzipSync(body, opts);
      case 'br':
        return zlib.brotliDecompressSync(body, { maxOutputLength: maxBytes });
      case 'deflate':
        // Servers send both zlib-wrapped and raw deflate under this name.
        return body[0] === 0x78 ? zlib.inflateSync(body, opts) : zlib.inflateRawSync(body, opts);
      case 'zstd': {
        const out = Buffer.from(zstdDecompress(body));
        if (out.length > maxBytes) throw new UpstreamFailed('ReplyTooLarge');
        return out;
      }
      default:
        throw new UpstreamFailed('UnsupportedContentEncoding');
    }
  } catch (err) {
    if (err instanceof UpstreamFailed) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new UpstreamFailed('ReplyTooLarge');
    // zlib's "unexpected end of file", fzstd's "unexpected EOF": the stream stopped before its end marker
    if (code === 'Z_BUF_ERROR' || /unexpected (end of file|EOF)/i.test((err as Error).message ?? '')) throw new UpstreamFailed(TRUNCATED);
    throw new UpstreamFailed('ContentDecodingError');
  }
}

const charsetOf = (contentType: string | undefined) => /charset="?([\w-]+)/i.exec(contentType ?? '')?.[1];

/** Whether a Content-Type names a charset other than UTF-8 (absent means UTF-8 here, as in bodyText). */
export function declaresOtherCharset(contentType: string | undefined): boolean {
  const charset = charsetOf(contentType);
  return charset !== undefined && !/^utf-?8$/i.test(charset);
}

/** Text of a body using the charset of its Content-Type, UTF-8 when absent or unknown. */
export function bodyText(body: Buffer, contentType: string | undefined): string {
  const charset = charsetOf(contentType);
  if (charset && !/^utf-?8$/i.test(charset)) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // unknown label: fall through to UTF-8
    }
  }
  return body.toString('utf8');
}

/** Reads a reply body, failing with ReplyTooLarge past `max` bytes (checked on Content-Length first). */
export async function readCapped(stream: Readable, max: number, contentLength?: string | string[]): Promise<Buffer> {
  if (typeof contentLength === 'string' && Number(contentLength) > max) {
    stream.destroy();
    throw new UpstreamFailed('ReplyTooLarge');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > max) {
      stream.destroy();
      throw new UpstreamFailed('ReplyTooLarge');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
