/**
 * Calendar nights checked against the per-seller offers page of the same stay:
 *  - basis `mainstream`: each priced night is annotated with the cheapest of six major OTAs
 *    (the calendar's own figure may come from an aggregator or a member rate);
 *  - `verify_sources`: a few nights, spread evenly, are compared with the offers page's lowest.
 * One offers page (~3 MB) per night checked, a few at a time.
 */
import type { SourceUses } from '../../context.js';
import type { NormalizedCalendarRequest } from '../../../domain/calendar-request.js';
import { detailText, toApiError } from '../../../domain/errors.js';
import type { Offer } from '../hotels/offers.js';
import { runOffers, type OffersResult } from '../hotels/offers-run.js';
import type { CalendarRow } from './rows.js';

/** Normalized seller names of the six major OTAs. */
const MAINSTREAM_OTAS = ['booking', 'expedia', 'hotels', 'agoda', 'trip', 'priceline'] as const;
const PARALLEL_NIGHTS = 4;

const round2 = (n: number) => Math.round(n * 100) / 100;

function offersFor(deps: SourceUses<'upstream'>, r: NormalizedCalendarRequest, date: string, includeMetasearch: boolean): Promise<OffersResult> {
  return runOffers(deps, {
    token: r.token,
    check_in: date,
    nights: r.los,
    market: r.market,
    currency: r.currency,
    adults: r.adults,
    device: 'iphone',
    hl: 'en',
    property_name: '',
    include_metasearch: includeMetasearch,
    free_cancellation_only: false,
    coverage: 1,
    require_sources: [],
  });
}

async function eachLimited<T>(items: T[], fn: (t: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL_NIGHTS) await Promise.all(items.slice(i, i + PARALLEL_NIGHTS).map(fn));
}

function cheapest(offers: Offer[], currency: string | null): Offer | null {
  let best: Offer | null = null;
  for (const o of offers) {
    if (o.total === null || (currency !== null && o.currency !== null && o.currency !== currency)) continue;
    if (!best || o.total < (best.total as number)) best = o;
  }
  return best;
}

export interface OfferCheckOutcome {
  wireBytes: number;
  /** Nights whose offers page answered (what the mainstream basis and spot-checks are charged on). */
  checked: number;
}

/**
 * Adds rate_mainstream_total, rate_mainstream_base, mainstream_source and aggregator_discount
 * (mainstream total minus the calendar's rate_total: how much the cheapest seller undercuts the
 * major OTAs) to every priced row; rate_total is left untouched. A night whose offers page fails
 * or lists none of the six keeps these fields null.
 */
export async function annotateMainstream(
  deps: SourceUses<'upstream'>,
  r: NormalizedCalendarRequest,
  rows: CalendarRow[],
): Promise<OfferCheckOutcome & { basisApplied: string }> {
  const out = { wireBytes: 0, checked: 0 };
  let annotated = 0;
  let differs = false;
  await eachLimited(rows, async (row) => {
    Object.assign(row, { rate_mainstream_total: null, rate_mainstream_base: null, mainstream_source: null, aggregator_discount: null });
    let offers: OffersResult;
    try {
      offers = await offersFor(deps, r, row.date, false);
    } catch (err) {
      row.mainstream_error = detailText(toApiError(err));
      return;
    }
    out.wireBytes += offers.wire_bytes;
    out.checked++;
    const best = cheapest(
      offers.offers.filter((o) => (MAINSTREAM_OTAS as readonly string[]).includes(o.source)),
      row.currency,
    );
    if (!best || best.total === null) return;
    row.rate_mainstream_total = best.total;
    row.rate_mainstream_base = best.price_per_night_before_taxes === null ? null : round2(best.price_per_night_before_taxes * r.los);
    row.mainstream_source = best.source;
    row.aggregator_discount = row.rate_total === null ? null : round2(best.total - row.rate_total);
    annotated++;
    if (row.aggregator_discount !== 0) differs = true;
  });
  // already matched: every night the major OTAs priced equals the calendar's own figure
  return { ...out, basisApplied: annotated > 0 && !differs ? 'mainstream:calendar-already-matched' : 'mainstream:annotated' };
}

/** `count` priced nights spread evenly over the rows. */
function sampleNights(rows: CalendarRow[], count: number): CalendarRow[] {
  if (count <= 0 || !rows.length) return [];
  if (count >= rows.length) return [...rows];
  return Array.from({ length: count }, (_, i) => rows[Math.floor(((i + 0.5) * rows.length) / count)]!);
}

/** Spot-checks: the calendar's figure against the lowest total on the offers page, aggregators included. */
export async function checkSources(
  deps: SourceUses<'upstream'>,
  r: NormalizedCalendarRequest,
  rows: CalendarRow[],
): Promise<OfferCheckOutcome & { sourceCheck: Record<string, unknown> }> {
  const nights: Record<string, unknown>[] = [];
  const out = { wireBytes: 0, checked: 0 };
  const sample = sampleNights(rows, r.verify_sources);
  await eachLimited(sample, async (row) => {
    try {
      const offers = await offersFor(deps, r, row.date, true);
      out.wireBytes += offers.wire_bytes;
      out.checked++;
      const best = cheapest(offers.offers, row.currency);
      const delta = best?.total != null && row.rate_total !== null ? round2(best.total - row.rate_total) : null;
      nights.push({
        date: row.date,
        calendar_total: row.rate_total,
        offers_lowest_total: best?.total ?? null,
        offers_lowest_source: best?.source ?? null,
        delta,
        // within one currency unit per night: the calendar rounds
        match: delta !== null && Math.abs(delta) <= Math.max(1, r.los),
      });
    } catch (err) {
      nights.push({ date: row.date, calendar_total: row.rate_total, error: detailText(toApiError(err)) });
    }
  });
  nights.sort((a, b) => String(a.date).localeCompare(String(b.date)));
  return {
    ...out,
    sourceCheck: { requested: r.verify_sources, checked: out.checked, matched: nights.filter((n) => n.match === true).length, nights },
  };
}
