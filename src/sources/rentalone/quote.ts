/**
 * `POST /v1/ota/rentalone` (stay quote). The rental platform belongs to the same travel group and
 * answers the same `propertyOffers` GraphQL document; a rental is one unit, usually carried in
 * `singleUnitOffer`. The total is the platform's own figure; fees and taxes are not itemised.
 */
import { bookableRows, parseOfferGrid, toOffer } from '../otatwo/offer-grid.js';
import { cheapestOffer, type OtaHeadline, type OtaOffer } from '../shared/offer.js';
import type { Json } from '../../domain/json.js';

export interface RentaloneQuote {
  property: OtaHeadline;
  offers: OtaOffer[];
  nights: number | null;
  check_in: string | null;
  check_out: string | null;
}

export interface RentaloneContext {
  propertyId: string;
  /** Echoed as sent; null when only property_id was sent. */
  listingId: string | null;
  /** USD: the only market. */
  marketCurrency: string;
  nights?: number;
}

/** The spec fixes these fields for this source. */
function asRentalOffer(o: OtaOffer): OtaOffer {
  return { ...o, refundable: null, cancellation_text: '', extras: null, extras_text: '' };
}

export function parseRentaloneQuote(payload: Json, ctx: RentaloneContext): RentaloneQuote {
  const grid = parseOfferGrid('rentalone', payload, { nights: ctx.nights });
  const rows = bookableRows(grid);
  const offers = rows.map((r) => asRentalOffer(toOffer(r)));
  const cheapest = cheapestOffer(offers);
  const available = cheapest != null && !grid.sold_out;
  const currency = grid.currency;
  const property: OtaHeadline = {
    property_id: grid.property_id || ctx.propertyId,
    listing_id: ctx.listingId,
    total: available ? cheapest.total : null,
    price_per_night: available ? cheapest.nightly : null,
    basis: available ? 'cheapest_offer' : null,
    total_text: available ? cheapest.total_text : '',
    nightly_text: available ? cheapest.nightly_text : '',
    taxes_and_fees_included: available ? cheapest.taxes_and_fees_included : null,
    fees_included: available ? cheapest.fees_included : null,
    currency,
    currency_verified: grid.currency != null && grid.currency === ctx.marketCurrency,
    available,
    unavailable_reason: available ? null : grid.error_message,
    payment_model: available ? cheapest.payment_model || null : null,
  };
  return { property, offers, nights: grid.nights, check_in: grid.check_in, check_out: grid.check_out };
}
