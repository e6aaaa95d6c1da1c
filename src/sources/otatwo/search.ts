/**
 * The `propertySearch` GraphQL reply (shared by `otatwo` and `otathree` search): result cards,
 * name → numeric property id, lead price and the displayed stay total.
 */
import { UpstreamContractChanged } from '../../platform/errors.js';
import { finiteNumber, stringText } from '../shared/json-values.js';
import { parseDisplayedAmount } from '../shared/offer.js';

type Json = any;

export interface PropertySearchResult {
  property_id: string;
  name: string;
  available: boolean | null;
  /** The card's lead price (nightly on the 2023 layout; read `price_messages` for its meaning). */
  price: number | null;
  price_text: string;
  price_messages: string[];
  currency: string;
  strikeout: number | null;
  strikeout_text: string;
  /** e.g. "$3,089 total". */
  total_text: string;
  total: number | null;
  review_score: number | null;
  review_count: number | null;
  latitude: number | null;
  longitude: number | null;
  neighborhood: string;
  badges: string[];
}

export interface PropertySearchPage {
  /** e.g. 889 matched properties. */
  total_results: number | null;
  check_in: string | null;
  check_out: string | null;
  results: PropertySearchResult[];
}

function ymd(d: Json): string | null {
  if (!d?.year || !d?.month || !d?.day) return null;
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

function fromProperty(p: Json): PropertySearchResult {
  const price = p?.price ?? {};
  const lines: Json[] = (price.displayMessages ?? []).flatMap((m: Json) => m?.lineItems ?? []);
  const totalLine = lines.map((li) => stringText(li?.value)).find((v) => /\btotal\b/i.test(v)) ?? '';
  const strikeLine = lines.find((li) => li?.role === 'STRIKEOUT');
  const strike = finiteNumber(price.strikeOut?.amount);
  const badges = [p?.offerBadge?.primary?.text, p?.offerBadge?.secondary?.text].map(stringText).filter(Boolean);
  return {
    property_id: stringText(p?.id),
    name: stringText(p?.name),
    available: typeof p?.availability?.available === 'boolean' ? p.availability.available : null,
    price: finiteNumber(price.lead?.amount),
    price_text: stringText(price.lead?.formatted),
    price_messages: (price.priceMessages ?? []).map((m: Json) => stringText(m?.value)).filter(Boolean),
    currency: stringText(price.lead?.currencyInfo?.code),
    strikeout: strike != null && strike > 0 ? strike : null,
    strikeout_text: strike != null && strike > 0 ? stringText(price.strikeOut?.formatted) || stringText(strikeLine?.price?.formatted) : '',
    total_text: totalLine,
    total: totalLine ? parseDisplayedAmount(totalLine) : null,
    // Unreviewed properties report score 0 with total 0: no score rather than a zero score.
    review_score: finiteNumber(p?.reviews?.total) ? finiteNumber(p?.reviews?.score) : null,
    review_count: finiteNumber(p?.reviews?.total),
    latitude: finiteNumber(p?.mapMarker?.latLong?.latitude),
    longitude: finiteNumber(p?.mapMarker?.latLong?.longitude),
    neighborhood: stringText(p?.neighborhood?.name),
    badges,
  };
}

export function parsePropertySearch(alias: 'otatwo' | 'otathree', payload: Json): PropertySearchPage {
  const search = payload?.data?.propertySearch;
  if (!search || typeof search !== 'object') throw new UpstreamContractChanged(alias, 'data.propertySearch');
  const cards: Json[] = Array.isArray(search.propertySearchListings) ? search.propertySearchListings : [];
  const list: Json[] = Array.isArray(search.properties) ? search.properties : [];
  if (!Array.isArray(search.properties) && !Array.isArray(search.propertySearchListings)) {
    throw new UpstreamContractChanged(alias, 'propertySearch.properties');
  }
  const seen = new Set<string>();
  const results: PropertySearchResult[] = [];
  for (const p of [...list, ...cards]) {
    if (p?.__typename !== 'Property' || !stringText(p?.id) || seen.has(stringText(p.id))) continue;
    seen.add(stringText(p.id));
    results.push(fromProperty(p));
  }
  const range = search.searchCriteria?.resolvedDateRange;
  return {
    total_results: finiteNumber(search.summary?.matchedPropertiesSize),
    check_in: ymd(range?.checkInDate),
    check_out: ymd(range?.checkOutDate),
    results,
  };
}

export function parseOtatwoSearch(payload: Json): PropertySearchPage {
  return parsePropertySearch('otatwo', payload);
}
