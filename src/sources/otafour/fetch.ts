/** `otafour` I/O: the property page's room-grid JSON for one stay, in one display currency, and the search box's suggestions. */
import { guards } from './guards.js';
import type { SourceUses } from '../context.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import type { Provenance } from '../../domain/provenance.js';
import { checkStatus, observe, priceProvenance, seconds } from '../shared/observation.js';
import { stayWindow } from '../shared/stay.js';
import type { TypeaheadHit } from '../shared/typeahead.js';
import { parseOtafourSecondaryData, type OtafourGridOffer } from './secondary-data.js';
import { SUGGEST_PATH, parseOtafourSuggest, suggestQuery } from './suggest.js';

export const OTAFOUR_CURRENCIES = [
  'AED',
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CZK',
  'EUR',
  'GBP',
  'HKD',
  'IDR',
  'INR',
  'JPY',
  'KRW',
  'MYR',
  'NZD',
  'PHP',
  'PLN',
  'SEK',
  'SGD',
  'THB',
  'TWD',
  'USD',
  'ZAR',
] as const;

export const SECONDARY_DATA_PATH = '/api/cronos/property/BelowFoldParams/GetSecondaryData';
/** Public clients report the display currency follows this cookie's CurLabel, not only the query. */
const CURRENCY_COOKIE = 'agoda.version.03';

export interface OtafourInput {
  property_id: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  rooms: number;
  currency: (typeof OTAFOUR_CURRENCIES)[number];
}

function basis(o: OtafourGridOffer): string {
  if (o.tax_inclusive === true) return 'nightly_including_taxes_and_fees';
  if (o.tax_inclusive === false) return 'nightly_before_taxes';
  return 'nightly_display_price';
}

export async function fetchOtafour(deps: SourceUses<'upstream'>, input: OtafourInput) {
  const stay = stayWindow(input, 30);
  const response = await deps.upstream.fetch({
    source: 'otafour',
    path: SECONDARY_DATA_PATH,
    query: {
      hotel_id: input.property_id,
      checkIn: stay.checkIn,
      los: stay.nights,
      adults: input.adults,
      children: 0,
      rooms: input.rooms,
      currencyCode: input.currency,
      all: 'false',
      price_view: 1,
      pagetypeid: 7,
    },
    headers: { cookie: `${CURRENCY_COOKIE}=CurLabel=${input.currency}` },
    expect: 'json',
    notFound: `otafour property ${input.property_id} not found`,
  });
  checkStatus(response);
  const obs = observe('otafour', response);
  const grid = await withContractGuard('otafour', response, (r) => parseOtafourSecondaryData(r.json(), input.property_id), {
    rule: guards.drift.rooms,
  });
  const key = { propertyId: input.property_id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.adults };
  const prov = (o: OtafourGridOffer): Provenance =>
    priceProvenance(obs, key, {
      sourceKind: 'ota_offer',
      collector: 'otafour.secondary_data',
      market: null,
      requestedCurrency: input.currency,
      returnedCurrency: o.currency,
      priceBasis: basis(o),
      derivation: 'upstream',
      rateId: o.rate_id,
    });
  const rooms = grid.rooms.map((r) => ({
    name: r.name,
    offers: r.offers
      .filter((o) => o.price != null)
      .map((o) => ({
        price: o.price,
        // Read back from the row or grid only; the requested currency is in search_parameters.
        currency: o.currency,
        currency_code: o.currency,
        // The grid states numbers only; no displayed price text to report.
        price_text: null,
        tax_inclusive: o.tax_inclusive,
        discount: o.discount,
        free_cancellation: o.free_cancellation,
        provenance: prov(o),
      })),
  }));
  const all = rooms.flatMap((r) => r.offers);
  const cheapest = all.reduce<(typeof all)[number] | null>((b, o) => (b == null || (o.price as number) < (b.price as number) ? o : b), null);
  return {
    search_parameters: {
      engine: 'ota_otafour',
      property_id: input.property_id,
      check_in_date: stay.checkIn,
      check_out_date: stay.checkOut,
      adults: input.adults,
      rooms: input.rooms,
      currency: input.currency,
    },
    property: {
      property_id: grid.property_id,
      name: grid.name,
      price_per_night: cheapest?.price ?? null,
      currency: cheapest?.currency ?? null,
      currency_display: grid.currency_display,
      tax_inclusive: cheapest?.tax_inclusive ?? null,
      // The grid states no sold-out flag: an unpriced grid is not known to be sold out.
      sold_out: cheapest == null ? null : false,
      provenance: cheapest?.provenance ?? null,
      rooms: rooms.filter((r) => r.offers.length > 0),
    },
    meta: {
      source: 'otafour' as const,
      collection_id: obs.collectionId,
      observed_at: obs.observedAt.toISOString(),
      nights: stay.nights,
      wire_bytes: obs.wireBytes,
      elapsed_s: seconds(obs.elapsedMs),
      room_types: grid.rooms.length,
      offers: all.length,
      comparable_across_markets: true as const,
    },
  };
}

/** Name → numeric property id through the site's own suggestions (hotel entries only). */
export async function searchOtafour(deps: SourceUses<'upstream'>, query: string, limit: number): Promise<{ results: TypeaheadHit[]; market: string }> {
  const response = await deps.upstream.fetch({ source: 'otafour', path: SUGGEST_PATH, query: suggestQuery(query), expect: 'json' });
  checkStatus(response);
  const results = await withContractGuard('otafour', response, (r) => parseOtafourSuggest(r.json()));
  // The request says origin=US; the reply states no market of its own.
  return { results: results.slice(0, limit), market: 'US' };
}
