/**
 * What the engine quotes share: the offer fields an engine leaves unstated unless its reply says
 * them (no fees, no statement on tax inclusion, refundability or terms, no remarks, no deep link;
 * an engine overrides only what its reply or its documented link format states), and the reading
 * of replies common to them.
 */
import { UpstreamFailed } from '../../domain/errors.js';
import type { EngineRoomOffer } from './engine-types.js';

export const UNSTATED: Pick<EngineRoomOffer, 'fees' | 'taxes_and_fees_included' | 'refundable' | 'cancellation_policy' | 'discount_remarks' | 'booking_url'> =
  Object.freeze({
    fees: null,
    taxes_and_fees_included: null,
    refundable: null,
    cancellation_policy: null,
    discount_remarks: [],
    booking_url: null,
  });

/** Terms text as an answer carries it: tags and runs of blank space removed, at most 500 characters. */
export function termsText(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw
    .replace(/<\/(p|li|div)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? (text.length > 500 ? `${text.slice(0, 497)}...` : text) : null;
}

/**
 * An engine reply's JSON. Text that is not JSON at all is no reply of the expected kind: `unusable`
 * (502) by the failure table, not a changed contract; JSON of another shape is the parser's to call
 * a contract change.
 */
export function engineJson(body: string, engine: string, what: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new UpstreamFailed(`UnreadableReply (${engine} ${what})`, 'unusable');
  }
}

/** A request-shaped refusal (400, 422: the only error statuses engine-call.ts passes on) the quote cannot read: 502 `EngineHttp<status>`. */
export function assertEngineOk(reply: { status: number }): void {
  if (reply.status >= 400) throw new UpstreamFailed(`EngineHttp${reply.status}`, 'upstream_error');
}

/** The text of a `{ "en-US": "…", "de-DE": "…" }` map in the asked language, else English, else any. */
export function localizedText(map: unknown, language: string): string | null {
  if (typeof map === 'string') return map.trim() || null;
  if (!map || typeof map !== 'object') return null;
  const entries = Object.entries(map as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '');
  const lang = language.toLowerCase();
  const pick =
    entries.find(([k]) => k.toLowerCase() === lang || k.toLowerCase().startsWith(`${lang}-`)) ??
    entries.find(([k]) => k.toLowerCase().startsWith('en')) ??
    entries[0];
  return pick ? pick[1].trim() : null;
}
