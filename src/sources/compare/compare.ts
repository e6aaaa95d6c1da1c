/**
 * `POST /v1/ota/compare`: one stay on the official site and on every OTA the caller identifies,
 * fetched in parallel (the call lasts as long as its slowest source, at most `timeout_s`). Each source is reduced to
 * its cheapest offer with that offer's own provenance; a failing source is reported with its
 * status and detail while the others are still returned; when every source failed the comparison
 * is a failure (EverySourceFailed: 502, free, each source's reason). The cheapest total is marked among
 * offers in one comparison currency (the requested one when priced, else the most common).
 * The compared sources are the registry's (each source's `compare`, in its folder): this file
 * names none of them.
 */
import { ApiError, EverySourceFailed, toApiError } from '../../domain/errors.js';
import { stayParity, type OfficialStatement } from '../../domain/parity.js';
import { scopeSources } from '../context.js';
import { COMPARED } from '../registry.js';
import { seconds } from '../shared/observation.js';
import { stayWindow } from '../shared/stay.js';
import { lowest, type CompareContext, type CompareInput, type Runner, type SourceMatch, type SourceOffer, type SourceResult } from './offer.js';

/** A runner per source the caller named, in the registry's order. */
function runners(input: CompareInput): [string, Runner][] {
  return COMPARED.flatMap(([alias, entry]) => (input.sources[alias] ? [[alias, entry.runner(input.sources[alias], input)] as [string, Runner]] : []));
}

/** The runner's offer, or a 504 once `seconds` have passed; then its upstream requests are aborted. */
function withDeadline(deps: CompareContext, source: string, run: Runner, seconds: number, match: (m: SourceMatch) => void): Promise<SourceOffer> {
  const abort = new AbortController();
  const work = run(scopeSources(deps, { signal: abort.signal }), match);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new ApiError(504, `no answer within ${seconds} s`));
    }, seconds * 1000);
  });
  work.catch((err) => deps.log.debug({ err, source }, 'compare: source failed or was aborted at the deadline'));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** One source's result, and whether its failure may pass on a retry. */
async function runOne(deps: CompareContext, source: string, run: Runner, timeoutS: number): Promise<[SourceResult, boolean]> {
  const started = performance.now();
  let matched: SourceMatch | null = null;
  try {
    const offer = await withDeadline(deps, source, run, timeoutS, (m) => (matched = m));
    return [{ source, status: 'ok', elapsed_s: seconds(performance.now() - started), error: null, offer, matched }, false];
  } catch (err) {
    const api = toApiError(err);
    if (api.status === 500) deps.log.error({ err, source }, 'compare: source failed with an unexpected error');
    const detail = typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail);
    const failed: SourceResult = {
      source,
      status: 'error',
      elapsed_s: seconds(performance.now() - started),
      error: { status: api.status, detail },
      offer: null,
      matched,
    };
    return [failed, api.retryable || api.status === 504];
  }
}

function comparisonCurrency(priced: { currency: string | null }[], requested: string | null | undefined): string | null {
  if (requested && priced.some((o) => o.currency === requested)) return requested;
  const counts = new Map<string, number>();
  for (const o of priced) if (o.currency) counts.set(o.currency, (counts.get(o.currency) ?? 0) + 1);
  let best: string | null = null;
  for (const [c, n] of counts) if (best == null || n > (counts.get(best) as number)) best = c;
  return best;
}

/**
 * The offers as compared: a total in the comparison currency is comparable. The official site's
 * currency, where its booking engine states none, is the one the hotel states
 * (sources.official.currency), marked `currency_stated_by: caller`; nothing else is filled in.
 */
function comparedOffers(results: SourceResult[], stated: OfficialStatement | undefined) {
  return results
    .filter((r) => r.offer && r.offer.available && (r.offer.total != null || r.offer.price_per_night != null))
    .map((r) => {
      const o = r.offer as SourceOffer;
      const byCaller = r.source === 'official' && o.currency == null && stated?.currency ? stated.currency : null;
      return {
        source: r.source,
        ...o,
        currency: o.currency ?? byCaller,
        currency_stated_by: byCaller ? ('caller' as const) : o.currency ? ('source' as const) : null,
      };
    });
}

export async function compareStay(deps: CompareContext, input: CompareInput) {
  const stay = stayWindow(input, 28);
  const started = performance.now();
  const ran = await Promise.all(runners(input).map(([source, run]) => runOne(deps, source, run, input.timeout_s)));
  const results = ran.map(([r]) => r);
  // a comparison with no answer at all is a failure (502, free, each source's reason), not an empty success
  if (ran.length && ran.every(([r]) => r.error)) {
    throw new EverySourceFailed(ran.map(([r, retryable]) => ({ source: r.source, status: r.error!.status, detail: r.error!.detail, retryable })));
  }
  const stated = input.sources.official as OfficialStatement | undefined;
  const priced = comparedOffers(results, stated);
  const currency = comparisonCurrency(
    priced.filter((o) => o.total != null),
    input.currency,
  );
  const parity = stayParity(results, { nights: stay.nights, adults: input.adults }, stated);
  // where parity compared on its basis (all-in totals) in this currency, the cheapest is parity's: never an offer parity set aside
  const parityWinner = parity.basis?.currency === currency ? (parity.status === 'official_cheapest' ? 'official' : parity.cheapest_agency?.source) : null;
  const cheapest = parityWinner
    ? (priced.find((o) => o.source === parityWinner) ?? null)
    : lowest(
        priced.filter((o) => o.currency != null && o.currency === currency),
        (o) => o.total,
      );
  const offers = priced
    .map((o) => ({
      source: o.source,
      total: o.total,
      price_per_night: o.price_per_night,
      currency: o.currency,
      currency_stated_by: o.currency_stated_by,
      taxes_and_fees_included: o.taxes_and_fees_included,
      description: o.description,
      comparable: o.total != null && o.currency != null && o.currency === currency,
      cheapest: cheapest != null && o.source === cheapest.source,
      provenance: o.provenance,
    }))
    .sort((a, b) => Number(b.comparable) - Number(a.comparable) || (a.total ?? Infinity) - (b.total ?? Infinity));
  return {
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    adults: input.adults,
    requested_currency: input.currency ?? null,
    comparison_currency: currency,
    cheapest: cheapest ? { source: cheapest.source, total: cheapest.total as number, currency: cheapest.currency as string } : null,
    offers,
    sources: results,
    parity,
    sources_ok: results.filter((r) => r.status === 'ok').length,
    sources_failed: results.filter((r) => r.status === 'error').length,
    elapsed_s: seconds(performance.now() - started),
  };
}
