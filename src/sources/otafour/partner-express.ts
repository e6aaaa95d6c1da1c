/**
 * Partner-network express rates (`getHotelExpress.Results`): hotels with rooms and merchant rate
 * data priced in baseline, source and display currencies — one rate shown in a converted
 * currency, the same idea as `otafour`'s 23 display currencies. Parsed into the `otafour`
 * room/offer shape. This is the group's B2B partner API, not the `otafour` site's own page.
 */
import { UpstreamContractChanged } from '../../platform/errors.js';
import { num, text } from '../shared/json-values.js';

type Json = any;

export interface OtafourOffer {
  rate_id: string;
  /** Average nightly price before taxes, in the display currency. */
  price: number | null;
  currency: string;
  currency_code: string;
  /** The reply carries numbers only, so there is no displayed text. */
  price_text: string;
  /** false when the taxes are stated as exclusive, true when inclusive, null when unstated. */
  tax_inclusive: boolean | null;
  /** e.g. "10%" from the stated saving; null when none. */
  discount: string | null;
  free_cancellation: boolean;
  total: number | null;
  taxes: number | null;
  nights: number | null;
  board: string;
  payment_type: string;
  inventory_type: string;
  cancellation_text: string;
}

export interface OtafourRoom {
  name: string;
  offers: OtafourOffer[];
}

export interface OtafourProperty {
  property_id: string;
  name: string;
  address: string;
  star_rating: number | null;
  review_rating: number | null;
  latitude: number | null;
  longitude: number | null;
  /** Display symbol, e.g. "$". */
  currency_display: string | null;
  rooms: OtafourRoom[];
}

function taxInclusive(pd: Json): boolean | null {
  const attrs: string[] = (pd?.attribute_data?.tax_data ?? []).map((t: Json) => text(t?.attribute).toLowerCase());
  if (attrs.includes('exclusive')) return false;
  if (attrs.includes('inclusive')) return true;
  return null;
}

function offer(rate: Json): OtafourOffer {
  const pd = rate?.price_details ?? {};
  const saving = num(rate?.benchmark_price_details?.saving_percentage);
  const cancellable = text(rate?.is_cancellable ?? rate?.policy_data?.is_cancellable).toLowerCase();
  return {
    rate_id: text(rate?.rate_plan_code),
    price: num(pd.display_price),
    currency: text(pd.display_currency),
    currency_code: text(pd.display_currency),
    price_text: '',
    tax_inclusive: taxInclusive(pd),
    discount: saving != null && saving > 0 ? `${saving}%` : null,
    free_cancellation: cancellable === 'true',
    total: num(pd.display_total),
    taxes: num(pd.display_taxes),
    nights: Array.isArray(pd.night_price_data) ? pd.night_price_data.length : null,
    board: text(rate?.board_type),
    payment_type: text(rate?.payment_type),
    inventory_type: text(rate?.inventory_type),
    cancellation_text: text(rate?.policy_data?.cancel_policy_description),
  };
}

function property(h: Json): OtafourProperty {
  const a = h?.address ?? {};
  const rooms: OtafourRoom[] = (h?.room_data ?? []).map((r: Json) => {
    const rates: Json[] = Array.isArray(r?.rate_data) ? r.rate_data : [];
    return { name: text(rates[0]?.title), offers: rates.map(offer) };
  });
  const firstRate = h?.room_data?.[0]?.rate_data?.[0];
  return {
    property_id: text(h?.id),
    name: text(h?.name),
    address: [a.address_line_one, a.city_name, a.state_code, a.country_code].map(text).filter(Boolean).join(', '),
    star_rating: num(h?.star_rating),
    review_rating: num(h?.review_rating),
    latitude: num(h?.geo?.latitude),
    longitude: num(h?.geo?.longitude),
    currency_display: text(firstRate?.price_details?.display_symbol) || null,
    rooms,
  };
}

export function parseOtafourPartnerResults(payload: Json): OtafourProperty[] {
  const results = payload?.['getHotelExpress.Results']?.results;
  if (!results || !Array.isArray(results.hotel_data)) {
    throw new UpstreamContractChanged('otafour', 'getHotelExpress.Results.results.hotel_data');
  }
  return results.hotel_data.map(property);
}

/** Cheapest priced offer across rooms, the headline `price_per_night` of the spec. */
export function cheapestOtafourOffer(p: OtafourProperty): OtafourOffer | null {
  let best: OtafourOffer | null = null;
  for (const r of p.rooms) for (const o of r.offers) if (o.price != null && (best == null || o.price < (best.price as number))) best = o;
  return best;
}
