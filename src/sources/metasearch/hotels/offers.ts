/**
 * Seller records of a property page → the contract's Offer and Room objects (POST /v1/offers,
 * /v1/rooms). Which figure a displayed price fills depends on the page's display basis (prices
 * shown with or without taxes, judged against the reply's own breakdown); a price whose basis is
 * unknown stays in the headline field only.
 */
import { z } from 'zod';
import { ProvenanceSchema } from '../../../domain/provenance.js';
import { UPSTREAM_HOSTS } from '../../../config/hosts.js';
import type { DisplayBasis } from './parse-detail.js';
import type { PricePair, RoomRateRecord, SellerRecord } from './parse-sellers.js';
import { pairDerivation, provenance, SOURCE_KINDS, totalBasis, type PriceContext } from './prices.js';

export const RoomSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  link: z.string().nullable(),
  price_before_taxes: z.number().nullable(),
  price_total: z.number().nullable(),
  /** As displayed, whatever its basis. */
  price_text: z.string().nullable(),
  is_suite: z.boolean(),
  beds: z.int().nullable(),
  /** null when the seller entry states no cancellation terms. */
  has_free_cancellation: z.boolean().nullable(),
  free_cancellation_until: z.string().nullable(),
  free_cancellation_time: z.string().nullable(),
  thumbnail: z.string().nullable(),
  provenance: ProvenanceSchema.nullable(),
});
type Room = z.infer<typeof RoomSchema>;

export const OfferSchema = z.object({
  source: z.string(),
  raw_source: z.string(),
  is_official: z.boolean(),
  currency: z.string().nullable(),
  nights: z.int(),
  room_id: z.string().nullable(),
  price_per_night: z.number().nullable(),
  price_per_night_before_taxes: z.number().nullable(),
  total: z.number().nullable(),
  tax: z.number().nullable(),
  fees: z.number().nullable(),
  /** null when the seller entry states no cancellation terms. */
  has_free_cancellation: z.boolean().nullable(),
  free_cancellation_until: z.string().nullable(),
  free_cancellation_time: z.string().nullable(),
  /** Not read from this source: null (not an empty list or false, which would claim there are none). */
  discount_remarks: z.array(z.string()).nullable(),
  has_member_rate: z.boolean().nullable(),
  headline_price_total: z.number().nullable(),
  headline_price_before_taxes: z.number().nullable(),
  price_derived_from_room: z.boolean(),
  /** The seller's listing through the engine (an ad click for sponsored sellers). */
  link: z.string().nullable(),
  sponsored: z.boolean(),
  provenance: ProvenanceSchema,
  rooms: z.array(RoomSchema),
});
export type Offer = z.infer<typeof OfferSchema>;

/**
 * Sellers that are themselves metasearch sites (their links open a search of theirs, not a booking
 * page): left out unless include_metasearch. Matched on the normalized seller name.
 */
const METASEARCH_SELLERS = new Set([
  'trivago',
  'trivago_deals',
  'kayak',
  'bluepillow',
  'hometogo',
  'dealbase',
  'vio',
  'goseek',
  'etrip',
  'momondo',
  'skyscanner',
  'hotelscombined',
]);

/** "Expedia.dk" → "expedia", "trivago DEALS" → "trivago_deals": lower case, domain ending dropped. */
export function normalizeSeller(name: string): string {
  return name
    .toLowerCase()
    .replace(/\.(com?|net|org)(\.[a-z]{2})?$|\.[a-z]{2,3}$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

export function absoluteLink(link: string | null): string | null {
  if (!link) return null;
  if (link.startsWith('//')) return `https:${link}`;
  return link.startsWith('/') ? UPSTREAM_HOSTS.metasearch + link : link;
}

const SUITE = /\bsuites?\b/i;

function roomOf(r: RoomRateRecord, basis: DisplayBasis, ctx: PriceContext, currency: string | null, seller: SellerRecord): Room | null {
  if (!r.room_name) return null;
  const price = r.total ?? r.nightly;
  const amount = r.total?.amount ?? null;
  return {
    name: r.room_name,
    description: null,
    link: absoluteLink(r.link),
    price_total: basis === 'all_in' ? amount : null,
    price_before_taxes: basis === 'before_taxes' ? amount : null,
    price_text: price?.text ?? null,
    is_suite: SUITE.test(r.room_name),
    beds: null,
    has_free_cancellation: r.cancellation.free,
    free_cancellation_until: r.cancellation.until,
    free_cancellation_time: r.cancellation.time,
    thumbnail: null,
    provenance:
      amount === null
        ? null
        : provenance(ctx, {
            sourceKind: SOURCE_KINDS.seller,
            basis: totalBasis(basis),
            derivation: pairDerivation(r.total),
            rateId: `${seller.partner_id ?? seller.name}:${r.room_name}`,
            returnedCurrency: currency,
          }),
  };
}

function cheapestRoom(rooms: RoomRateRecord[]): RoomRateRecord | null {
  let best: RoomRateRecord | null = null;
  for (const r of rooms) if (r.total?.amount != null && (best === null || r.total.amount < (best.total?.amount ?? Infinity))) best = r;
  return best;
}

export function offerOf(s: SellerRecord, basis: DisplayBasis, ctx: PriceContext, currency: string | null, nights: number): Offer {
  let nightly: PricePair | null = s.nightly;
  let total: PricePair | null = s.total;
  let fromRoom = false;
  if (!nightly?.amount && !total?.amount) {
    const room = cheapestRoom(s.rooms);
    if (room) {
      nightly = room.nightly;
      total = room.total;
      fromRoom = true;
    }
  }
  const n = nightly?.amount ?? null;
  const t = total?.amount ?? null;
  const headline = total ?? nightly;
  return {
    source: normalizeSeller(s.name),
    raw_source: s.name,
    is_official: s.is_official,
    currency,
    nights,
    room_id: null,
    price_per_night: basis === 'all_in' ? n : null,
    price_per_night_before_taxes: basis === 'before_taxes' ? n : null,
    total: basis === 'all_in' ? t : null,
    tax: null,
    fees: null,
    has_free_cancellation: s.cancellation.free,
    free_cancellation_until: s.cancellation.until,
    free_cancellation_time: s.cancellation.time,
    discount_remarks: null,
    has_member_rate: null,
    headline_price_total: basis === 'before_taxes' ? null : t,
    headline_price_before_taxes: basis === 'before_taxes' ? t : null,
    price_derived_from_room: fromRoom,
    link: absoluteLink(s.link),
    sponsored: s.featured,
    provenance: provenance(ctx, {
      sourceKind: SOURCE_KINDS.seller,
      basis: totalBasis(basis),
      derivation: pairDerivation(headline),
      rateId: s.partner_id ?? s.name,
      returnedCurrency: currency,
    }),
    rooms: s.rooms.flatMap((r) => roomOf(r, basis, ctx, currency, s) ?? []),
  };
}

export interface OfferFilter {
  includeMetasearch: boolean;
  freeCancellationOnly: boolean;
}

export function keepOffer(o: Offer, f: OfferFilter): boolean {
  if (!f.includeMetasearch && METASEARCH_SELLERS.has(o.source)) return false;
  if (f.freeCancellationOnly && !(o.has_free_cancellation && o.free_cancellation_until)) return false;
  return true;
}

/** Whether a required source (normalized name, or "official") is among the offers. */
export function offersInclude(offers: Offer[], required: string): boolean {
  const want = normalizeSeller(required);
  return offers.some((o) => (want === 'official' ? o.is_official : o.source === want));
}
