import type { NormalizedCalendarRequest } from '../../src/domain/calendar-request.js';
import type { CalendarResult, CalendarService } from '../../src/jobs/calendar-service.js';
import { UpstreamContractChanged, UpstreamFailed } from '../../src/platform/errors.js';
import { buildProvenance, collectionId, newFetchNonce } from '../../src/upstream/provenance.js';

/**
 * Test-only stand-in for the upstream calendar collection, for tests of the batch
 * machinery (queue, transitions, charges, webhooks). Database, pg-boss and HTTP stay real.
 * Tokens steer it: `transient…` fails retryably, `broken…` fails for good, `empty…` prices
 * nothing; any other token prices every night at `base + day index` (base from the token).
 */
export function probeCalendar(opts: { delayMs?: number; base?: number; log?: string[] } = {}): CalendarService {
  return {
    async run(r: NormalizedCalendarRequest): Promise<CalendarResult> {
      opts.log?.push(r.token);
      if (opts.delayMs) await new Promise((res) => setTimeout(res, opts.delayMs));
      if (r.token.startsWith('transient')) throw new UpstreamFailed('ProbeTransient');
      if (r.token.startsWith('broken')) throw new UpstreamContractChanged('metasearch', 'probe');
      const observedAt = new Date().toISOString();
      const col = collectionId('metasearch', newFetchNonce());
      const nights = r.token.startsWith('empty') ? 0 : r.days;
      const rates = Array.from({ length: nights }, (_, i) => {
        const date = new Date(Date.parse(r.start) + i * 86_400_000).toISOString().slice(0, 10);
        const rate_total = (opts.base ?? 100) + i;
        const checkOut = new Date(Date.parse(date) + r.los * 86_400_000).toISOString().slice(0, 10);
        return {
          date,
          rate_total,
          provenance: buildProvenance({
            checkIn: date,
            checkOut,
            adults: r.adults,
            collectionId: col,
            observedAt: new Date(observedAt),
            source: 'metasearch',
            sourceKind: 'calendar',
            collector: 'probe',
            sourcePropertyId: r.token,
            requestedMarket: r.market,
            requestedCurrency: r.currency,
            returnedCurrency: r.currency,
            egressMode: 'direct',
            priceBasis: 'stay_total_including_taxes_and_fees',
            derivation: 'upstream',
            upstreamRateId: null,
          }),
        };
      });
      return {
        token: r.token,
        collection_id: col,
        observed_at: observedAt,
        market: r.market,
        requested_days: r.days,
        coverage: Math.round((nights / r.days) * 10_000) / 10_000,
        wire_bytes: 1000 + nights,
        elapsed_s: 0.01,
        calendar_elapsed_s: 0.01,
        egress_mode: 'direct',
        tax_profile: null,
        unpriced_dates: [],
        validation: {},
        rates,
      };
    },
  };
}
