/**
 * Normalized prices with provenance. Every figure names what it is (`price_basis`) and how it was
 * obtained (`derivation`: `upstream` for a number the reply carries, `normalized_upstream` for one
 * read out of displayed text). What the reply does not carry is null, never computed.
 */
import { z } from 'zod';
import { buildProvenance, ProvenanceSchema, type Provenance, type ProvenanceInput } from '../../../domain/provenance.js';
import type { DisplayBasis } from './parse-detail.js';
import type { RateRecord } from './parse-property.js';
import type { PricePair } from './parse-sellers.js';

const COLLECTOR = 'metasearch_hotels';

export const SOURCE_KINDS = {
  /** The engine's own headline price of a property (the cheapest any seller shows). */
  headline: 'offer',
  /** One seller's price for the stay, as the engine lists it. */
  seller: 'ota_offer',
} as const;

const PRICE_BASES = {
  nightlyAllIn: 'nightly_including_taxes_and_fees',
  nightlyBeforeTaxes: 'nightly_before_taxes_and_fees',
  nightlyShown: 'nightly_as_displayed',
  totalAllIn: 'stay_total_including_taxes_and_fees',
  totalBeforeTaxes: 'room_base_before_taxes_and_fees',
  totalShown: 'stay_headline',
  taxes: 'stay_taxes',
  fees: 'stay_fees',
} as const;

const FigureSchema = z.object({
  amount: z.number(),
  /** As displayed; null when this figure is not the one shown. */
  text: z.string().nullable(),
  provenance: ProvenanceSchema,
});
type Figure = z.infer<typeof FigureSchema>;

export const StayPricesSchema = z.object({
  currency: z.string().nullable(),
  check_in: z.string().nullable(),
  check_out: z.string().nullable(),
  nights: z.int().nullable(),
  display_basis: z.enum(['all_in', 'before_taxes']).nullable(),
  nightly: FigureSchema.nullable(),
  total: FigureSchema.nullable(),
  total_before_taxes: FigureSchema.nullable(),
  taxes: FigureSchema.nullable(),
  fees: FigureSchema.nullable(),
});
export type StayPrices = z.infer<typeof StayPricesSchema>;

/** What every figure of one page shares in its provenance; `token` is the source property id. */
export interface PriceContext extends Pick<
  ProvenanceInput,
  'checkIn' | 'checkOut' | 'adults' | 'collectionId' | 'observedAt' | 'requestedMarket' | 'requestedCurrency' | 'egressMode'
> {
  token: string;
}

export function provenance(
  ctx: PriceContext,
  f: {
    sourceKind: string;
    basis: string;
    derivation: string;
    rateId?: string | null;
    returnedCurrency: string | null;
    checkIn?: string | null;
    checkOut?: string | null;
  },
): Provenance {
  return buildProvenance({
    source: 'metasearch',
    sourceKind: f.sourceKind,
    collector: COLLECTOR,
    sourcePropertyId: ctx.token,
    checkIn: f.checkIn ?? ctx.checkIn,
    checkOut: f.checkOut ?? ctx.checkOut,
    adults: ctx.adults,
    collectionId: ctx.collectionId,
    observedAt: ctx.observedAt,
    requestedMarket: ctx.requestedMarket,
    requestedCurrency: ctx.requestedCurrency,
    returnedCurrency: f.returnedCurrency,
    egressMode: ctx.egressMode,
    priceBasis: f.basis,
    derivation: f.derivation,
    upstreamRateId: f.rateId ?? null,
  });
}

function nightlyBasis(basis: DisplayBasis): string {
  return basis === 'all_in' ? PRICE_BASES.nightlyAllIn : basis === 'before_taxes' ? PRICE_BASES.nightlyBeforeTaxes : PRICE_BASES.nightlyShown;
}

/** The basis of a displayed stay total under this display basis. */
export function totalBasis(basis: DisplayBasis): string {
  return basis === 'all_in' ? PRICE_BASES.totalAllIn : basis === 'before_taxes' ? PRICE_BASES.totalBeforeTaxes : PRICE_BASES.totalShown;
}

/** The headline prices of a rate block (search result or property page), one provenance per figure. */
export function stayPrices(rate: RateRecord | null, basis: DisplayBasis, ctx: PriceContext, sourceKind: string = SOURCE_KINDS.headline): StayPrices | null {
  if (!rate) return null;
  const dates = { checkIn: rate.check_in, checkOut: rate.check_out, returnedCurrency: rate.currency };
  const figure = (amount: number | null, text: string | null, b: string, derivation: 'upstream' | 'normalized_upstream'): Figure | null =>
    amount === null ? null : { amount, text, provenance: provenance(ctx, { sourceKind, basis: b, derivation, ...dates }) };

  const nightlyExact = rate.nightly_exact ?? rate.nightly;
  const nightly = figure(nightlyExact, rate.nightly_text, nightlyBasis(basis), nightlyExact === null ? 'normalized_upstream' : 'upstream');
  const total =
    rate.total_exact !== null
      ? figure(rate.total_exact, basis === 'all_in' ? rate.total_text : null, PRICE_BASES.totalAllIn, 'upstream')
      : figure(rate.total, rate.total_text, totalBasis(basis), 'normalized_upstream');
  return {
    currency: rate.currency,
    check_in: rate.check_in,
    check_out: rate.check_out,
    nights: rate.nights,
    display_basis: basis,
    nightly,
    total,
    total_before_taxes: figure(rate.before_taxes_total, basis === 'before_taxes' ? rate.total_text : null, PRICE_BASES.totalBeforeTaxes, 'upstream'),
    taxes: figure(rate.taxes, null, PRICE_BASES.taxes, 'upstream'),
    fees: figure(rate.fees, null, PRICE_BASES.fees, 'upstream'),
  };
}

export function pairDerivation(p: PricePair | null): 'upstream' | 'normalized_upstream' {
  return p?.exact ? 'upstream' : 'normalized_upstream';
}
