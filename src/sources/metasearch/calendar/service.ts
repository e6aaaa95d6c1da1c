import type { SourceUses } from '../../context.js';
import type { NormalizedCalendarRequest } from '../../../domain/calendar-request.js';
import { addDays, nightsBetween, todayUtc } from '../../../domain/dates.js';
import type { CalendarResult } from '../../../domain/calendar-result.js';
import { withContractGuard } from '../../../upstream/diagnostics.js';
import type { Upstream } from '../../../upstream/scope.js';
import type { EgressMode } from '../../../upstream/egress.js';
import { collectionId, newFetchNonce } from '../../../domain/provenance.js';
import type { RateRecord } from '../hotels/parse-property.js';
import { annotateMainstream, checkSources } from './offer-checks.js';
import { bookingWindow, calendarRow, taxProfile, validateRows, type CalendarRow } from './rows.js';
import { buildCalendarRpc, calendarWindows, parseCalendarReply, parseCalendarRpc, type CalendarWindow } from './rpc.js';
import { declaresOtherCharset } from '../../../upstream/decode.js';

/** Windows fetched at once per calendar; a 330-night horizon is 11 windows. */
const PARALLEL_WINDOWS = 4;
/** Minimum-stay probe levels beyond the requested length of stay. */
const PROBE_LEVELS = 2;

interface Fetched {
  rates: Map<string, RateRecord>;
  wireBytes: number;
  egressMode: EgressMode;
}

async function inBatches<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

async function fetchWindow(upstream: Upstream, r: NormalizedCalendarRequest, window: CalendarWindow, los: number): Promise<Fetched> {
  const rpc = buildCalendarRpc({ token: r.token, window, los, adults: r.adults, currency: r.currency, gl: r.gl, hl: 'en' });
  const res = await upstream.fetch({
    source: 'metasearch',
    method: 'POST',
    path: rpc.path,
    query: rpc.query,
    headers: rpc.headers,
    body: rpc.body,
    device: 'desktop',
    market: r.gl,
    expect: 'any',
  });
  // a UTF-8 reply is parsed from its bytes, without decoding it whole first (rpcPayloadOfBytes)
  const rates = await withContractGuard('metasearch', res, () =>
    declaresOtherCharset(res.headers['content-type']) ? parseCalendarRpc(res.text(), los) : parseCalendarReply(res.body, los),
  );
  return { rates, wireBytes: res.wireBytes, egressMode: res.egressMode };
}

async function fetchAll(upstream: Upstream, r: NormalizedCalendarRequest, windows: CalendarWindow[], los: number): Promise<Fetched> {
  const parts = await inBatches(windows, PARALLEL_WINDOWS, (w) => fetchWindow(upstream, r, w, los));
  const rates = new Map<string, RateRecord>();
  for (const p of parts) for (const [d, rate] of p.rates) rates.set(d, rate);
  const proxied = parts.find((p) => p.egressMode !== 'direct');
  return { rates, wireBytes: parts.reduce((n, p) => n + p.wireBytes, 0), egressMode: proxied?.egressMode ?? 'direct' };
}

/** Smallest windows covering the given dates (sorted), at most WINDOW_DAYS each. */
function windowsCovering(dates: string[]): CalendarWindow[] {
  const first = dates[0];
  const last = dates.at(-1);
  if (first === undefined || last === undefined) return [];
  const span = nightsBetween(first, last) + 1;
  return calendarWindows(first, span).filter((w) => dates.some((d) => d >= w.first && d <= w.last));
}

/**
 * The price calendar of one property: every check-in date of the horizon at the requested
 * length of stay, one RPC per month in parallel; nights that do not price as asked are
 * re-asked at longer stays when `probe_min_stay` (the upstream answers minimum-stay nights
 * exactly like sold-out ones). `deps`: the calling operation's scope (an API call, a batch item).
 */
export async function collectCalendar(deps: SourceUses<'upstream'>, r: NormalizedCalendarRequest): Promise<CalendarResult> {
  const { upstream } = deps;
  const started = performance.now();
  const dates = Array.from({ length: r.days }, (_, i) => addDays(r.start, i));
  const first = await fetchAll(upstream, r, calendarWindows(r.start, r.days), r.los);
  const calendarElapsed = (performance.now() - started) / 1000;
  const observedAt = new Date();
  let wireBytes = first.wireBytes;
  let egressMode = first.egressMode;
  const probed = new Map<string, { rate: RateRecord; los: number }>();
  if (r.probe_min_stay) {
    for (let level = 1; level <= PROBE_LEVELS && r.los + level <= 30; level++) {
      const missing = dates.filter((d) => !first.rates.has(d) && !probed.has(d));
      if (!missing.length) break;
      const more = await fetchAll(upstream, r, windowsCovering(missing), r.los + level);
      wireBytes += more.wireBytes;
      if (more.egressMode !== 'direct') egressMode = more.egressMode;
      for (const d of missing) {
        const rate = more.rates.get(d);
        if (rate) probed.set(d, { rate, los: r.los + level });
      }
    }
  }
  const ctx = { request: r, collectionId: collectionId('metasearch', newFetchNonce()), observedAt, egressMode };
  const rates: CalendarRow[] = [];
  for (const d of dates) {
    const direct = first.rates.get(d);
    if (direct) rates.push(calendarRow(d, direct, ctx));
    else {
      const p = probed.get(d);
      if (p) rates.push(calendarRow(d, p.rate, ctx, p.los));
    }
  }
  const extra: Partial<CalendarResult> = {};
  if (r.basis === 'mainstream') {
    const m = await annotateMainstream(deps, r, rates);
    wireBytes += m.wireBytes;
    extra.basis_applied = m.basisApplied;
  }
  if (r.verify_sources > 0) {
    const c = await checkSources(deps, r, rates);
    wireBytes += c.wireBytes;
    extra.source_check = c.sourceCheck;
  }
  const priced = new Set(rates.map((row) => row.date));
  const window = bookingWindow(rates, r, todayUtc(observedAt));
  return {
    token: r.token,
    collection_id: ctx.collectionId,
    observed_at: observedAt.toISOString(),
    market: r.market,
    requested_days: r.days,
    coverage: Math.round((rates.length / r.days) * 10_000) / 10_000,
    wire_bytes: wireBytes,
    elapsed_s: Math.round(performance.now() - started) / 1000,
    calendar_elapsed_s: Math.round(calendarElapsed * 1000) / 1000,
    egress_mode: egressMode,
    tax_profile: taxProfile(rates, r),
    unpriced_dates: dates.filter((d) => !priced.has(d)),
    validation: validateRows(rates, r.currency),
    ...(window ? { booking_window: window } : {}),
    ...extra,
    rates,
  };
}
