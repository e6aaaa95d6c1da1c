import { describe, expect, it } from 'vitest';
import { ProvenanceSchema, buildProvenance, collectionId, observationId, type ProvenanceInput } from '../../../src/domain/provenance.js';

const col = collectionId('otatwo', 'nonce-1');
const input: ProvenanceInput = {
  source: 'otatwo',
  sourceKind: 'ota_rate_plan',
  collector: 'otatwo-rooms',
  sourcePropertyId: '4810723',
  checkIn: '2026-10-01',
  checkOut: '2026-10-03',
  adults: 2,
  collectionId: col,
  observedAt: new Date('2026-09-20T08:15:30.123Z'),
  requestedMarket: 'US',
  requestedCurrency: 'USD',
  returnedCurrency: 'USD',
  egressMode: 'direct',
  priceBasis: 'stay_total_including_taxes_and_fees',
  derivation: 'upstream',
  upstreamRateId: '383219264',
};

describe('provenance', () => {
  it('collection ids are deterministic per (source, nonce) and differ across fetches', () => {
    expect(col).toMatch(/^ratecol_[a-z2-7]{26}$/);
    expect(collectionId('otatwo', 'nonce-1')).toBe(col);
    expect(collectionId('otatwo', 'nonce-2')).not.toBe(col);
    expect(collectionId('otaone', 'nonce-1')).not.toBe(col);
  });

  it('same inputs give the same observation id; another collection gives another', () => {
    const a = buildProvenance(input);
    const b = buildProvenance({ ...input, observedAt: new Date('2026-09-20T09:00:00Z') });
    expect(a.observation_id).toMatch(/^rateobs_[a-z2-7]{26}$/);
    expect(b.observation_id).toBe(a.observation_id);
    const other = buildProvenance({ ...input, collectionId: collectionId('otatwo', 'nonce-2') });
    expect(other.observation_id).not.toBe(a.observation_id);
    expect(buildProvenance({ ...input, upstreamRateId: '383219265' }).observation_id).not.toBe(a.observation_id);
    expect(buildProvenance({ ...input, adults: 3 }).observation_id).not.toBe(a.observation_id);
    expect(buildProvenance({ ...input, priceBasis: 'taxes_and_fees_combined' }).observation_id).not.toBe(a.observation_id);
  });

  it('observationId agrees with buildProvenance and does not mix fields', () => {
    const id = observationId({
      source: 'otatwo',
      propertyId: '4810723',
      checkIn: '2026-10-01',
      checkOut: '2026-10-03',
      adults: 2,
      rateId: '383219264',
      collectionId: col,
      priceBasis: 'stay_total_including_taxes_and_fees',
    });
    expect(buildProvenance(input).observation_id).toBe(id);
    // moving a character between fields must not collide
    expect(observationId({ source: 'a', propertyId: 'bc', checkIn: 'x', checkOut: 'y', adults: 1, rateId: null, collectionId: col })).not.toBe(
      observationId({ source: 'ab', propertyId: 'c', checkIn: 'x', checkOut: 'y', adults: 1, rateId: null, collectionId: col }),
    );
  });

  it('has exactly the spec fields and passes its schema', () => {
    const p = buildProvenance(input);
    expect(Object.keys(p).sort()).toEqual(
      [
        'schema_version',
        'observation_id',
        'collection_id',
        'observed_at',
        'source',
        'source_kind',
        'collector',
        'source_property_id',
        'requested_market',
        'requested_currency',
        'returned_currency',
        'egress_mode',
        'price_basis',
        'derivation',
        'upstream_rate_id',
      ].sort(),
    );
    expect(p.schema_version).toBe(1);
    expect(p.observed_at).toBe('2026-09-20T08:15:30.123Z');
    expect(p.collection_id).toBe(col);
    expect(ProvenanceSchema.parse(p)).toEqual(p);
    const nulls = buildProvenance({ ...input, requestedMarket: null, requestedCurrency: null, returnedCurrency: null, upstreamRateId: null });
    expect(ProvenanceSchema.safeParse(nulls).success).toBe(true);
    expect(ProvenanceSchema.safeParse({ ...p, schema_version: 2 }).success).toBe(false);
    expect(ProvenanceSchema.safeParse({ ...p, egress_mode: 'tor' }).success).toBe(false);
  });
});
