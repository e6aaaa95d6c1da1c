/**
 * Parity over a range (pure): the own hotel's official site against every agency for each check-in
 * date × length of stay, read from each stay's comparison (POST /v1/ota/compare's answer). The
 * verdict and its basis are the comparison's own (domain/parity.ts stayParity): this module only
 * counts them, applies the tolerance and lists what a revenue manager acts on.
 *
 * From the hotel's side, per agency and stay on the same basis: win (its site is cheaper), meet
 * (equal within the tolerance), loss (the agency undercuts it by more than the tolerance: a
 * disparity). The tolerance is a percent of the official all-in total, so that a gap of
 * currency-conversion rounding is a meet, not a disparity. An agency selling a stay the official
 * site has sold out is flagged apart; an agency left out of a stay's comparison (failed, another
 * currency or room count, no all-in total) is not compared for that stay, with the reason.
 */
import type { Parity, ParitySource } from './parity.js';
import type { Provenance } from './provenance.js';

/** The default tolerance, percent of the official total (docs/rate-intelligence.md states it). */
export const DEFAULT_TOLERANCE_PCT = 1;

/** What a stay's comparison answered, as far as the range reads it. */
export interface StayComparison {
  check_out: string;
  parity: Parity;
  sources: ParitySource[];
}

/** A price the metasearch displays for the stay (its calendar), reported beside the bookable ones, never compared. */
export interface DisplayedPrice {
  total: number;
  currency: string | null;
  provenance: Provenance | null;
}

export interface RangeStayInput {
  date: string;
  los: number;
  /** The comparison's batch item: pending (queued or running), failed (with its error), or its answer. */
  state: 'pending' | 'failed' | 'done';
  error: string | null;
  comparison: StayComparison | null;
  metasearch: DisplayedPrice | null;
}

type Outcome = 'win' | 'meet' | 'loss' | 'selling_while_sold_out' | 'not_compared';

interface AgencyOutcome {
  source: string;
  outcome: Outcome;
  /** The agency's all-in total on the basis (or what it sells at while the hotel is sold out); null when not stated or not compared. */
  total: number | null;
  currency: string | null;
  /** Official minus agency in the basis currency (positive: the agency is cheaper); null unless compared. */
  amount: number | null;
  /** `amount` in percent of the official total. */
  pct: number | null;
  /** Why the agency was not compared for this stay. */
  reason: string | null;
  provenance: Provenance | null;
}

export interface RangeStay {
  date: string;
  los: number;
  check_out: string | null;
  status: 'pending' | 'failed' | Parity['status'];
  reason: string | null;
  basis: Parity['basis'];
  official: { total: number; currency: string; provenance: Provenance | null } | null;
  metasearch: DisplayedPrice | null;
  agencies: AgencyOutcome[];
}

interface AgencySummary {
  source: string;
  win: number;
  meet: number;
  loss: number;
  /** Stays compared on the same basis (win + meet + loss): the shares' denominator. */
  compared: number;
  not_compared: number;
  selling_while_sold_out: number;
  /** Percent of the compared stays; null when none was compared. */
  win_pct: number | null;
  meet_pct: number | null;
  loss_pct: number | null;
}

export interface Disparity {
  date: string;
  los: number;
  check_out: string;
  source: string;
  official_total: number;
  agency_total: number;
  currency: string;
  amount: number;
  pct: number;
  basis: NonNullable<Parity['basis']>;
  official_provenance: Provenance | null;
  agency_provenance: Provenance | null;
}

interface SoldOutSelling {
  date: string;
  los: number;
  check_out: string;
  source: string;
  total: number;
  currency: string | null;
  provenance: Provenance | null;
}

export interface RangeSummary {
  stays: RangeStay[];
  agencies: AgencySummary[];
  disparities: Disparity[];
  selling_while_sold_out: SoldOutSelling[];
}

const cents = (n: number) => Math.round(n * 100) / 100;
const pctOf = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/** Each agency's outcome in one compared stay (status official_cheapest or undercut). */
function comparedOutcomes(c: StayComparison, agencies: string[], tolerancePct: number): AgencyOutcome[] {
  const p = c.parity;
  const official = p.official!;
  const tolerance = cents((official.total * tolerancePct) / 100);
  return agencies.map((source) => {
    const left = p.excluded.find((e) => e.source === source);
    const offer = c.sources.find((s) => s.source === source)?.offer ?? null;
    if (left || !offer || offer.total === null) {
      return { source, outcome: 'not_compared', total: null, currency: null, amount: null, pct: null, reason: left?.reason ?? 'not priced', provenance: null };
    }
    const undercut = p.undercuts.find((u) => u.source === source);
    // the comparison's own amount where it says undercut; otherwise the agency is at or above the official total
    const amount = undercut ? undercut.amount : cents(official.total - offer.total);
    const pct = undercut ? undercut.pct : pctOf(official.total - offer.total, official.total);
    const outcome: Outcome = Math.abs(amount) <= tolerance ? 'meet' : amount > 0 ? 'loss' : 'win';
    return { source, outcome, total: offer.total, currency: official.currency, amount, pct, reason: null, provenance: offer.provenance };
  });
}

function stayOf(s: RangeStayInput, agencies: string[], tolerancePct: number): RangeStay {
  const base = { date: s.date, los: s.los, metasearch: s.metasearch, basis: null, official: null };
  const none = (reason: string): AgencyOutcome[] =>
    agencies.map((source) => ({ source, outcome: 'not_compared', total: null, currency: null, amount: null, pct: null, reason, provenance: null }));
  if (s.state !== 'done' || !s.comparison) {
    const reason = s.state === 'failed' ? `the comparison failed: ${s.error ?? 'error'}` : 'not compared yet';
    return { ...base, check_out: null, status: s.state === 'failed' ? 'failed' : 'pending', reason, agencies: none(reason) };
  }
  const c = s.comparison;
  const p = c.parity;
  const head = { ...base, check_out: c.check_out, status: p.status, reason: p.reason };
  if (p.status === 'official_sold_out') {
    const outcomes = agencies.map((source): AgencyOutcome => {
      const selling = p.selling_while_sold_out.find((x) => x.source === source);
      return selling
        ? {
            source,
            outcome: 'selling_while_sold_out',
            total: selling.total,
            currency: selling.currency,
            amount: null,
            pct: null,
            reason: null,
            provenance: selling.provenance,
          }
        : { source, outcome: 'not_compared', total: null, currency: null, amount: null, pct: null, reason: 'the official site is sold out', provenance: null };
    });
    return { ...head, agencies: outcomes };
  }
  if (p.status === 'not_comparable' || !p.official || !p.basis) return { ...head, agencies: none(p.reason ?? 'not comparable') };
  const official = { total: p.official.total, currency: p.official.currency, provenance: p.official.provenance };
  return { ...head, basis: p.basis, official, agencies: comparedOutcomes(c, agencies, tolerancePct) };
}

/** The range's stays, per-agency counts and shares, disparities (losses beyond the tolerance) and sold-out sellers. */
export function parityRange(stays: RangeStayInput[], agencies: string[], tolerancePct: number): RangeSummary {
  const rows = stays.map((s) => stayOf(s, agencies, tolerancePct));
  const summary = agencies.map((source): AgencySummary => {
    const of = rows.map((r) => r.agencies.find((a) => a.source === source)!);
    const count = (o: Outcome) => of.filter((a) => a.outcome === o).length;
    const [win, meet, loss] = [count('win'), count('meet'), count('loss')];
    const compared = win + meet + loss;
    const share = (n: number) => (compared ? pctOf(n, compared) : null);
    return {
      source,
      win,
      meet,
      loss,
      compared,
      not_compared: count('not_compared'),
      selling_while_sold_out: count('selling_while_sold_out'),
      win_pct: share(win),
      meet_pct: share(meet),
      loss_pct: share(loss),
    };
  });
  const disparities = rows.flatMap((r) =>
    r.agencies
      .filter((a) => a.outcome === 'loss')
      .map((a): Disparity => ({
        date: r.date,
        los: r.los,
        check_out: r.check_out!,
        source: a.source,
        official_total: r.official!.total,
        agency_total: a.total!,
        currency: r.official!.currency,
        amount: a.amount!,
        pct: a.pct!,
        basis: r.basis!,
        official_provenance: r.official!.provenance,
        agency_provenance: a.provenance,
      })),
  );
  const selling = rows.flatMap((r) =>
    r.agencies
      .filter((a) => a.outcome === 'selling_while_sold_out')
      .map((a): SoldOutSelling => ({
        date: r.date,
        los: r.los,
        check_out: r.check_out!,
        source: a.source,
        total: a.total!,
        currency: a.currency,
        provenance: a.provenance,
      })),
  );
  return { stays: rows, agencies: summary, disparities, selling_while_sold_out: selling };
}

/** The CSV of a range: one line per stay and agency (its header first). */
export const PARITY_CSV_HEADER = [
  'date',
  'los',
  'check_out',
  'status',
  'source',
  'outcome',
  'official_total',
  'agency_total',
  'currency',
  'amount',
  'pct',
  'basis_price',
  'basis_nights',
  'basis_adults',
  'basis_rooms',
  'metasearch_total',
  'metasearch_currency',
  'reason',
] as const;

export function parityCsvRows(stays: RangeStay[]): (string | number | null)[][] {
  return stays.flatMap((s) =>
    s.agencies.map((a) => [
      s.date,
      s.los,
      s.check_out,
      s.status,
      a.source,
      a.outcome,
      s.official?.total ?? null,
      a.total,
      a.currency,
      a.amount,
      a.pct,
      s.basis?.price ?? null,
      s.basis?.nights ?? null,
      s.basis?.adults ?? null,
      s.basis?.rooms ?? null,
      s.metasearch?.total ?? null,
      s.metasearch?.currency ?? null,
      a.reason ?? s.reason,
    ]),
  );
}
