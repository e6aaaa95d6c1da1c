import type { IncomingHttpHeaders } from 'node:http';
import { UNREADABLE, UpstreamFailed } from '../domain/errors.js';
import { bodyText, TRUNCATED } from './decode.js';
import type { EgressMode } from './egress.js';
import type { Alias } from '../config/hosts.js';
import type { ReplyOwner } from './session.js';
import type { Expect } from './devices.js';

/** How the reply's end was marked: by Content-Length, by the chunked terminator, or only by the connection closing. */
export type Framing = 'length' | 'chunked' | 'close';

export interface UpstreamResponse {
  status: number;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Body after Content-Encoding decoding. */
  body: Buffer;
  text(): string;
  /** JSON of the body; an anti-JSON prefix such as `)]}'` is stripped. Cut → TruncatedReply, not JSON at all → UnreadableReply (502). */
  json<T = unknown>(): T;
  /** Bytes of the final reply's body as received on the wire, before decoding. */
  wireBytes: number;
  /** Final URL after redirects. */
  url: string;
  elapsedMs: number;
  egressMode: EgressMode;
  /** Attempts made, over retries and the proxy fallback. */
  attempts: number;
  source: Alias;
  /** A close-delimited reply may have been cut without any error; the others arrived whole. */
  framing: Framing;
  /** Where contract-failure diagnostics go (withContractGuard); null keeps none (zero_retention, tests). */
  dataDir: string | null;
  /** Written beside a kept raw reply. */
  owner?: ReplyOwner | null;
  /** The kind of reply the request expected (UpstreamRequest.expect); absent: not known. */
  expect?: Expect;
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

const XSSI_PREFIX = /^\)\]\}'[,]?\s*/;

export function makeResponse(fields: Omit<UpstreamResponse, 'text' | 'json'>): UpstreamResponse {
  let text: string | undefined;
  const getText = (): string => (text ??= bodyText(fields.body, fields.headers['content-type']));
  return {
    ...fields,
    text: getText,
    json<T>(): T {
      const text = getText().replace(XSSI_PREFIX, '');
      try {
        return JSON.parse(text) as T;
      } catch (err) {
        if (jsonEndsEarly(text, err)) throw new UpstreamFailed(TRUNCATED);
        // not a reply of the expected kind (garbage, an error text): the failure table's `unusable`
        throw new UpstreamFailed(UNREADABLE, 'unusable');
      }
    },
  };
}

/** JSON that stops mid-document: the reply was cut, its shape is not what changed. */
function jsonEndsEarly(text: string, err: unknown): boolean {
  const trimmed = text.trimEnd();
  if (!/^\s*[[{]/.test(trimmed)) return false;
  const message = (err as Error).message ?? '';
  if (/Unexpected end of JSON input|Unterminated string/.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at !== null && Number(at[1]) >= trimmed.length;
}

/**
 * Whether a reply looks cut rather than changed: JSON that stops mid-document, or an HTML page
 * without its end whose transfer was only ended by the connection closing (nothing else proves it whole).
 */
export function textLooksCut(body: string, framing: Framing): boolean {
  const text = body.replace(XSSI_PREFIX, '');
  if (/^\s*[[{]/.test(text)) {
    try {
      JSON.parse(text);
      return false;
    } catch (err) {
      return jsonEndsEarly(text, err);
    }
  }
  return framing === 'close' && /<html[\s>]/i.test(text) && !/<\/html\s*>/i.test(text.slice(-4096));
}

export function looksTruncated(response: UpstreamResponse): boolean {
  return textLooksCut(response.text(), response.framing);
}

/**
 * Whether a reply is of the kind its request expected, so that failing to read it is a contract
 * change: markup for 'html', a JSON document for 'json' (its `)]}'` prefix allowed). Garbage, an
 * error text or binary is not; 'any' (or unknown) cannot tell and counts as expected.
 */
export function ofExpectedKind(response: Pick<UpstreamResponse, 'expect' | 'text'>): boolean {
  if (response.expect === 'html') return /^[\s\ufeff]*</.test(response.text().slice(0, 4096));
  if (response.expect !== 'json') return true;
  try {
    JSON.parse(response.text().replace(XSSI_PREFIX, ''));
    return true;
  } catch {
    return false;
  }
}
