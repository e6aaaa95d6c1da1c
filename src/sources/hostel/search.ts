/**
 * Hostel site (single-source route): destination autocomplete and the city property list of its
 * PWA backend (`.../autocomplete-service/v1/autocomplete/web?text=` and
 * `.../legacy-hwapi-service/2.2/cities/{id}/properties/?date-start=&num-nights=`).
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, at, numeric, text, type Json } from '../../domain/json.js';

export interface HostelPlace {
  id: string;
  name: string;
  /** city, popular places, property, … as the service labels it. */
  type: string;
  city_id: string | null;
  city: string | null;
  country: string | null;
}

interface HostelListing {
  position: number | null;
  property_id: string;
  name: string;
  type: string;
  /** Overall rating as the site states it, on its 0-100 scale. */
  rating: number | null;
  review_count: number | null;
  star_rating: number | null;
  currency: string | null;
  lowest_price_per_night: number | null;
  lowest_dorm_price_per_night: number | null;
  lowest_private_price_per_night: number | null;
  /** Average over the stay, after promotions, with the pre-promotion figure when stated. */
  lowest_average_price_per_night: number | null;
  lowest_average_original_price_per_night: number | null;
  /** As the listing states it; null when it does not say. */
  free_cancellation: boolean | null;
  free_cancellation_until: string | null;
  address: string;
  district: string;
  latitude: number | null;
  longitude: number | null;
  distance: { value: number; units: string } | null;
  images: string[];
}

export interface HostelCityPage {
  city_id: string | null;
  city: string | null;
  country: string | null;
  total_results: number | null;
  pages: number | null;
  properties: HostelListing[];
}

export function parseHostelAutocomplete(payload: Json): HostelPlace[] {
  if (!Array.isArray(payload)) throw new UpstreamContractChanged('hostel', 'autocomplete array');
  return arr(payload).map((p) => {
    const city = at(p, 'city');
    return {
      id: text(p, 'id'),
      name: text(p, 'name'),
      type: text(p, 'type'),
      city_id: city ? text(city, 'id') : at(p, 'type') === 'city' ? text(p, 'id') : null,
      city: city ? text(city, 'name') : null,
      country: city ? text(city, 'country') : null,
    };
  });
}

function listing(p: Json): HostelListing {
  const avg = at(p, 'lowestAveragePricePerNight');
  const images = arr(at(p, 'imagesGallery') ?? at(p, 'images'))
    .map((im) => {
      const prefix = at(im, 'prefix');
      const suffix = at(im, 'suffix');
      return prefix && suffix ? `https://${text(prefix)}${text(suffix)}` : '';
    })
    .filter(Boolean);
  const distance = numeric(p, 'distance', 'value');
  const freeCancellation = at(p, 'freeCancellationAvailable');
  return {
    position: numeric(p, 'position'),
    property_id: text(p, 'id'),
    name: text(p, 'name'),
    type: text(p, 'type'),
    rating: numeric(p, 'overallRating', 'overall'),
    review_count: numeric(p, 'overallRating', 'numberOfRatings'),
    star_rating: numeric(p, 'starRating') || null,
    currency: text(p, 'lowestPricePerNight', 'currency') || null,
    lowest_price_per_night: numeric(p, 'lowestPricePerNight', 'value'),
    lowest_dorm_price_per_night: numeric(p, 'lowestDormPricePerNight', 'value'),
    lowest_private_price_per_night: numeric(p, 'lowestPrivatePricePerNight', 'value'),
    lowest_average_price_per_night: numeric(avg, 'value'),
    lowest_average_original_price_per_night: numeric(avg, 'original'),
    free_cancellation: typeof freeCancellation === 'boolean' ? freeCancellation : null,
    free_cancellation_until: text(p, 'freeCancellationAvailableUntil') || null,
    address: [text(p, 'address1'), text(p, 'address2')].filter(Boolean).join(', '),
    district: text(p, 'district', 'name'),
    latitude: numeric(p, 'latitude'),
    longitude: numeric(p, 'longitude'),
    distance: distance != null ? { value: distance, units: text(p, 'distance', 'units') } : null,
    images,
  };
}

export function parseHostelCityProperties(payload: Json): HostelCityPage {
  const properties = arrOrNull(payload, 'properties');
  if (!properties) throw new UpstreamContractChanged('hostel', 'properties[]');
  const city = at(payload, 'location', 'city');
  return {
    city_id: city ? text(city, 'id') : null,
    city: city ? text(city, 'name') : null,
    country: city ? text(city, 'country') : null,
    total_results: numeric(payload, 'pagination', 'totalNumberOfItems'),
    pages: numeric(payload, 'pagination', 'numberOfPages'),
    properties: properties.map((p) => listing(p)),
  };
}
