/**
 * What the flight routes report back besides the upstream data: the effective search in the
 * compatible API's parameter names (every value a string) and what was asked versus priced.
 */
import type { EgressMode } from '../../../upstream/egress.js';
import type { FlightSearch } from './params.js';
import type { FlightResultsPage } from './parse-results.js';
import type { PricingBlock } from './schemas.js';

/** `search_parameters` of a normalized search; a multi-city search is echoed as `multi_city_json`. */
export function searchEcho(search: FlightSearch): Record<string, string> {
  const out: Record<string, string> = {};
  if (search.flightType === 'multi_city') {
    out.multi_city_json = JSON.stringify(search.legs.map((l) => ({ departure_id: l.departure.join(','), arrival_id: l.arrival.join(','), date: l.date })));
  } else {
    const [outbound, back] = search.legs;
    out.departure_id = outbound!.departure.join(',');
    out.arrival_id = outbound!.arrival.join(',');
    out.outbound_date = outbound!.date;
    if (search.flightType === 'round_trip') out.return_date = back!.date;
  }
  out.flight_type = search.flightType;
  out.travel_class = search.travelClass;
  out.stops = search.stops;
  out.adults = String(search.passengers.adults);
  out.children = String(search.passengers.children);
  out.infants_in_seat = String(search.passengers.infantsInSeat);
  out.infants_on_lap = String(search.passengers.infantsOnLap);
  if (search.currency) out.currency = search.currency;
  if (search.hl) out.hl = search.hl;
  if (search.gl) out.gl = search.gl;
  return out;
}

/** Currency of the page's prices, read from the first itinerary whose price token names one. */
export function pageCurrency(page: FlightResultsPage): string | null {
  return [...page.best_flights, ...page.other_flights].find((i) => i.currency)?.currency ?? null;
}

export function pricing(search: Pick<FlightSearch, 'currency' | 'hl' | 'gl'>, priced: string | null, egressMode: EgressMode): PricingBlock {
  return {
    requested_currency: search.currency ?? null,
    currency: priced,
    hl: search.hl ?? null,
    gl: search.gl ?? null,
    egress_mode: egressMode,
  };
}

/** Applies the caller's currency / language / market over the ones a token carries. */
export function withLocale<T extends Pick<FlightSearch, 'currency' | 'hl' | 'gl'>>(search: T, locale: { currency?: string; hl?: string; gl?: string }): T {
  return {
    ...search,
    ...(locale.currency ? { currency: locale.currency } : {}),
    ...(locale.hl ? { hl: locale.hl } : {}),
    ...(locale.gl ? { gl: locale.gl } : {}),
  };
}
