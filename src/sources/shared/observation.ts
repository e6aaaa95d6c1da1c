/**
 * What every source fetch records about one upstream reply (collection id, arrival time, egress,
 * size), the provenance of a price built from it, and the reply checks every fetch shares.
 */
import { UpstreamFailed, upstreamStatusFailure } from '../../domain/errors.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import type { EgressMode } from '../../upstream/egress.js';
import { buildProvenance, collectionId, newFetchNonce, type Provenance } from '../../domain/provenance.js';

export interface Observation {
  source: string;
  collectionId: string;
  /** When the reply arrived. */
  observedAt: Date;
  egressMode: EgressMode;
  wireBytes: number;
  elapsedMs: number;
}

export function observe(source: string, response: UpstreamResponse): Observation {
  return {
    source,
    collectionId: collectionId(source, newFetchNonce()),
    observedAt: new Date(),
    egressMode: response.egressMode,
    wireBytes: response.wireBytes,
    elapsedMs: response.elapsedMs,
  };
}

export interface StayKey {
  propertyId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
}

export interface PriceFacts {
  sourceKind: string;
  collector: string;
  market: string | null;
  requestedCurrency: string | null;
  returnedCurrency: string | null;
  priceBasis: string;
  derivation: string;
  rateId: string | null;
}

export function priceProvenance(obs: Observation, stay: StayKey, facts: PriceFacts): Provenance {
  return buildProvenance({
    source: obs.source,
    sourceKind: facts.sourceKind,
    collector: facts.collector,
    sourcePropertyId: stay.propertyId,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    adults: stay.adults,
    collectionId: obs.collectionId,
    observedAt: obs.observedAt,
    requestedMarket: facts.market,
    requestedCurrency: facts.requestedCurrency,
    returnedCurrency: facts.returnedCurrency,
    egressMode: obs.egressMode,
    priceBasis: facts.priceBasis,
    derivation: facts.derivation,
    upstreamRateId: facts.rateId,
  });
}

/**
 * A 2xx passes. Error statuses never get here: the upstream client raised them by the failure
 * table (a request for the caller's object names its 404 with `notFound`); what is left (a 1xx, a
 * 3xx it did not follow) is an upstream error.
 */
export function checkStatus(response: UpstreamResponse): void {
  if (response.status >= 200 && response.status < 300) return;
  throw upstreamStatusFailure(response.status) ?? new UpstreamFailed(`UpstreamHttp${response.status}`);
}

export function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
