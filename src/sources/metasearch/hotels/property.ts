/**
 * One property's page → the details of POST /v1/hotels/property and the compatible
 * `google_hotels_property` body. Loading goes through fetchPropertyPage; an unknown token is a 404.
 */
import { z } from 'zod';
import type { SourceUses } from '../../context.js';
import { NotFound } from '../../../domain/errors.js';
import type { Device } from '../../../upstream/devices.js';
import type { SearchTimer } from '../../shared/search-metadata.js';
import { fetchPropertyPage, type Fetched } from './fetch.js';
import { absoluteLink } from './offers.js';
import type { DetailRecord, DisplayBasis } from './parse-detail.js';
import { extractAmount, type PropertyRecord } from './parse-property.js';
import type { PricePair, SellerRecord } from './parse-sellers.js';
import { stayPrices, StayPricesSchema, type PriceContext } from './prices.js';
import { decodePropertyToken } from './requests.js';
import type { StayDates } from './stay.js';
import { toCompatProperty } from './to-compat.js';

export interface PropertyRequest {
  token: string;
  stay: StayDates;
  adults: number;
  childrenAges?: number[];
  currency: string;
  gl: string;
  hl: string;
  market?: string;
  device?: Device;
  timer?: SearchTimer;
}

/** Fetches a property page; a token that does not decode, or that the engine does not know, is a 404. */
export async function loadProperty(deps: SourceUses<'upstream'>, r: PropertyRequest): Promise<Fetched<DetailRecord>> {
  if (!decodePropertyToken(r.token)) throw new NotFound('property not found: the token is not a property token');
  const fetched = await fetchPropertyPage(
    deps,
    r.token,
    { checkIn: r.stay.checkIn, checkOut: r.stay.checkOut, adults: r.adults, children: r.childrenAges, currency: r.currency, gl: r.gl, hl: r.hl },
    { market: r.market ?? r.gl, device: r.device, timer: r.timer },
  );
  if (!fetched.data) throw new NotFound('property not found');
  return fetched as Fetched<DetailRecord>;
}

export function priceContext(
  f: Fetched<unknown>,
  r: { token: string; stay: StayDates; adults: number; market?: string | null; currency?: string | null },
): PriceContext {
  return {
    token: r.token,
    checkIn: r.stay.checkIn,
    checkOut: r.stay.checkOut,
    adults: r.adults,
    collectionId: f.collectionId,
    observedAt: f.observedAt,
    requestedMarket: r.market ?? null,
    requestedCurrency: r.currency ?? null,
    egressMode: f.egressMode,
  };
}

const Gps = z.object({ latitude: z.number(), longitude: z.number() });

export const PropertyDetailsSchema = z.object({
  type: z.enum(['hotel', 'vacation_rental']).nullable(),
  property_token: z.string(),
  name: z.string(),
  data_id: z.string().nullable(),
  description: z.string().nullable(),
  link: z.string().nullable(),
  gps_coordinates: Gps.nullable(),
  country: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  check_in_time: z.string().nullable(),
  check_out_time: z.string().nullable(),
  hotel_class: z.string().nullable(),
  extracted_hotel_class: z.int().nullable(),
  rating: z.number().nullable(),
  reviews: z.int().nullable(),
  reviews_histogram: z.record(z.string(), z.int()).nullable(),
  reviews_breakdown: z.array(
    z.object({
      name: z.string(),
      description: z.string().nullable(),
      total: z.int().nullable(),
      positive: z.int().nullable(),
      neutral: z.int().nullable(),
      negative: z.int().nullable(),
    }),
  ),
  location_rating: z.number().nullable(),
  amenities: z.array(z.string()),
  amenity_codes: z.array(z.tuple([z.int(), z.int()])),
  excluded_amenities: z.array(z.string()),
  essential_info: z.array(z.string()),
  eco_certified: z.boolean().nullable(),
  thumbnail: z.string().nullable(),
  images: z.array(z.object({ thumbnail: z.string(), original: z.string().nullable() })),
  nearby_places: z.array(z.object({ name: z.string(), transportations: z.array(z.object({ duration: z.string() })) })),
  rate: z
    .object({
      currency: z.string().nullable(),
      check_in: z.string().nullable(),
      check_out: z.string().nullable(),
      nights: z.int().nullable(),
      from_display_text: z.boolean(),
    })
    .nullable(),
  prices: StayPricesSchema.nullable(),
});
export type PropertyDetails = z.infer<typeof PropertyDetailsSchema>;

function amenityNames(p: PropertyRecord, available: boolean): string[] {
  return p.amenities.flatMap((a) => (a.available === available && a.name ? [a.name] : []));
}

export function propertyDetails(d: DetailRecord, token: string, ctx: PriceContext): PropertyDetails {
  const p = d.property;
  return {
    type: p.kind,
    property_token: p.property_token ?? token,
    name: p.name,
    data_id: p.data_id,
    description: p.description,
    link: p.link,
    gps_coordinates: p.gps_coordinates,
    country: p.country,
    address: d.address,
    phone: d.phone,
    check_in_time: p.check_in_time,
    check_out_time: p.check_out_time,
    hotel_class: p.hotel_class_text,
    extracted_hotel_class: p.hotel_class,
    rating: p.rating,
    reviews: p.reviews,
    reviews_histogram: p.reviews_histogram,
    reviews_breakdown: p.review_topics.map((t) => ({
      name: t.name,
      description: t.description,
      total: t.total,
      positive: t.positive,
      // the reply gives total, positive and negative; neutral is the remainder
      neutral: t.total !== null && t.positive !== null && t.negative !== null ? t.total - t.positive - t.negative : null,
      negative: t.negative,
    })),
    location_rating: p.location_rating,
    amenities: amenityNames(p, true),
    amenity_codes: d.amenity_codes,
    excluded_amenities: amenityNames(p, false),
    essential_info: p.essential_info,
    eco_certified: p.eco_certified,
    thumbnail: p.thumbnail,
    images: p.images,
    nearby_places: p.nearby_places.map((n) => ({ name: n.name, transportations: n.transportations.map((t) => ({ duration: t.duration })) })),
    rate: p.rate
      ? {
          currency: p.rate.currency,
          check_in: p.rate.check_in,
          check_out: p.rate.check_out,
          nights: p.rate.nights,
          from_display_text: p.rate.nightly_exact === null && p.rate.total_exact === null,
        }
      : null,
    prices: stayPrices(p.rate, d.display_basis, ctx),
  };
}

// ------------------------------------------------------------ compatible shape

function compatPrice(p: PricePair | null, basis: DisplayBasis): Record<string, unknown> | undefined {
  if (!p || (p.text === null && p.amount === null)) return undefined;
  const out: Record<string, unknown> = {};
  const [textKey, amountKey] = basis === 'before_taxes' ? ['price_before_taxes', 'extracted_price_before_taxes'] : ['price', 'extracted_price'];
  // the compatible API's extracted price is the displayed number, not the reply's exact one
  const shown = extractAmount(p.text) ?? p.amount;
  if (p.text !== null) out[textKey] = p.text;
  if (shown !== null) out[amountKey] = shown;
  return out;
}

function compatOffer(s: SellerRecord, basis: DisplayBasis): Record<string, unknown> {
  const o: Record<string, unknown> = { source: s.name };
  const link = absoluteLink(s.link);
  if (link) o.tracking_link = link;
  const logo = absoluteLink(s.logo);
  if (logo) o.logo = logo;
  if (s.is_official) o.is_official = true;
  const nightly = compatPrice(s.nightly, basis);
  const total = compatPrice(s.total, basis);
  if (nightly) o.price_per_night = nightly;
  if (total) o.total_price = total;
  if (s.cancellation.free) {
    o.has_free_cancellation = true;
    const until: Record<string, string> = {};
    if (s.cancellation.until) until.date = s.cancellation.until;
    if (s.cancellation.time) until.time = s.cancellation.time;
    if (Object.keys(until).length) o.free_cancellation_until = until;
  }
  const rooms = s.rooms.flatMap((r) => {
    if (!r.room_name) return [];
    const room: Record<string, unknown> = { name: r.room_name };
    const rl = absoluteLink(r.link);
    if (rl) room.link = rl;
    const rn = compatPrice(r.nightly, basis);
    const rt = compatPrice(r.total, basis);
    if (rn) room.price_per_night = rn;
    if (rt) room.total_price = rt;
    return [room];
  });
  if (rooms.length) o.rooms = rooms;
  return o;
}

/** The compatible API's `property` object of a google_hotels_property reply. */
export function toCompatPropertyDetail(d: DetailRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { ...toCompatProperty(d.property) };
  const ordered: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(out)) {
    // the property reply names a topic's mention count total_mentions (the search reply: total)
    ordered[k] =
      k === 'reviews_breakdown'
        ? (v as Record<string, unknown>[]).map(({ total, ...row }) => ({ name: row.name, description: row.description, total_mentions: total, ...row }))
        : v;
    if (k === 'description') {
      if (d.address) ordered.address = d.address;
      if (d.phone) ordered.phone = d.phone;
      if (d.phone_link) ordered.phone_link = d.phone_link;
    }
  }
  if (d.price_insights) {
    const pi: Record<string, unknown> = {};
    if (d.price_insights.lowest_price) pi.lowest_price = d.price_insights.lowest_price;
    if (d.price_insights.typical_low && d.price_insights.typical_high) {
      pi.typical_price_range = { low_price: d.price_insights.typical_low, high_price: d.price_insights.typical_high };
    }
    if (Object.keys(pi).length) ordered.price_insights = pi;
  }
  const featured = d.sellers.filter((s) => s.featured).map((s) => compatOffer(s, d.display_basis));
  if (featured.length) ordered.featured_offers = featured;
  if (d.sellers.length) ordered.all_offers = d.sellers.map((s) => compatOffer(s, d.display_basis));
  return ordered;
}
