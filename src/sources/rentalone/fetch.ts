/**
 * `rentalone` I/O: optional listing-id resolution (one page load), then the stay quote from the
 * group gateway's ancillary offers operation; parsing in `quote.ts` and `listing-page.ts`.
 */
import { BadRequest } from '../../domain/errors.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { guards } from './guards.js';
import { callPropertyOffers, type GroupContext } from '../shared/group-gateway.js';
import { OPERATIONS } from '../shared/group-graphql.js';
import { checkStatus, priceProvenance, seconds } from '../shared/observation.js';
import { withHeadlineProvenance, withOfferProvenance } from '../shared/ota-schemas.js';
import { assertStayAnswered, stayWindow } from '../shared/stay.js';
import { parseRentaloneListingPage } from './listing-page.js';
import { parseRentaloneQuote } from './quote.js';

const COLLECTOR = 'rentalone.graphql';

export interface RentaloneInput {
  property_id?: string | null;
  listing_id?: string | null;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  market: 'US';
}

export async function fetchRentaloneQuote(deps: GroupContext, input: RentaloneInput) {
  if (!input.property_id && !input.listing_id) throw new BadRequest('url, listing_id or property_id is required: the Vrbo listing to quote');
  const stay = stayWindow(input, 28);
  const upstream = deps.upstream;
  let propertyId = input.property_id ?? null;
  let wire = 0;
  let elapsed = 0;
  if (!propertyId) {
    const notFound = `rentalone listing ${input.listing_id} not found`;
    const page = await upstream.fetch({ source: 'rentalone', path: `/${encodeURIComponent(input.listing_id as string)}`, market: 'US', notFound });
    checkStatus(page);
    propertyId = await withContractGuard('rentalone', page, (r) => parseRentaloneListingPage(r.text()));
    wire += page.wireBytes;
    elapsed += page.elapsedMs;
  }
  const id = propertyId;
  const {
    parsed: quote,
    obs,
    pos,
  } = await callPropertyOffers(
    deps,
    'rentalone',
    guards.drift.quote,
    OPERATIONS.ancillaryOffers,
    { market: input.market, propertyId: id, window: stay, adults: input.adults },
    (data, pos) =>
      parseRentaloneQuote(data, {
        propertyId: id,
        listingId: input.property_id ? null : (input.listing_id ?? null),
        marketCurrency: pos.currency,
        nights: stay.nights,
      }),
  );
  assertStayAnswered(stay, { checkIn: quote.check_in, checkOut: quote.check_out });
  const key = { propertyId: id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.adults };
  const offers = quote.offers.map((o) =>
    withOfferProvenance(o, obs, key, {
      sourceKind: 'vacation_rental_stay_quote',
      collector: COLLECTOR,
      market: input.market,
      requestedCurrency: pos.currency,
      priceBasis: o.fees_included ? 'stay_total_fees_included' : 'stay_rate_plan',
    }),
  );
  const headline = { ...quote.property, listing_id: input.property_id ? null : (input.listing_id ?? null) };
  const provenance = priceProvenance(obs, key, {
    sourceKind: 'vacation_rental_stay_quote',
    collector: COLLECTOR,
    market: input.market,
    requestedCurrency: pos.currency,
    returnedCurrency: headline.total != null ? headline.currency : null,
    priceBasis: 'stay_headline',
    derivation: 'normalized_upstream',
    rateId: null,
  });
  return {
    search_parameters: {
      engine: 'ota_rentalone',
      property_id: id,
      ...(input.listing_id ? { listing_id: input.listing_id } : {}),
      check_in_date: stay.checkIn,
      check_out_date: stay.checkOut,
      adults: input.adults,
      market: input.market,
      currency: pos.currency,
    },
    property: withHeadlineProvenance(headline, provenance),
    offers,
    meta: {
      source: 'rentalone' as const,
      nights: stay.nights,
      wire_bytes: wire + obs.wireBytes,
      listing_resolved: !input.property_id,
      elapsed_s: seconds(elapsed + obs.elapsedMs),
      egress_mode: obs.egressMode,
      collection_id: obs.collectionId,
      observed_at: obs.observedAt.toISOString(),
    },
  };
}
