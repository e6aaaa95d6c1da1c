/**
 * Hostel site I/O on its API gateway: one property's availability for a stay, and a destination
 * search (autocomplete to a city id, then the city's property list for the dates).
 */
import { guards } from './guards.js';
import type { SourceUses } from '../context.js';
import { NotFound } from '../../domain/errors.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { checkStatus, observe, priceProvenance, seconds } from '../shared/observation.js';
import { assertNightsAnswered, stayWindow } from '../shared/stay.js';
import { parseHostelAvailability } from './availability.js';
import { parseHostelAutocomplete, parseHostelCityProperties } from './search.js';

const API = '/legacy-hwapi-service/2.2';

export interface HostelStayInput {
  property_id: string;
  check_in: string;
  nights: number;
  guests: number;
  currency: string;
}

export async function fetchHostelAvailability(deps: SourceUses<'upstream'>, input: HostelStayInput) {
  const stay = stayWindow(input, 30);
  const response = await deps.upstream.fetch({
    source: 'hostel',
    path: `${API}/properties/${encodeURIComponent(input.property_id)}/availability/`,
    query: { 'date-start': stay.checkIn, 'num-nights': stay.nights, 'number-of-guests': input.guests, currency: input.currency },
    expect: 'json',
    notFound: `hostel property ${input.property_id} not found`,
  });
  checkStatus(response);
  const obs = observe('hostel', response);
  const a = await withContractGuard('hostel', response, (r) => parseHostelAvailability(r.json()));
  // The reply prices named nights (priceBreakdown dates): they must be nights of the asked stay.
  assertNightsAnswered(
    stay,
    a.rooms.flatMap((room) => room.offers.flatMap((o) => o.nights.map((n) => n.date))),
  );
  const key = { propertyId: a.property_id || input.property_id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.guests };
  return {
    property_id: key.propertyId,
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    guests: input.guests,
    currency: a.currency,
    deposit_percentage: a.deposit_percentage,
    free_cancellation_until: a.free_cancellation_until,
    stay_rule_violations: a.stay_rule_violations,
    collection_id: obs.collectionId,
    observed_at: obs.observedAt.toISOString(),
    wire_bytes: obs.wireBytes,
    elapsed_s: seconds(obs.elapsedMs),
    rooms: a.rooms.map((room) => ({
      ...room,
      offers: room.offers.map((o) => ({
        ...o,
        provenance: priceProvenance(obs, key, {
          sourceKind: 'ota_rate_plan',
          collector: 'hostel.availability',
          market: null,
          requestedCurrency: input.currency,
          returnedCurrency: o.currency,
          // Dorm rows are sold per bed, private rows per room.
          priceBasis: room.kind === 'dorm' ? 'stay_total_per_bed' : 'stay_total_per_room',
          derivation: 'upstream',
          rateId: `${room.room_id}:${o.rate_plan_id}`,
        }),
      })),
    })),
  };
}

export interface HostelSearchInput {
  query: string;
  check_in: string;
  nights: number;
  limit: number;
}

export async function fetchHostelSearch(deps: SourceUses<'upstream'>, input: HostelSearchInput) {
  const stay = stayWindow(input, 30);
  const upstream = deps.upstream;
  const ac = await upstream.fetch({ source: 'hostel', path: '/autocomplete-service/v1/autocomplete/web', query: { text: input.query }, expect: 'json' });
  checkStatus(ac);
  const places = await withContractGuard('hostel', ac, (r) => parseHostelAutocomplete(r.json()));
  const city = places.find((p) => p.type === 'city') ?? places.find((p) => p.city_id);
  if (!city) throw new NotFound(`no hostel destination matches "${input.query}"`);
  const cityId = city.type === 'city' ? city.id : (city.city_id as string);
  const response = await upstream.fetch({
    source: 'hostel',
    path: `${API}/cities/${encodeURIComponent(cityId)}/properties/`,
    query: { 'date-start': stay.checkIn, 'num-nights': stay.nights },
    expect: 'json',
    notFound: `hostel city ${cityId} not found`,
  });
  checkStatus(response);
  const obs = observe('hostel', response);
  const page = await withContractGuard('hostel', response, (r) => parseHostelCityProperties(r.json()), {
    rule: guards.drift.city_properties,
    priced: true,
  });
  return {
    query: input.query,
    matched_place: city.name,
    city_id: page.city_id ?? cityId,
    city: page.city,
    country: page.country,
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    total_results: page.total_results,
    collection_id: obs.collectionId,
    observed_at: obs.observedAt.toISOString(),
    wire_bytes: ac.wireBytes + obs.wireBytes,
    properties: page.properties.slice(0, input.limit).map((p) => ({
      ...p,
      provenance:
        p.lowest_price_per_night == null
          ? null
          : priceProvenance(
              obs,
              { propertyId: p.property_id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: 1 },
              {
                sourceKind: 'ota_search_card',
                collector: 'hostel.city_properties',
                market: null,
                requestedCurrency: null,
                returnedCurrency: p.currency,
                priceBasis: 'nightly_lowest_price',
                derivation: 'upstream',
                rateId: null,
              },
            ),
    })),
  };
}
