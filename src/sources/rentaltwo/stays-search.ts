/**
 * `GET /api/v1/search` with engine=rentaltwo: the platform's `StaysSearch` GraphQL reply
 * (`data.presentation.staysSearch.results`) mapped to the compatible API's Property objects.
 * Two card layouts exist: the older one nests the listing under `listing` and the price under
 * `pricingQuote.structuredStayDisplayPrice`; the newer one is flat with `demandStayListing`.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, at, obj, stringText, type Json, type JsonObject } from '../../domain/json.js';
import { parseDisplayedAmount } from '../shared/offer.js';

interface BreakdownLine {
  description: string;
  price: string;
  extracted_price: number | null;
  /** The line's struck-through amount when it states one (a price drop on the nights line). */
  original_price?: string;
  extracted_original_price?: number;
}

export interface RentaltwoPrice {
  total_price: string;
  extracted_total_price: number | null;
  qualifier?: string;
  extracted_qualifier?: number;
  price_per_qualifier?: string;
  extracted_price_per_qualifier?: number;
  original_price?: string;
  extracted_original_price?: number;
  /** The first line the page states as a deduction (a negative discounted line). */
  discount?: string;
  /** Amount taken off, as a positive number. */
  extracted_discount?: number;
  /** Every price line of the explanation, in page order (highlighted ones too, unless reported as total_with_taxes). */
  breakdown: BreakdownLine[];
  /** Notes the price explanation states beside its lines (subtitle, disclaimers). */
  notes?: string[];
  total_with_taxes?: string;
  extracted_total_with_taxes?: number;
}

export interface RentaltwoProperty {
  position: number;
  id: string;
  title: string;
  description: string;
  link: string;
  booking_link: string;
  booking_token: string;
  rating?: number;
  reviews?: number;
  price: RentaltwoPrice | null;
  check_in_date?: string;
  check_out_date?: string;
  time_period?: string;
  accommodations: string[];
  gps_coordinates?: { latitude: number; longitude: number };
  has_free_cancellation?: true;
  badges: string[];
  images: string[];
  distance?: string;
  extracted_distance?: number;
}

export interface RentaltwoSearchPage {
  properties: RentaltwoProperty[];
  /** Cursor of the following page; null when none. */
  next_page_token: string | null;
}

export interface RentaltwoSearchContext {
  /** Scheme and host of the regional site, e.g. https://www.<regional host>. */
  origin: string;
  includeTaxes?: boolean;
  /** Cursor the page was fetched with; absent for the first page. */
  cursor?: string;
  /** Results before this page, for positions. */
  offset?: number;
  timePeriod?: string;
}

const DISTANCE = /^([\d.,]+)\s*(kilometers|kilometres|km|miles|mi)\b.*away/i;
const NIGHTS_LINE = /^(\d+)\s+nights?\s*x\s*(.+)$/i;
const TAX_LINE = /\btax/i;
const PER_NIGHT_QUALIFIER = /^(per\s+)?night$/i;

function listingId(r: Json): string {
  const direct = stringText(r, 'listing', 'id');
  if (direct) return direct;
  const encoded = stringText(r, 'demandStayListing', 'id');
  if (!encoded) return '';
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const m = /^[A-Za-z]+:(\d+)$/.exec(decoded);
  return m?.[1] ?? '';
}

function primaryParts(line: Json): { shown: string; qualifier: string; original: string } {
  if (!line) return { shown: '', qualifier: '', original: '' };
  let shown = stringText(line, 'price') || stringText(line, 'discountedPrice');
  let qualifier = stringText(line, 'qualifier');
  let original = stringText(line, 'originalPrice');
  for (const c of arr(line, 'orderedComponents')) {
    shown ||= stringText(c, 'discountedPrice') || stringText(c, 'price');
    qualifier ||= stringText(c, 'qualifier');
    original ||= stringText(c, 'originalPrice');
  }
  return { shown, qualifier, original };
}

function breakdownLine(it: Json): BreakdownLine {
  const price = stringText(it, 'priceString');
  const line: BreakdownLine = { description: stringText(it, 'description'), price, extracted_price: parseDisplayedAmount(price) };
  const original = stringText(it, 'originalPriceString');
  if (original) {
    line.original_price = original;
    const v = parseDisplayedAmount(original);
    if (v != null) line.extracted_original_price = v;
  }
  return line;
}

/**
 * A `structuredDisplayPrice` (search cards and the listing's booking section share it). A
 * discounted line is a discount only when it states a deduction (a negative amount): the nights
 * line itself comes as a discounted line after a price drop, with its original amount beside it.
 * The last highlighted line is the stay total; every other line stays in the breakdown as stated.
 */
export function parseStructuredDisplayPrice(sdp: Json, includeTaxes: boolean): RentaltwoPrice | null {
  const primaryLine = at(sdp, 'primaryLine');
  if (!primaryLine) return null;
  const { shown, qualifier, original } = primaryParts(primaryLine);
  const groups = arr(sdp, 'explanationData', 'priceDetails');
  const items = groups.flatMap((g) => arr(g, 'items'));
  const notes = [stringText(sdp, 'explanationData', 'subtitle'), ...groups.map((g) => stringText(g, 'content'))].filter(Boolean);
  const totalLine: Json = items.filter((it) => at(it, '__typename') === 'HighlightExplanationLineItem').pop() ?? null;
  const hasTaxes = items.some((it) => it !== totalLine && TAX_LINE.test(stringText(it, 'description')));
  // The tax-inclusive total is reported as such when asked for, and left out when not.
  const totalIsTaxInclusive = totalLine != null && hasTaxes;
  const breakdown: BreakdownLine[] = [];
  let discountLine: BreakdownLine | null = null;
  for (const it of items) {
    if (it === totalLine && totalIsTaxInclusive) continue;
    const line = breakdownLine(it);
    if (at(it, '__typename') === 'DiscountedExplanationLineItem' && line.extracted_price != null && line.extracted_price < 0) discountLine ??= line;
    breakdown.push(line);
  }
  const perNight = PER_NIGHT_QUALIFIER.test(qualifier);
  const out: RentaltwoPrice = {
    total_price: perNight ? '' : shown,
    extracted_total_price: perNight ? null : parseDisplayedAmount(shown),
    breakdown,
  };
  const nightsItem = breakdown.map((b) => NIGHTS_LINE.exec(b.description)).find(Boolean);
  const nightsQualifier = /(\d+)\s+nights?/i.exec(qualifier);
  if (nightsItem) {
    out.qualifier = `${nightsItem[1]} nights`;
    out.extracted_qualifier = Number(nightsItem[1]);
    out.price_per_qualifier = nightsItem[2]!.trim();
    const per = parseDisplayedAmount(out.price_per_qualifier);
    if (per != null) out.extracted_price_per_qualifier = per;
  } else if (nightsQualifier) {
    out.qualifier = qualifier;
    out.extracted_qualifier = Number(nightsQualifier[1]);
  } else if (perNight) {
    out.qualifier = qualifier;
    out.extracted_qualifier = 1;
    out.price_per_qualifier = shown;
    const per = parseDisplayedAmount(shown);
    if (per != null) out.extracted_price_per_qualifier = per;
  }
  const originalText = original || stringText(totalLine, 'originalPriceString');
  if (originalText) {
    out.original_price = originalText;
    const v = parseDisplayedAmount(originalText);
    if (v != null) out.extracted_original_price = v;
  }
  if (discountLine) {
    out.discount = discountLine.price;
    out.extracted_discount = Math.abs(discountLine.extracted_price as number);
  }
  if (includeTaxes && totalIsTaxInclusive) {
    out.total_with_taxes = stringText(totalLine, 'priceString');
    const v = parseDisplayedAmount(out.total_with_taxes);
    if (v != null) out.extracted_total_with_taxes = v;
  }
  if (notes.length) out.notes = notes;
  return out;
}

/** How many nights the price says it covers ("5 nights x $P", "5 nights"); null when it does not say. */
export function statedNights(price: RentaltwoPrice): number | null {
  return price.qualifier && PER_NIGHT_QUALIFIER.test(price.qualifier) ? null : (price.extracted_qualifier ?? null);
}

function rating(r: Json): { rating?: number; reviews?: number } {
  const local = stringText(at(r, 'avgRatingLocalized') ?? at(r, 'listing', 'avgRatingLocalized'));
  const label = stringText(at(r, 'avgRatingA11yLabel') ?? at(r, 'listing', 'avgRatingA11yLabel'));
  const out: { rating?: number; reviews?: number } = {};
  const m = /^(\d+(?:[.,]\d+)?)(?:\s*\((\d[\d,]*)\))?/.exec(local);
  if (m) out.rating = Number(m[1]!.replace(',', '.'));
  const count = m?.[2] ?? /(\d[\d,]*)\s+reviews?/i.exec(label)?.[1];
  if (count) out.reviews = Number(count.replace(/,/g, ''));
  return out;
}

function lines(sc: Json): unknown[] {
  return [...arr(sc, 'primaryLine'), ...arr(sc, 'mapPrimaryLine'), ...arr(sc, 'secondaryLine')];
}

/** The stay's fields as the reply stated them (values other than strings and numbers included, as given). */
function bookingToken(fields: Record<string, unknown>): string {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''));
  return Buffer.from(JSON.stringify(clean), 'utf8').toString('base64url');
}

function property(r: Json, position: number, ctx: RentaltwoSearchContext): RentaltwoProperty | null {
  const id = listingId(r);
  if (!id) return null;
  const l = at(r, 'listing');
  const name =
    stringText(r, 'nameLocalized', 'localizedStringWithTranslationPreference') ||
    stringText(l, 'name') ||
    stringText(r, 'demandStayListing', 'description', 'name', 'localizedStringWithTranslationPreference');
  const descriptor = [stringText(at(r, 'title') ?? at(l, 'title')), stringText(r, 'subtitle')].find((t) => t && t !== name) ?? '';
  const over: JsonObject = obj(r, 'listingParamOverrides') ?? {};
  const checkIn = stringText(over.checkin);
  const checkOut = stringText(over.checkout);
  const q = new URLSearchParams();
  if (checkIn) q.set('check_in', checkIn);
  if (checkOut) q.set('check_out', checkOut);
  for (const k of ['adults', 'children', 'infants', 'pets'] as const) if (typeof over[k] === 'number') q.set(k, String(over[k]));
  const sc = at(r, 'structuredContent') ?? at(l, 'structuredContent');
  const all = lines(sc);
  const distanceBody = all.map((x) => stringText(x, 'body')).find((b) => DISTANCE.test(b));
  const coord = at(l, 'coordinate') ?? at(r, 'demandStayListing', 'location', 'coordinate');
  const latitude = at(coord, 'latitude');
  const longitude = at(coord, 'longitude');
  const pictures = arr(at(r, 'contextualPictures') ?? at(l, 'contextualPictures'));
  const freeCancel = arr(r, 'paymentMessages').some((m) => /FREE_CANCELLATION/.test(stringText(m, 'type')));
  const out: RentaltwoProperty = {
    position,
    id,
    title: name,
    description: descriptor,
    link: `${ctx.origin}/rooms/${id}`,
    booking_link: `${ctx.origin}/rooms/${id}${q.toString() ? `?${q.toString()}` : ''}`,
    booking_token: bookingToken({
      property_id: id,
      check_in_date: checkIn,
      check_out_date: checkOut,
      adults: over.adults,
      children: over.children,
      infants: over.infants,
      pets: over.pets,
    }),
    ...rating(r),
    price: parseStructuredDisplayPrice(at(r, 'structuredDisplayPrice') ?? at(r, 'pricingQuote', 'structuredStayDisplayPrice'), ctx.includeTaxes === true),
    accommodations: all.filter((x) => /^(BEDINFO|BATHROOMINFO)$/.test(stringText(x, 'type'))).map((x) => stringText(x, 'body')),
    badges: arr(r, 'badges')
      .map((b) => stringText(b, 'text'))
      .filter(Boolean),
    images: pictures.map((p) => stringText(p, 'picture')).filter(Boolean),
  };
  if (checkIn) out.check_in_date = checkIn;
  if (checkOut) out.check_out_date = checkOut;
  if (ctx.timePeriod) out.time_period = ctx.timePeriod;
  if (typeof latitude === 'number' && typeof longitude === 'number') {
    out.gps_coordinates = { latitude, longitude };
  }
  if (freeCancel) out.has_free_cancellation = true;
  if (distanceBody) {
    out.distance = distanceBody;
    const v = parseDisplayedAmount(distanceBody);
    if (v != null) out.extracted_distance = v;
  }
  return out;
}

function nextCursor(pagination: Json, current: string | undefined): string | null {
  const explicit = stringText(pagination, 'nextPageCursor');
  if (explicit) return explicit;
  const cursors = arr(pagination, 'pageCursors').map((c) => stringText(c));
  const at = current ? cursors.indexOf(current) : 0;
  return at >= 0 ? (cursors[at + 1] ?? null) : null;
}

/** Accepts the full GraphQL reply or a `{ searchResults }` fragment of it. */
export function parseRentaltwoSearch(payload: Json, ctx: RentaltwoSearchContext): RentaltwoSearchPage {
  const results = at(payload, 'data', 'presentation', 'staysSearch', 'results') ?? payload;
  const list = arrOrNull(results, 'searchResults');
  if (!list) throw new UpstreamContractChanged('rentaltwo', 'staysSearch.results.searchResults');
  const offset = ctx.offset ?? 0;
  const properties: RentaltwoProperty[] = [];
  for (const r of list) {
    const type = at(r, '__typename');
    if (type && type !== 'StaySearchResult') continue;
    const p = property(r, offset + properties.length + 1, ctx);
    if (p) properties.push(p);
  }
  return { properties, next_page_token: nextCursor(at(results, 'paginationInfo'), ctx.cursor) };
}
