/** Small pieces of one plain HTTP exchange: the request body's encoding, a failure's name, how a reply's end was marked. */
import type { Framing } from './response.js';

const NOT_RETRYABLE_CODES = new Set(['ENOTFOUND', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_URL']);

export interface EncodedBody {
  data: string;
  contentType: string;
}

/** A request body as sent: a string as text, an object as JSON. */
export function encodeBody(body: string | object | undefined): EncodedBody | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return { data: body, contentType: 'text/plain;charset=UTF-8' };
  return { data: JSON.stringify(body), contentType: 'application/json' };
}

/** Short class-like name of a network failure: the undici error class, else the system error code. */
export function errorName(err: unknown): string {
  const e = err as { name?: string; code?: string; cause?: unknown } | null;
  if (!e) return 'NetworkError';
  if (e.name && e.name !== 'Error' && e.name !== 'TypeError') return e.name;
  if (e.code) return e.code;
  if (e.cause) return errorName(e.cause);
  return 'NetworkError';
}

/** How the reply's end was marked: only a length or a chunked terminator proves it arrived whole. */
export function framingOf(headers: Record<string, string>): Framing {
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return 'chunked';
  return headers['content-length'] !== undefined ? 'length' : 'close';
}

/** Whether a network failure may pass on a retry (a name that does not resolve will not). */
export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return !(code && NOT_RETRYABLE_CODES.has(code));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
