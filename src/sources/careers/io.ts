import { UpstreamBlocked, UpstreamFailed, upstreamStatusFailure } from '../../domain/errors.js';
import { detectBlock } from '../../upstream/blocked.js';
import { observed } from '../../ops/outcomes.js';
import type { SafeFetchResponse } from '../../upstream/safe-fetch.js';
import type { WebsiteFetch } from '../../upstream/scope.js';
import type { SourceUses } from '../context.js';
import { atsUrl, type AtsHostOverrides } from './hosts.js';
import type { CareersRequest } from './requests.js';

/**
 * Every careers request goes through the SSRF-safe fetcher (public addresses only, DNS checked at
 * each redirect): the company's pages and the systems' board APIs alike. Counts requests and bytes.
 */
export interface CareersIo {
  safe: WebsiteFetch;
  overrides: AtsHostOverrides | undefined;
  requests: number;
  wire_bytes: number;
}

/** ATS_HOST_OVERRIDES (host → base URL) applies to every careers request; empty in production. */
export function careersIo(deps: SourceUses<'safeFetch', 'ATS_HOST_OVERRIDES'>): CareersIo {
  const overrides = Object.keys(deps.config.ATS_HOST_OVERRIDES).length ? deps.config.ATS_HOST_OVERRIDES : undefined;
  return { safe: deps.safeFetch, overrides, requests: 0, wire_bytes: 0 };
}

async function counted(io: CareersIo, fetch: () => Promise<SafeFetchResponse>): Promise<SafeFetchResponse> {
  io.requests += 1;
  const res = await observed(null, 'careers', fetch);
  io.wire_bytes += res.wireBytes;
  return res;
}

/** A company page (the URL the caller gave, or a careers link on it). */
export function fetchCareersPage(io: CareersIo, url: string): Promise<SafeFetchResponse> {
  return counted(io, () => io.safe.fetch(atsUrl(url, io.overrides), { headers: { accept: 'text/html,application/xhtml+xml' } }));
}

/** A board API request, its host rewritten by the overrides when one matches; a block page or challenge is raised (the failure table). */
export async function fetchAts(io: CareersIo, req: CareersRequest): Promise<SafeFetchResponse> {
  const res = await counted(io, () => io.safe.fetch(atsUrl(req.url, io.overrides), { method: req.method, headers: req.headers, body: req.body }));
  const verdict = detectBlock({ status: res.status, url: res.url, headers: res.headers, body: res.body, expect: 'any' });
  if (verdict) throw new UpstreamBlocked(verdict.detail, verdict.marker);
  return res;
}

/** JSON of a board API answer; a block page is `blocked`, anything else not JSON `unusable` (502, the failure table). */
export function atsJson(res: SafeFetchResponse, what: string): unknown {
  const text = res.text();
  try {
    return JSON.parse(text);
  } catch {
    if (/^\s*</.test(text) && /captcha|challenge|access denied|just a moment/i.test(text)) throw new UpstreamFailed('BoardBlocked');
    throw new UpstreamFailed(`UnreadableReply (${what})`, 'unusable');
  }
}

/** Non-2xx statuses other than the not-found ones the caller handles: the failure table's answer. */
export function assertOk(res: SafeFetchResponse): void {
  if (res.status >= 200 && res.status < 300) return;
  throw upstreamStatusFailure(res.status, { retryAfter: res.headers['retry-after'] }) ?? new UpstreamFailed(`CareersHttp${res.status}`);
}
