/**
 * `rentaltwo` I/O: destination search (`StaysSearch`), the availability calendar
 * (`PdpAvailabilityCalendar`, one request) and, with `price_nights`, one booking-section quote per
 * chosen check-in date (`StaysPdpSections`), run in parallel with a small bound.
 */
import type { SourceUses } from '../context.js';
import { addDays, todayUtc } from '../../domain/dates.js';
import { ApiError, BadRequest, NotFound, UpstreamContractChanged } from '../../domain/errors.js';
import { UpstreamBlocked } from '../../upstream/blocked.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { guards } from './guards.js';
import type { Provenance } from '../../domain/provenance.js';
import { checkStatus, observe, priceProvenance, type Observation } from '../shared/observation.js';
import { currencyFromText } from '../shared/offer.js';
import { SearchTimer, echoParameters, type SearchMetadata } from '../shared/search-metadata.js';
import { parseRentaltwoCalendar, type RentaltwoCalendarDay } from './calendar.js';
import { planCalendar, summarize, type PriceNights, type PriceStatus, type PriceSummary, type QuoteCandidate } from './calendar-pricing.js';
import { domainOrigin } from './domains.js';
import { WEB_CLIENT_HEADERS } from './operations.js';
import { persistedQuery } from './persisted-query.js';
import { parsePdpQuote } from './pdp-quote.js';
import { rentaltwoCalendarPath, rentaltwoQuotePath, staysSearchBody, type StaysSearchRequest } from './requests.js';
import { parseRentaltwoSearch, statedNights, type RentaltwoPrice, type RentaltwoProperty } from './stays-search.js';
import { arr, at, text, type Json } from '../../domain/json.js';
import { mapLimit } from '../../domain/map-limit.js';

const QUOTE_CONCURRENCY = 4;

/** GraphQL errors in a reply that lacks its data: not-found is the caller's unknown id, the rest a contract change. */
function graphqlErrors(payload: Json, notFound: string): void {
  const errors = arr(payload, 'errors');
  if (!errors.length || at(payload, 'data')) return;
  const messages = errors.map((e) => text(e, 'message')).join('; ');
  if (/persisted ?query ?not ?found/i.test(messages))
    throw new UpstreamContractChanged('rentaltwo', `persisted query not found (hash rotated): ${messages.slice(0, 200)}`);
  if (/not[ _]?found/i.test(messages)) throw new NotFound(notFound);
  throw new UpstreamContractChanged('rentaltwo', `GraphQL errors: ${messages.slice(0, 200)}`);
}

// ---------------------------------------------------------------- search

const TYPE_OF_PLACE: Record<string, string | undefined> = { any: undefined, room: 'Private room', entire_home: 'Entire home/apt' };
const PROPERTY_TYPE_IDS: Record<string, number> = { house: 1, guesthouse: 2, apartment: 3, hotel: 4 };
const AMENITY_IDS: Record<string, number> = {
  wifi: 4,
  air_conditioning: 5,
  pool: 7,
  kitchen: 8,
  free_parking: 9,
  gym: 15,
  hot_tub: 25,
  heating: 30,
  washer: 33,
  dryer: 34,
};

export interface RentaltwoSearchInput {
  engine: string;
  q?: string;
  bounding_box?: string;
  rentaltwo_domain: string;
  currency?: string;
  include_taxes: boolean;
  check_in_date?: string;
  check_out_date?: string;
  time_period?: 'weekend_trip' | 'one_week' | 'one_month';
  adults?: number;
  children?: number;
  infants?: number;
  pets?: number;
  price_min?: number;
  price_max?: number;
  type_of_place: 'any' | 'room' | 'entire_home';
  property_types?: string;
  bedrooms?: number;
  beds?: number;
  bathrooms?: number;
  amenities?: string;
  next_page_token?: string;
  zero_retention: boolean;
}

type PricedProperty = Omit<RentaltwoProperty, 'price'> & { price: (RentaltwoPrice & { provenance: Provenance }) | null };

const isCorner = (p: unknown): p is [number, number] => Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));
const isBox = (v: unknown): v is [[number, number], [number, number]] => Array.isArray(v) && v.length === 2 && v.every(isCorner);

function boundingBox(raw: string): [[number, number], [number, number]] {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new BadRequest('bounding_box must be [[ne_lat,ne_lng],[sw_lat,sw_lng]]');
  }
  if (!isBox(v)) throw new BadRequest('bounding_box must be [[ne_lat,ne_lng],[sw_lat,sw_lng]]');
  return v;
}

function cursorOffset(token: string): number {
  try {
    const offset = at(JSON.parse(Buffer.from(token, 'base64').toString('utf8')), 'items_offset');
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // Falls through to the refusal below.
  }
  throw new BadRequest('invalid next_page_token');
}

function list(raw: string | undefined, table: Record<string, number>, field: string): number[] | undefined {
  if (!raw) return undefined;
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !(n in table));
  if (unknown.length) throw new BadRequest(`${field}: unsupported value(s) ${unknown.join(', ')}; supported: ${Object.keys(table).join(', ')}`);
  return names.map((n) => table[n]!);
}

function guestsText(input: RentaltwoSearchInput): string {
  const n = (input.adults ?? 0) + (input.children ?? 0);
  return n > 0 ? `${n} guest${n === 1 ? '' : 's'}` : 'Add guests';
}

export async function fetchRentaltwoSearch(deps: SourceUses<'upstream'>, input: RentaltwoSearchInput, requestId: string) {
  if (!input.q && !input.bounding_box) throw new BadRequest('q is required unless bounding_box is given');
  if (input.time_period && (input.check_in_date || input.check_out_date))
    throw new BadRequest('time_period cannot be combined with check_in_date/check_out_date');
  const checkIn = input.check_in_date;
  const checkOut = input.check_out_date ?? (checkIn ? addDays(checkIn, 1) : undefined);
  if (checkIn && checkOut && checkOut <= checkIn) throw new BadRequest('check_out_date must be after check_in_date');
  const origin = domainOrigin(input.rentaltwo_domain);
  const req: StaysSearchRequest = {
    query: input.bounding_box ? undefined : input.q,
    boundingBox: input.bounding_box ? boundingBox(input.bounding_box) : undefined,
    checkIn,
    checkOut,
    adults: input.adults,
    children: input.children,
    infants: input.infants,
    pets: input.pets,
    priceMin: input.price_min,
    priceMax: input.price_max,
    cursor: input.next_page_token,
    timePeriod: input.time_period,
    roomType: TYPE_OF_PLACE[input.type_of_place],
    propertyTypeIds: list(input.property_types, PROPERTY_TYPE_IDS, 'property_types'),
    minBedrooms: input.bedrooms,
    minBeds: input.beds,
    minBathrooms: input.bathrooms,
    amenityIds: list(input.amenities, AMENITY_IDS, 'amenities'),
  };
  const offset = input.next_page_token ? cursorOffset(input.next_page_token) : 0;
  const timer = new SearchTimer();
  const response = await timer.upstream(() =>
    persistedQuery(deps.upstream, 'StaysSearch', (hash) =>
      deps.upstream.fetch({
        source: 'rentaltwo',
        method: 'POST',
        path: `/api/v3/StaysSearch/${hash}`,
        query: { operationName: 'StaysSearch', locale: 'en', currency: input.currency },
        headers: WEB_CLIENT_HEADERS,
        body: staysSearchBody(req, hash),
        expect: 'json',
      }),
    ),
  );
  checkStatus(response);
  const obs = observe('rentaltwo', response);
  const page = await withContractGuard(
    'rentaltwo',
    response,
    (r) =>
      timer.parse(() => {
        const json = r.json<Json>();
        graphqlErrors(json, 'rentaltwo destination not found');
        return parseRentaltwoSearch(json, { origin, includeTaxes: input.include_taxes, cursor: input.next_page_token, offset, timePeriod: input.time_period });
      }),
    { rule: guards.drift.stays_search, priced: !!checkIn },
  );
  const properties: PricedProperty[] = page.properties.map((p) => ({
    ...p,
    price: p.price
      ? {
          ...p.price,
          provenance: priceProvenance(
            obs,
            { propertyId: p.id, checkIn: p.check_in_date ?? checkIn ?? '', checkOut: p.check_out_date ?? checkOut ?? '', adults: input.adults ?? 0 },
            {
              sourceKind: 'vacation_rental_search',
              collector: 'rentaltwo.stays_search',
              market: input.rentaltwo_domain,
              requestedCurrency: input.currency ?? null,
              returnedCurrency: currencyFromText(p.price.total_price || p.price.price_per_qualifier, input.currency),
              priceBasis: p.price.total_price ? 'stay_total_as_displayed' : 'nightly_as_displayed',
              derivation: 'normalized_upstream',
              rateId: null,
            },
          ),
        }
      : null,
  }));
  const publicQuery = new URLSearchParams();
  if (checkIn) publicQuery.set('checkin', checkIn);
  if (checkOut) publicQuery.set('checkout', checkOut);
  if (input.adults) publicQuery.set('adults', String(input.adults));
  const requestUrl = `${origin}/s/${encodeURIComponent(input.q ?? 'map')}/homes${publicQuery.size ? `?${publicQuery.toString()}` : ''}`;
  const { zero_retention: _z, ...echo } = input;
  return {
    search_metadata: timer.metadata(requestId, requestUrl, {
      collection_id: obs.collectionId,
      observed_at: obs.observedAt.toISOString(),
      wire_bytes: obs.wireBytes,
    }),
    search_parameters: echoParameters({ ...echo, check_out_date: input.check_out_date ?? checkOut }),
    search_information: {
      query_displayed: input.q ?? input.bounding_box ?? '',
      results: properties.length,
      check_in_date: checkIn ?? null,
      check_out_date: checkOut ?? null,
      time_period: input.time_period ?? null,
      adults: input.adults ?? 0,
      children: input.children ?? 0,
      infants: input.infants ?? 0,
      pets: input.pets ?? 0,
      guests: guestsText(input),
    },
    properties,
    ...(page.next_page_token ? { pagination: { next_page_token: page.next_page_token } } : {}),
  };
}

// ---------------------------------------------------------------- calendar

export interface RentaltwoCalendarInput {
  property_id: string;
  currency?: string;
  adults: number;
  children: number;
  infants: number;
  pets: number;
  max_price_quotes?: number;
  stay_nights?: number;
  engine: string;
  start_month?: number;
  start_year?: number;
  months: number;
  rentaltwo_domain: string;
  price_nights: PriceNights;
  zero_retention: boolean;
}

/** One check-in's quote: the listing's price figures as the booking section states them, with its dates. */
export interface DayPrice extends RentaltwoPrice {
  check_in_date: string;
  check_out_date: string;
  currency: string | null;
  price_per_night?: string;
  extracted_price_per_night?: number;
  provenance: Provenance;
}

type CalendarDayOut = RentaltwoCalendarDay & { price_status?: PriceStatus; price?: DayPrice };

const DEFAULT_QUOTES = { sample: 12, all: 92 } as const;

interface QuoteOutcome {
  status: PriceStatus;
  price?: DayPrice;
  attempted: boolean;
  wire: number;
}

function dayPrice(p: RentaltwoPrice, c: QuoteCandidate, input: RentaltwoCalendarInput, obs: Observation): DayPrice {
  const perNight = p.extracted_qualifier === c.nights ? p.price_per_qualifier : undefined;
  // The currency the quote displays; the requested one only to tell which dollar a "$" is.
  const currency = currencyFromText(p.total_price || p.price_per_qualifier, input.currency);
  const { total_price, extracted_total_price, breakdown, ...stated } = p;
  const out: DayPrice = {
    check_in_date: c.date,
    check_out_date: c.checkOut,
    currency,
    total_price,
    extracted_total_price,
    breakdown,
    provenance: priceProvenance(
      obs,
      { propertyId: input.property_id, checkIn: c.date, checkOut: c.checkOut, adults: input.adults },
      {
        sourceKind: 'vacation_rental_stay_quote',
        collector: 'rentaltwo.pdp_sections',
        market: input.rentaltwo_domain,
        requestedCurrency: input.currency ?? null,
        returnedCurrency: currency,
        priceBasis: 'stay_total_as_displayed',
        derivation: 'normalized_upstream',
        rateId: null,
      },
    ),
  };
  if (perNight) {
    out.price_per_night = perNight;
    if (p.extracted_price_per_qualifier != null) out.extracted_price_per_night = p.extracted_price_per_qualifier;
  }
  return { ...out, ...stated };
}

export async function fetchRentaltwoCalendar(deps: SourceUses<'upstream'>, input: RentaltwoCalendarInput, requestId: string) {
  const now = new Date();
  const month = input.start_month ?? now.getUTCMonth() + 1;
  const year = input.start_year ?? now.getUTCFullYear();
  const upstream = deps.upstream;
  const timer = new SearchTimer();
  const calendarPath = (hash: string) =>
    rentaltwoCalendarPath({ listingId: input.property_id, month, year, count: input.months, locale: 'en', currency: input.currency }, hash);
  const notFound = `rentaltwo listing ${input.property_id} not found`;
  const response = await timer.upstream(() =>
    persistedQuery(upstream, 'PdpAvailabilityCalendar', (hash) =>
      upstream.fetch({ source: 'rentaltwo', path: calendarPath(hash), headers: WEB_CLIENT_HEADERS, expect: 'json', notFound }),
    ),
  );
  checkStatus(response);
  const obs = observe('rentaltwo', response);
  const calendar = await withContractGuard('rentaltwo', response, (r) =>
    timer.parse(() => {
      const json = r.json<Json>();
      graphqlErrors(json, `rentaltwo listing ${input.property_id} not found`);
      return parseRentaltwoCalendar(json);
    }),
  );
  let upstreamRequests = 1;
  let wire = obs.wireBytes;
  const months: { year: number; month: number; days: CalendarDayOut[] }[] = calendar.months.map((m) => ({ ...m, days: m.days.map((d) => ({ ...d })) }));
  let summary: PriceSummary | undefined;
  let cap = 0;
  if (input.price_nights !== 'none') {
    cap = input.max_price_quotes ?? DEFAULT_QUOTES[input.price_nights];
    const plans = planCalendar(calendar.months, { today: todayUtc(now), mode: input.price_nights, cap, stayNights: input.stay_nights });
    const chosen = [...plans.values()].flatMap((p) => (p.candidate ? [p.candidate] : []));
    let halted = false;
    const outcomes = await mapLimit(chosen, QUOTE_CONCURRENCY, async (c): Promise<QuoteOutcome> => {
      if (halted) return { status: 'quote_skipped', attempted: false, wire: 0 };
      let reply: UpstreamResponse;
      try {
        reply = await timer.upstream(() =>
          persistedQuery(upstream, 'StaysPdpSections', (hash) =>
            upstream.fetch({
              source: 'rentaltwo',
              path: rentaltwoQuotePath(
                {
                  listingId: input.property_id,
                  checkIn: c.date,
                  checkOut: c.checkOut,
                  adults: input.adults,
                  children: input.children,
                  infants: input.infants,
                  pets: input.pets,
                  currency: input.currency,
                },
                hash,
              ),
              headers: WEB_CLIENT_HEADERS,
              expect: 'json',
            }),
          ),
        );
      } catch (err) {
        // A block page means more requests would only be blocked too.
        if (err instanceof UpstreamBlocked) halted = true;
        if (err instanceof ApiError) return { status: 'quote_failed', attempted: true, wire: 0 };
        throw err;
      }
      if (reply.status < 200 || reply.status >= 300) return { status: 'quote_failed', attempted: true, wire: reply.wireBytes };
      const quoteObs = observe('rentaltwo', reply);
      try {
        const q = timer.parse(() => parsePdpQuote(reply.json()));
        if (q.kind === 'refused') return { status: 'quote_refused', attempted: true, wire: reply.wireBytes };
        if (q.kind === 'no_price') return { status: 'no_price', attempted: true, wire: reply.wireBytes };
        const stated = statedNights(q.price);
        if (stated != null && stated !== c.nights) return { status: 'stay_mismatch', attempted: true, wire: reply.wireBytes };
        return { status: 'priced', price: dayPrice(q.price, c, input, quoteObs), attempted: true, wire: reply.wireBytes };
      } catch (err) {
        if (err instanceof ApiError) return { status: 'quote_failed', attempted: true, wire: reply.wireBytes };
        throw err;
      }
    });
    const byDate = new Map(chosen.map((c, i) => [c.date, outcomes[i]]));
    for (const o of outcomes) {
      if (o.attempted) upstreamRequests++;
      wire += o.wire;
    }
    for (const m of months) {
      for (const d of m.days) {
        const outcome = byDate.get(d.date);
        d.price_status = outcome ? outcome.status : (plans.get(d.date)?.status as PriceStatus);
        if (outcome?.price) d.price = outcome.price;
      }
    }
    summary = summarize(months.flatMap((m) => m.days));
  }
  const pricing = input.price_nights !== 'none';
  const params = echoParameters({
    engine: input.engine,
    property_id: input.property_id,
    currency: input.currency,
    rentaltwo_domain: input.rentaltwo_domain,
    start_month: month,
    start_year: year,
    months: input.months,
    price_nights: input.price_nights,
    ...(pricing
      ? {
          adults: input.adults,
          children: input.children || undefined,
          infants: input.infants || undefined,
          pets: input.pets || undefined,
          max_price_quotes: cap,
          stay_nights: input.stay_nights,
        }
      : {}),
  });
  const metadata: SearchMetadata & { upstream_requests: number } = {
    ...timer.metadata(requestId, `${domainOrigin(input.rentaltwo_domain)}/rooms/${input.property_id}`, {
      collection_id: obs.collectionId,
      observed_at: obs.observedAt.toISOString(),
      wire_bytes: wire,
    }),
    upstream_requests: upstreamRequests,
  };
  return { search_metadata: metadata, search_parameters: params, months, ...(summary ? { price_summary: summary } : {}) };
}
