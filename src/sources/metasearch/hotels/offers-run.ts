/**
 * POST /v1/offers, /v1/rooms and /v1/stay: one stay of one property, read from the property's
 * own page (every seller, their rooms, the headline price and its breakdown).
 */
import { z } from 'zod';
import type { SourceUses } from '../../context.js';
import type { Device } from '../../../upstream/devices.js';
import { ProvenanceSchema } from '../../../domain/provenance.js';
import type { Fetched } from './fetch.js';
import { nameScore } from './name-match.js';
import { keepOffer, offerOf, offersInclude, OfferSchema, RoomSchema, type Offer } from './offers.js';
import type { DetailRecord } from './parse-detail.js';
import { provenance, SOURCE_KINDS, stayPrices, StayPricesSchema } from './prices.js';
import { loadProperty, priceContext, type PropertyRequest } from './property.js';
import { pricingContext, stayDates, type StayDates } from './stay.js';

const DEVICES: Device[] = ['iphone', 'android', 'desktop'];
/** The official site plus the four OTAs the service also reads directly (otaone … otafour). */
const DEFAULT_REQUIRED_SOURCES = ['official', 'booking', 'expedia', 'hotels', 'agoda'];

export interface StayInput {
  token: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  market?: string | null;
  currency?: string | null;
  adults: number;
  device: Device;
  hl: string;
}

interface Loaded {
  request: PropertyRequest;
  stay: StayDates;
  pricing: ReturnType<typeof pricingContext>;
}

function prepare(input: StayInput, device: Device): Loaded {
  const stay = stayDates(input.check_in, input.check_out, input.nights);
  const pricing = pricingContext(input.market, input.currency);
  return {
    stay,
    pricing,
    request: { token: input.token, stay, adults: input.adults, currency: pricing.currency, gl: pricing.gl, hl: input.hl, market: pricing.market?.code, device },
  };
}

function ctxOf(f: Fetched<DetailRecord>, l: Loaded, input: StayInput) {
  return priceContext(f, { token: input.token, stay: l.stay, adults: input.adults, market: input.market ?? null, currency: input.currency ?? null });
}

function offersOf(f: Fetched<DetailRecord>, l: Loaded, input: StayInput): Offer[] {
  const d = f.data;
  const ctx = ctxOf(f, l, input);
  return d.sellers.map((s) => offerOf(s, d.display_basis, ctx, d.property.rate?.currency ?? null, l.stay.nights));
}

// ------------------------------------------------------------------ offers

const PriceInsights = z.object({
  lowest_price: z.string().nullable(),
  price_level: z.string().nullable(),
  price_level_code: z.int().nullable(),
  typical_price_range: z.object({ low_price: z.string(), high_price: z.string() }).nullable(),
});

export const OffersOutput = z.object({
  token: z.string(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  device: z.enum(['android', 'desktop', 'iphone']),
  coverage: z.int(),
  currency: z.string().nullable(),
  currency_matches_request: z.boolean(),
  requested_market: z.string().nullable(),
  egress_market: z.string().nullable(),
  egress_geo_locked_ok: z.boolean(),
  price_insights_market_verified: z.boolean(),
  rates_include_tax: z.boolean(),
  display_basis: z.enum(['all_in', 'before_taxes']).nullable(),
  lowest_price_per_night: z.number().nullable(),
  lowest_price_per_night_provenance: ProvenanceSchema.nullable(),
  rooms_total: z.int(),
  name: z.string(),
  hotel_class: z.string().nullable(),
  hotel_class_stars: z.int().nullable(),
  rating: z.number().nullable(),
  reviews: z.int().nullable(),
  deal: z.string().nullable(),
  deal_description: z.string().nullable(),
  /** No deal badge is known on this source's pages: null, never a guessed false. */
  has_deal: z.boolean().nullable(),
  price_insights: PriceInsights,
  sources: z.array(z.string()),
  missing_sources: z.array(z.string()),
  refundable_offers: z.int(),
  wire_bytes: z.int(),
  elapsed_s: z.number(),
  warnings: z.array(z.string()),
  offers: z.array(OfferSchema),
});
export type OffersResult = z.infer<typeof OffersOutput>;

export interface OffersInput extends StayInput {
  rates_include_tax?: boolean | null;
  /** The property's own name: a seller of exactly that name is its official site. */
  property_name: string;
  include_metasearch: boolean;
  free_cancellation_only: boolean;
  coverage: number;
  require_sources?: string[] | null;
}

function merge(into: Offer[], more: Offer[], propertyName: string): void {
  for (const o of more) {
    if (into.some((x) => x.raw_source === o.raw_source)) continue;
    if (propertyName && nameScore(propertyName, o.raw_source) === 1) o.is_official = true;
    into.push(o);
  }
}

export async function runOffers(deps: SourceUses<'upstream'>, input: OffersInput): Promise<OffersResult> {
  const started = performance.now();
  const order = [input.device, ...DEVICES.filter((d) => d !== input.device)];
  const filter = { includeMetasearch: input.include_metasearch, freeCancellationOnly: input.free_cancellation_only };
  const fetches: Fetched<DetailRecord>[] = [];
  const offers: Offer[] = [];
  const first = prepare(input, input.device);
  for (const device of order.slice(0, input.coverage)) {
    const l = device === input.device ? first : prepare(input, device);
    const f = await loadProperty(deps, l.request);
    fetches.push(f);
    merge(
      offers,
      offersOf(f, l, input).filter((o) => keepOffer(o, filter)),
      input.property_name,
    );
  }
  const required = input.require_sources ?? DEFAULT_REQUIRED_SOURCES;
  const warnings: string[] = [];
  if (required.some((r) => !offersInclude(offers, r))) {
    // a thin render: one more profile (the next unused one, else the first again)
    const device = order[input.coverage] ?? input.device;
    const l = prepare(input, device);
    const f = await loadProperty(deps, l.request);
    fetches.push(f);
    merge(
      offers,
      offersOf(f, l, input).filter((o) => keepOffer(o, filter)),
      input.property_name,
    );
  }
  const missing = required.filter((r) => !offersInclude(offers, r));
  if (missing.length) warnings.push(`required sources not offered after retry: ${missing.join(', ')}`);

  const [head] = fetches;
  if (!head) throw new Error('runOffers: coverage is at least one profile');
  const d = head.data;
  const rate = d.property.rate;
  const currency = rate?.currency ?? null;
  const requested = first.pricing.currency;
  if (currency !== null && currency !== requested) warnings.push(`priced in ${currency}, not the requested ${requested}`);
  if (rate && d.display_basis === null)
    warnings.push('whether displayed prices include taxes could not be established; per-seller prices are in the headline fields only');
  const includeTax = input.rates_include_tax ?? first.pricing.ratesIncludeTax ?? false;
  const base = includeTax ? rate?.total_exact : rate?.before_taxes_total;
  const lowest = base != null && first.stay.nights ? Math.round((base / first.stay.nights) * 100) / 100 : null;
  const egressMarket = head.egressMode === 'market_proxy' ? (first.pricing.market?.code ?? null) : null;
  const pi = d.price_insights;
  return {
    token: input.token,
    check_in: first.stay.checkIn,
    check_out: first.stay.checkOut,
    nights: first.stay.nights,
    adults: input.adults,
    device: input.device,
    coverage: input.coverage,
    currency,
    currency_matches_request: currency === requested,
    requested_market: input.market ?? null,
    egress_market: egressMarket,
    egress_geo_locked_ok: egressMarket !== null && egressMarket === (input.market ?? null),
    price_insights_market_verified: egressMarket !== null && egressMarket === (input.market ?? null),
    rates_include_tax: includeTax,
    display_basis: d.display_basis,
    lowest_price_per_night: lowest,
    lowest_price_per_night_provenance:
      lowest === null
        ? null
        : provenance(ctxOf(head, first, input), {
            sourceKind: SOURCE_KINDS.headline,
            basis: includeTax ? 'nightly_average_including_taxes_and_fees' : 'nightly_average_before_taxes_and_fees',
            derivation: 'stay_total_divided_by_nights',
            returnedCurrency: currency,
          }),
    rooms_total: offers.reduce((n, o) => n + o.rooms.length, 0),
    name: d.property.name,
    hotel_class: d.property.hotel_class_text,
    hotel_class_stars: d.property.hotel_class,
    rating: d.property.rating,
    reviews: d.property.reviews,
    deal: null,
    deal_description: null,
    has_deal: null,
    price_insights: {
      lowest_price: pi?.lowest_price ?? null,
      price_level: null,
      price_level_code: pi?.price_level_code ?? null,
      typical_price_range: pi?.typical_low && pi.typical_high ? { low_price: pi.typical_low, high_price: pi.typical_high } : null,
    },
    sources: [...new Set(offers.map((o) => o.source))],
    missing_sources: missing,
    refundable_offers: offers.filter((o) => o.has_free_cancellation).length,
    wire_bytes: fetches.reduce((n, f) => n + f.wireBytes, 0),
    elapsed_s: Math.round(performance.now() - started) / 1000,
    warnings,
    offers,
  };
}

// ------------------------------------------------------------------- rooms

export const RoomsOutput = z.object({
  token: z.string(),
  name: z.string(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  device: z.enum(['android', 'desktop', 'iphone']),
  currency: z.string().nullable(),
  currency_matches_request: z.boolean(),
  display_basis: z.enum(['all_in', 'before_taxes']).nullable(),
  rooms_total: z.int(),
  sellers: z.array(
    z.object({
      source: z.string(),
      raw_source: z.string(),
      is_official: z.boolean(),
      sponsored: z.boolean(),
      link: z.string().nullable(),
      rooms: z.array(RoomSchema),
    }),
  ),
});
export type RoomsResult = z.infer<typeof RoomsOutput>;

export async function runRooms(deps: SourceUses<'upstream'>, input: StayInput): Promise<RoomsResult> {
  const l = prepare(input, input.device);
  const f = await loadProperty(deps, l.request);
  const sellers = offersOf(f, l, input)
    .filter((o) => o.rooms.length)
    .map((o) => ({ source: o.source, raw_source: o.raw_source, is_official: o.is_official, sponsored: o.sponsored, link: o.link, rooms: o.rooms }));
  const currency = f.data.property.rate?.currency ?? null;
  return {
    token: input.token,
    name: f.data.property.name,
    check_in: l.stay.checkIn,
    check_out: l.stay.checkOut,
    nights: l.stay.nights,
    adults: input.adults,
    device: input.device,
    currency,
    currency_matches_request: currency === l.pricing.currency,
    display_basis: f.data.display_basis,
    rooms_total: sellers.reduce((n, s) => n + s.rooms.length, 0),
    sellers,
  };
}

// -------------------------------------------------------------------- stay

export const StayOutput = z.object({
  token: z.string(),
  name: z.string(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  currency: z.string().nullable(),
  requested_currency: z.string(),
  currency_matches_request: z.boolean(),
  available: z.boolean(),
  price: StayPricesSchema.nullable(),
  cheapest_seller: z
    .object({
      source: z.string(),
      raw_source: z.string(),
      is_official: z.boolean(),
      total: z.number().nullable(),
      total_text: z.string().nullable(),
      price_per_night: z.number().nullable(),
      link: z.string().nullable(),
      provenance: ProvenanceSchema,
    })
    .nullable(),
  sellers_count: z.int(),
});
export type StayResult = z.infer<typeof StayOutput>;

export async function runStay(deps: SourceUses<'upstream'>, input: StayInput): Promise<StayResult> {
  const l = prepare(input, input.device);
  const f = await loadProperty(deps, l.request);
  const d = f.data;
  const ctx = ctxOf(f, l, input);
  const currency = d.property.rate?.currency ?? null;
  const price = stayPrices(d.property.rate, d.display_basis, ctx);
  let cheapest: (typeof d.sellers)[number] | null = null;
  for (const s of d.sellers) if (s.total?.amount != null && (cheapest === null || s.total.amount < (cheapest.total?.amount ?? Infinity))) cheapest = s;
  const offer = cheapest ? offerOf(cheapest, d.display_basis, ctx, currency, l.stay.nights) : null;
  return {
    token: input.token,
    name: d.property.name,
    check_in: l.stay.checkIn,
    check_out: l.stay.checkOut,
    nights: l.stay.nights,
    adults: input.adults,
    currency,
    requested_currency: l.pricing.currency,
    currency_matches_request: currency === l.pricing.currency,
    available: price !== null,
    price,
    cheapest_seller:
      cheapest && offer
        ? {
            source: offer.source,
            raw_source: offer.raw_source,
            is_official: offer.is_official,
            total: cheapest.total?.amount ?? null,
            total_text: cheapest.total?.text ?? null,
            price_per_night: cheapest.nightly?.amount ?? null,
            link: offer.link,
            provenance: offer.provenance,
          }
        : null,
    sellers_count: d.sellers.length,
  };
}
