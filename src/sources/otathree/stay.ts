/**
 * `POST /v1/ota/otathree`: headline object and room grid for one stay, from the group's
 * `propertyOffers` reply (same document as `otatwo`).
 */
import { bookableRows, parseOfferGrid, statedRooms, toOffer, type OfferGrid } from '../otatwo/offer-grid.js';
import { cheapestOffer, parseDisplayedAmount, type OtaHeadline, type OtaOffer } from '../shared/offer.js';
import type { Json } from '../../domain/json.js';

interface OtathreeRoom {
  unit_id: string;
  name: string;
  cheapest_total: number | null;
  offers: OtaOffer[];
}

export interface OtathreeStay {
  property: OtaHeadline;
  /** Empty when the caller asked for the headline only. */
  rooms: OtathreeRoom[];
  nights: number | null;
  check_in: string | null;
  check_out: string | null;
  room_types: number;
  offers: number;
  /** Rooms the offers' prices cover, as the reply states (parity compares like with like); null when it does not. */
  room_count: number | null;
}

export interface OtathreeContext {
  propertyId: string;
  /** USD for market US, CAD for CA. */
  marketCurrency: string;
  /** false: headline only (rooms = [], cheapest_total = null). */
  rooms?: boolean;
  nights?: number;
}

/**
 * Headline: the page's own sticky-bar price when shown (basis sticky_bar), else the cheapest
 * offer (basis cheapest_offer). The sticky bar states a nightly price only; its total is taken
 * from the offer displaying that same nightly text, and stays null when no offer does.
 * Nightly is rounded to whole units.
 */
function buildHeadline(grid: OfferGrid, ctx: OtathreeContext): OtaHeadline {
  const bookable = bookableRows(grid);
  const cheapest = cheapestOffer(bookable);
  const currency = grid.currency;
  const sticky = grid.sticky_bar_text ? parseDisplayedAmount(grid.sticky_bar_text) : null;
  const base = {
    property_id: grid.property_id || ctx.propertyId,
    currency,
    currency_verified: grid.currency != null && grid.currency === ctx.marketCurrency,
    cheapest_total: ctx.rooms === false ? null : (cheapest?.total ?? null),
  };
  const available = bookable.length > 0 && !grid.sold_out;
  const reason = available ? null : grid.error_message;
  if (sticky != null && available) {
    const same = cheapestOffer(bookable.filter((r) => r.nightly_text === grid.sticky_bar_text));
    return {
      ...base,
      total: same?.total ?? null,
      price_per_night: Math.round(sticky),
      basis: 'sticky_bar',
      total_text: same?.total_text ?? '',
      nightly_text: grid.sticky_bar_text,
      taxes_and_fees_included: same?.taxes_and_fees_included ?? null,
      fees_included: same?.fees_included ?? null,
      available,
      unavailable_reason: reason,
    };
  }
  if (cheapest && available) {
    return {
      ...base,
      total: cheapest.total,
      price_per_night: cheapest.nightly == null ? null : Math.round(cheapest.nightly),
      basis: 'cheapest_offer',
      total_text: cheapest.total_text,
      nightly_text: cheapest.nightly_text,
      taxes_and_fees_included: cheapest.taxes_and_fees_included,
      fees_included: cheapest.fees_included,
      available,
      unavailable_reason: reason,
    };
  }
  return {
    ...base,
    total: null,
    price_per_night: null,
    basis: null,
    total_text: '',
    nightly_text: '',
    taxes_and_fees_included: null,
    fees_included: null,
    available: false,
    unavailable_reason: reason,
  };
}

export function parseOtathreeStay(payload: Json, ctx: OtathreeContext): OtathreeStay {
  const grid = parseOfferGrid('otathree', payload, { nights: ctx.nights });
  const rooms: OtathreeRoom[] =
    ctx.rooms === false
      ? []
      : grid.units.map((u) => {
          const offers = u.rows.filter((r) => r.available).map(toOffer);
          return { unit_id: u.unit_id, name: u.name, cheapest_total: cheapestOffer(offers)?.total ?? null, offers };
        });
  return {
    property: buildHeadline(grid, ctx),
    rooms,
    nights: grid.nights,
    check_in: grid.check_in,
    check_out: grid.check_out,
    room_count: statedRooms(grid),
    room_types: rooms.length,
    offers: rooms.reduce((n, r) => n + r.offers.length, 0),
  };
}
