import type { IncomingHttpHeaders } from 'node:http';
import { UpstreamContractChanged } from '../platform/errors.js';
import { bodyText } from './decode.js';
import type { EgressMode } from './egress.js';
import type { Alias } from './hosts.js';

export interface UpstreamResponse {
  status: number;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Body after Content-Encoding decoding. */
  body: Buffer;
  text(): string;
  /** JSON of the body; an anti-JSON prefix such as `)]}'` is stripped. Not JSON → UpstreamContractChanged. */
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
  /** Where contract-failure diagnostics go (withContractGuard); null keeps none. */
  dataDir: string | null;
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
      try {
        return JSON.parse(getText().replace(XSSI_PREFIX, '')) as T;
      } catch {
        throw new UpstreamContractChanged(fields.source, 'reply is not JSON');
      }
    },
  };
}
