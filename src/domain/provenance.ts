import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { REPLY_EGRESS_MODES, type EgressMode } from './egress-modes.js';

/** The spec's Provenance object (attached to every normalized price). */
const PROVENANCE_SCHEMA_VERSION = 1;

export const ProvenanceSchema = z.object({
  schema_version: z.literal(PROVENANCE_SCHEMA_VERSION),
  observation_id: z.string().regex(/^rateobs_[a-z2-7]+$/),
  collection_id: z.string().regex(/^ratecol_[a-z2-7]+$/),
  observed_at: z.iso.datetime(),
  source: z.string().min(1),
  source_kind: z.string().min(1),
  collector: z.string().min(1),
  source_property_id: z.string().min(1),
  requested_market: z.string().nullable(),
  requested_currency: z.string().nullable(),
  returned_currency: z.string().nullable(),
  egress_mode: z.enum(REPLY_EGRESS_MODES),
  price_basis: z.string().min(1),
  derivation: z.string().min(1),
  upstream_rate_id: z.string().nullable(),
});

export type Provenance = z.infer<typeof ProvenanceSchema>;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 26 base32 characters (130 bits) of the SHA-256 of the parts, joined unambiguously. */
function digest(parts: readonly (string | number | null)[]): string {
  const bytes = createHash('sha256').update(JSON.stringify(parts)).digest();
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length >= 26) break;
  }
  return out;
}

/** A fresh nonce for one upstream fetch. */
export function newFetchNonce(): string {
  return randomUUID();
}

/** `ratecol_…`, shared by every price that came from one upstream fetch. */
export function collectionId(source: string, fetchNonce: string): string {
  return `ratecol_${digest(['ratecol', 1, source, fetchNonce])}`;
}

export interface ObservationKey {
  source: string;
  propertyId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  /** Source-native plan or rate id; null when the source gives none. */
  rateId: string | null;
  collectionId: string;
  /** Tells apart several figures of one rate in one fetch (e.g. base vs taxes). */
  priceBasis?: string;
}

/** Deterministic `rateobs_…`: same stay, rate, basis and collection → same id. */
export function observationId(key: ObservationKey): string {
  return `rateobs_${digest([
    'rateobs',
    1,
    key.source,
    key.propertyId,
    key.checkIn,
    key.checkOut,
    key.adults,
    key.rateId,
    key.collectionId,
    key.priceBasis ?? null,
  ])}`;
}

export interface ProvenanceInput {
  source: string;
  sourceKind: string;
  collector: string;
  sourcePropertyId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  collectionId: string;
  /** When the upstream reply arrived. */
  observedAt: Date;
  requestedMarket: string | null;
  requestedCurrency: string | null;
  returnedCurrency: string | null;
  egressMode: EgressMode;
  priceBasis: string;
  derivation: string;
  upstreamRateId: string | null;
}

/** The spec's Provenance object, exactly its fields. */
export function buildProvenance(input: ProvenanceInput): Provenance {
  return {
    schema_version: PROVENANCE_SCHEMA_VERSION,
    observation_id: observationId({
      source: input.source,
      propertyId: input.sourcePropertyId,
      checkIn: input.checkIn,
      checkOut: input.checkOut,
      adults: input.adults,
      rateId: input.upstreamRateId,
      collectionId: input.collectionId,
      priceBasis: input.priceBasis,
    }),
    collection_id: input.collectionId,
    observed_at: input.observedAt.toISOString(),
    source: input.source,
    source_kind: input.sourceKind,
    collector: input.collector,
    source_property_id: input.sourcePropertyId,
    requested_market: input.requestedMarket,
    requested_currency: input.requestedCurrency,
    returned_currency: input.returnedCurrency,
    egress_mode: input.egressMode,
    price_basis: input.priceBasis,
    derivation: input.derivation,
    upstream_rate_id: input.upstreamRateId,
  };
}
