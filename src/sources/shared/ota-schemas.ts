/**
 * Output schemas of the spec's OTA headline and offer objects, and the one place that puts
 * provenance on them (every price, plus the derived taxes-and-fees figure).
 */
import { z } from 'zod';
import { ProvenanceSchema, type Provenance } from '../../domain/provenance.js';
import { priceProvenance, type Observation, type PriceFacts, type StayKey } from './observation.js';
import { TAXES_AND_FEES_DERIVATION, type OtaHeadline, type OtaOffer } from './offer.js';

const PaymentModelSchema = z.enum(['PAY_NOW', 'PAY_LATER', 'PAY_LATER_WITH_DEPOSIT', '']);

export const OtaOfferSchema = z.object({
  plan_id: z.string(),
  room_type_id: z.string(),
  total: z.number().nullable(),
  nightly: z.number().nullable(),
  taxes_and_fees: z.number().nullable(),
  currency: z.string().nullable(),
  total_text: z.string(),
  nightly_text: z.string(),
  taxes_and_fees_included: z.boolean().nullable(),
  fees_included: z.boolean().nullable(),
  payment_model: PaymentModelSchema,
  hotel_collect: z.boolean().nullable(),
  member_only: z.boolean(),
  refundable: z.boolean().nullable(),
  cancellation_text: z.string(),
  extras: z.string().nullable(),
  extras_text: z.string(),
  strikeout_text: z.string(),
  inventory_type: z.string(),
  business_model: z.string(),
  messages: z.array(z.string()),
  provenance: ProvenanceSchema,
  taxes_and_fees_provenance: ProvenanceSchema.optional(),
});
export type OtaOfferOut = z.infer<typeof OtaOfferSchema>;

export const OtaHeadlineSchema = z.object({
  property_id: z.string(),
  listing_id: z.string().nullable().optional(),
  total: z.number().nullable(),
  price_per_night: z.number().nullable(),
  basis: z.enum(['sticky_bar', 'cheapest_offer']).nullable(),
  total_text: z.string(),
  nightly_text: z.string(),
  taxes_and_fees_included: z.boolean().nullable(),
  fees_included: z.boolean().nullable(),
  currency: z.string().nullable(),
  currency_verified: z.boolean(),
  available: z.boolean(),
  unavailable_reason: z.string().nullable(),
  cheapest_total: z.number().nullable().optional(),
  payment_model: PaymentModelSchema.nullable().optional(),
  provenance: ProvenanceSchema,
});
export type OtaHeadlineOut = z.infer<typeof OtaHeadlineSchema>;

export interface OfferFacts extends Omit<PriceFacts, 'priceBasis' | 'derivation' | 'rateId' | 'returnedCurrency'> {
  /** Price basis of the offer's own figure. */
  priceBasis: string;
}

/** Provenance on the offer, and on its derived taxes-and-fees figure when there is one. */
export function withOfferProvenance(offer: OtaOffer, obs: Observation, stay: StayKey, facts: OfferFacts): OtaOfferOut {
  const base = { ...facts, returnedCurrency: offer.currency || null, rateId: offer.plan_id || null };
  const out: OtaOfferOut = {
    ...offer,
    provenance: priceProvenance(obs, stay, { ...base, derivation: 'normalized_upstream' }),
  };
  if (offer.taxes_and_fees != null) {
    out.taxes_and_fees_provenance = priceProvenance(obs, stay, {
      ...base,
      priceBasis: 'taxes_and_fees_combined',
      derivation: TAXES_AND_FEES_DERIVATION,
    });
  }
  return out;
}

export function withHeadlineProvenance(headline: OtaHeadline, provenance: Provenance): OtaHeadlineOut {
  return { ...headline, provenance };
}
