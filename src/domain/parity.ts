/**
 * Rate parity of one stay: the hotel's own site against the agencies, on one basis only — the
 * all-in total (taxes and fees included) of the same stay (nights, guests, rooms) in the same currency.
 * Where the basis cannot be established from what the sources state (or from what the caller
 * states about its own site), the answer is `not_comparable` with the reason, never a guess.
 */
import { z } from 'zod';
import { ProvenanceSchema, type Provenance } from './provenance.js';

/** Price bases whose total includes taxes and fees by construction (the official engines' gross quotes). */
const ALL_IN_BASES = new Set(['stay_total_including_taxes_and_fees', 'stay_total_gross_as_quoted']);

export interface ParitySource {
  source: string;
  status: 'ok' | 'error';
  error: { status: number; detail: string } | null;
  offer: {
    available: boolean;
    total: number | null;
    currency: string | null;
    taxes_and_fees_included: boolean | null;
    /** Rooms the total covers, as the source states; null or absent: not stated (the one room asked for). */
    rooms?: number | null;
    provenance: Provenance | null;
  } | null;
}

/** What the caller states about its own site where the booking engine does not say. */
export interface OfficialStatement {
  currency?: string | null;
  taxes_included?: boolean | null;
}

const Priced = z.object({ source: z.string(), total: z.number(), currency: z.string(), provenance: ProvenanceSchema.nullable() });

export const ParitySchema = z.object({
  status: z
    .enum(['official_cheapest', 'undercut', 'official_sold_out', 'not_comparable'])
    .describe('official_sold_out: the official site offers nothing for the stay (selling_while_sold_out lists the agencies that still sell it)'),
  reason: z.string().nullable().describe('why the stay could not be compared (status not_comparable, official_sold_out)'),
  basis: z
    .object({ price: z.literal('all_in_total'), currency: z.string(), nights: z.int(), adults: z.int(), rooms: z.int() })
    .nullable()
    .describe('what was compared: all-in stay totals of the same stay (nights, guests, rooms) in one currency'),
  official: Priced.extend({
    currency_stated_by: z.enum(['source', 'caller']),
    taxes_included_stated_by: z.enum(['source', 'caller']),
  })
    .nullable()
    .describe("the official site's cheapest all-in total"),
  cheapest_agency: Priced.nullable().describe('the cheapest agency on the same basis'),
  undercuts: z
    .array(Priced.extend({ amount: z.number(), pct: z.number() }))
    .describe('agencies below the official total, cheapest first: by how much (amount in basis currency, pct of the official total)'),
  excluded: z.array(z.object({ source: z.string(), reason: z.string() })).describe('agencies left out of the comparison, and why'),
  selling_while_sold_out: z
    .array(Priced.extend({ currency: z.string().nullable() }))
    .describe('agencies selling the stay while the official site offers nothing for it (status official_sold_out), cheapest first'),
  warnings: z.array(z.string()).describe("where what you state about your site contradicts its booking engine (the engine's own statement is used)"),
});
export type Parity = z.infer<typeof ParitySchema>;

const cents = (n: number) => Math.round(n * 100) / 100;

function notComparable(reason: string, excluded: Parity['excluded'] = [], warnings: string[] = []): Parity {
  return {
    status: 'not_comparable',
    reason,
    basis: null,
    official: null,
    cheapest_agency: null,
    undercuts: [],
    excluded,
    selling_while_sold_out: [],
    warnings,
  };
}

/** The official site offers nothing for the stay: which agencies still sell it (a disparity a revenue manager acts on). */
function soldOut(sources: ParitySource[]): Parity {
  const selling = sources
    .filter((s) => s.source !== 'official' && s.status === 'ok' && s.offer?.available && s.offer.total !== null)
    .map((s) => ({ source: s.source, total: s.offer!.total as number, currency: s.offer!.currency, provenance: s.offer!.provenance }))
    .sort((a, b) => a.total - b.total);
  const reason = selling.length
    ? `the official site offers nothing for this stay while ${selling.map((s) => s.source).join(', ')} still sell${selling.length === 1 ? 's' : ''} it`
    : 'the official site offers nothing for this stay (nor does any agency)';
  return { ...notComparable(reason), status: 'official_sold_out', selling_while_sold_out: selling };
}

/** Whether an agency total includes taxes and fees, as its source states it (null: not stated). */
function allIn(offer: NonNullable<ParitySource['offer']>): boolean | null {
  if (offer.taxes_and_fees_included !== null) return offer.taxes_and_fees_included;
  return offer.provenance && ALL_IN_BASES.has(offer.provenance.price_basis) ? true : null;
}

export function stayParity(sources: ParitySource[], stay: { nights: number; adults: number }, stated: OfficialStatement = {}): Parity {
  const official = sources.find((s) => s.source === 'official');
  if (!official) return notComparable("the official site is not among the sources (add sources.official with the hotel's website)");
  if (official.status === 'error') return notComparable(`the official site failed: ${official.error?.detail ?? 'error'}`);
  const o = official.offer;
  if (o && !o.available) return soldOut(sources);
  if (!o || o.total === null) return notComparable('the official site has no priced offer for this stay');
  const currency = o.currency ?? stated.currency ?? null;
  if (!currency)
    return notComparable("the official site's booking engine does not state its currency: give sources.official.currency (the currency your site prices in)");
  if (o.currency && stated.currency && o.currency !== stated.currency)
    return notComparable(`the official site prices in ${o.currency}, not the stated ${stated.currency}`);
  const warnings: string[] = [];
  const engineAllIn = allIn(o);
  if (engineAllIn !== null && stated.taxes_included != null && stated.taxes_included !== engineAllIn)
    warnings.push(
      `you state taxes_included: ${stated.taxes_included}, but the booking engine states its total ${engineAllIn ? 'includes' : 'excludes'} taxes and fees: the engine's statement is used`,
    );
  const officialAllIn = engineAllIn ?? stated.taxes_included ?? null;
  if (officialAllIn === null)
    return notComparable("the official site's booking engine does not state whether its total includes taxes and fees: give sources.official.taxes_included");
  if (!officialAllIn) return notComparable("the official site's total excludes taxes or fees: no all-in total to compare", [], warnings);
  const rooms = o.rooms ?? 1;
  const excluded: Parity['excluded'] = [];
  const agencies: z.infer<typeof Priced>[] = [];
  for (const s of sources) {
    if (s.source === 'official') continue;
    const a = s.offer;
    const why =
      s.status === 'error'
        ? `failed: ${s.error?.detail ?? 'error'}`
        : !a || !a.available
          ? 'nothing available for this stay'
          : a.total === null
            ? 'no stay total (a nightly price only)'
            : a.currency !== currency
              ? `priced in ${a.currency ?? 'an unstated currency'}, not ${currency}`
              : (a.rooms ?? 1) !== rooms
                ? `priced for ${a.rooms} rooms, not ${rooms}`
                : allIn(a) === null
                  ? 'does not state whether its total includes taxes and fees'
                  : allIn(a) === false
                    ? 'its total excludes taxes or fees'
                    : null;
    if (why) excluded.push({ source: s.source, reason: why });
    else agencies.push({ source: s.source, total: a!.total as number, currency, provenance: a!.provenance });
  }
  if (!agencies.length) return notComparable(`no agency priced this stay on the same basis (all-in total in ${currency})`, excluded, warnings);
  agencies.sort((a, b) => a.total - b.total);
  const officialTotal = o.total;
  const undercuts = agencies
    .filter((a) => cents(officialTotal - a.total) >= 0.01)
    .map((a) => ({ ...a, amount: cents(officialTotal - a.total), pct: Math.round(((officialTotal - a.total) / officialTotal) * 1000) / 10 }));
  return {
    status: undercuts.length ? 'undercut' : 'official_cheapest',
    reason: null,
    basis: { price: 'all_in_total', currency, nights: stay.nights, adults: stay.adults, rooms },
    official: {
      source: 'official',
      total: officialTotal,
      currency,
      provenance: o.provenance,
      currency_stated_by: o.currency ? 'source' : 'caller',
      taxes_included_stated_by: allIn(o) !== null ? 'source' : 'caller',
    },
    cheapest_agency: agencies[0],
    undercuts,
    excluded,
    selling_while_sold_out: [],
    warnings,
  };
}
