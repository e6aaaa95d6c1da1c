/**
 * Travel-review metasearch (single-source route): accommodation search results with the
 * cheapest advertiser's price per night and per stay. The shape is the metasearch's public
 * MCP search tool output (`accommodations[]`).
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arrOrNull, num, text, type Json } from '../../domain/json.js';
import { parseDisplayedAmount } from '../shared/offer.js';

export interface TravelreviewResult {
  position: number;
  accommodation_id: string;
  name: string;
  /** The stay the result was priced for, as the reply states it; null when it does not. */
  check_in: string | null;
  check_out: string | null;
  currency: string | null;
  price_per_night: number | null;
  price_per_night_text: string;
  price_per_stay: number | null;
  price_per_stay_text: string;
  /** The advertiser offering that price (an OTA or the hotel). */
  advertiser: string;
  /** Star class; null when the source gives 0 (unclassified). */
  hotel_class: number | null;
  location: string;
  review_score: number | null;
  review_count: number | null;
  amenities: string[];
  url: string;
  latitude: number | null;
  longitude: number | null;
  distance: string;
  image: string;
}

export function parseTravelreviewSearch(payload: Json): TravelreviewResult[] {
  const list = arrOrNull(payload, 'accommodations');
  if (!list) throw new UpstreamContractChanged('travelreview', 'accommodations[]');
  return list.map((a, i) => {
    const night = text(a, 'price_per_night');
    const stay = text(a, 'price_per_stay');
    const stars = num(a, 'hotel_rating');
    return {
      position: i + 1,
      accommodation_id: text(a, 'accommodation_id'),
      name: text(a, 'accommodation_name'),
      check_in: text(a, 'arrival') || null,
      check_out: text(a, 'departure') || null,
      currency: text(a, 'currency') || null,
      price_per_night: parseDisplayedAmount(night),
      price_per_night_text: night,
      price_per_stay: parseDisplayedAmount(stay),
      price_per_stay_text: stay,
      advertiser: text(a, 'advertisers'),
      hotel_class: stars ? stars : null,
      location: text(a, 'country_city'),
      review_score: parseDisplayedAmount(text(a, 'review_rating')),
      review_count: parseDisplayedAmount(text(a, 'review_count')),
      amenities: text(a, 'top_amenities')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      url: text(a, 'accommodation_url'),
      latitude: num(a, 'latitude'),
      longitude: num(a, 'longitude'),
      distance: text(a, 'distance'),
      image: text(a, 'main_image'),
    };
  });
}
