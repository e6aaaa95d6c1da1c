/**
 * `otaone` I/O: the property page priced for a stay (rooms route) and the search-results page
 * (search route). English pages (`.en-gb`) because the policy words are read in English.
 */
import { guards } from './guards.js';
import type { SourceUses } from '../context.js';
import { NotFound } from '../../domain/errors.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import type { Provenance } from '../../domain/provenance.js';
import { checkStatus, observe, priceProvenance } from '../shared/observation.js';
import { assertStayAnswered, stayWindow } from '../shared/stay.js';
import { parseOtaoneHotelPage, type OtaoneRatePlan } from './hotel-page.js';
import { otaonePropertyPath } from './page-url.js';
import { parseOtaoneSearchCards, type OtaoneSearchCard } from './search-cards.js';

const LANG = 'en-gb';

export interface OtaoneRoomsInput {
  pagename: string;
  country: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  rooms: number;
  currency: string;
}

export async function fetchOtaoneRooms(deps: SourceUses<'upstream'>, input: OtaoneRoomsInput) {
  const stay = stayWindow(input, 30);
  const path = otaonePropertyPath({
    country: input.country,
    pagename: input.pagename,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    adults: input.adults,
    rooms: input.rooms,
    currency: input.currency,
    lang: LANG,
  });
  const notFound = `otaone property ${input.country}/${input.pagename} not found`;
  const response = await deps.upstream.fetch({ source: 'otaone', path, market: input.country.toUpperCase(), notFound });
  checkStatus(response);
  // An unknown page name lands on a search or home page instead of a property page.
  if (!/\/hotel\/[a-z]{2}\//.test(new URL(response.url).pathname)) throw new NotFound(notFound);
  const obs = observe('otaone', response);
  const page = await withContractGuard('otaone', response, (r) => parseOtaoneHotelPage(r.text()));
  assertStayAnswered(stay, { checkIn: page.check_in, checkOut: page.check_out });
  const key = { propertyId: page.hotel_id || input.pagename, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.adults };
  const plan = (p: OtaoneRatePlan): OtaoneRatePlan & { provenance: Provenance } => ({
    ...p,
    provenance: priceProvenance(obs, key, {
      sourceKind: 'ota_rate_plan',
      collector: 'otaone.property_page',
      market: input.country.toUpperCase(),
      requestedCurrency: input.currency,
      returnedCurrency: p.currency,
      priceBasis: 'stay_rate_plan',
      derivation: 'upstream',
      rateId: p.block_id || null,
    }),
  });
  return {
    pagename: input.pagename,
    hotel_id: page.hotel_id,
    property_name: page.property_name,
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    currency: page.currency,
    sold_out: page.sold_out,
    unavailable_reason: page.unavailable_reason,
    rendered: false,
    catalogue_from_graphql: false,
    cheapest_rate: page.cheapest_rate,
    wire_bytes: obs.wireBytes,
    collection_id: obs.collectionId,
    observed_at: obs.observedAt.toISOString(),
    rooms: page.rooms.map((r) => ({ ...r, rate_plans: r.rate_plans.map(plan) })),
  };
}

export interface OtaoneSearchInput {
  query: string;
  check_in?: string | null;
  nights: number;
  adults: number;
  rooms: number;
  currency: string;
  limit: number;
}

export async function fetchOtaoneSearch(deps: SourceUses<'upstream'>, input: OtaoneSearchInput) {
  const stay = input.check_in ? stayWindow({ check_in: input.check_in, nights: input.nights }, 30) : null;
  const response = await deps.upstream.fetch({
    source: 'otaone',
    path: `/searchresults.${LANG}.html`,
    query: {
      ss: input.query,
      checkin: stay?.checkIn,
      checkout: stay?.checkOut,
      group_adults: input.adults,
      no_rooms: input.rooms,
      group_children: 0,
      selected_currency: input.currency,
    },
  });
  checkStatus(response);
  const obs = observe('otaone', response);
  const cards = await withContractGuard('otaone', response, (r) => parseOtaoneSearchCards(r.text()), {
    rule: guards.drift.search_cards,
    priced: !!stay,
  });
  const withProv = (c: OtaoneSearchCard) => ({
    ...c,
    provenance:
      c.price != null
        ? priceProvenance(
            obs,
            { propertyId: `${c.country}/${c.pagename}`, checkIn: stay?.checkIn ?? '', checkOut: stay?.checkOut ?? '', adults: input.adults },
            {
              sourceKind: 'ota_search_card',
              collector: 'otaone.search_page',
              market: null,
              requestedCurrency: input.currency,
              returnedCurrency: c.currency,
              priceBasis: 'stay_headline',
              derivation: 'normalized_upstream',
              rateId: null,
            },
          )
        : null,
  });
  return {
    query: input.query,
    check_in: stay?.checkIn ?? null,
    check_out: stay?.checkOut ?? null,
    collection_id: obs.collectionId,
    observed_at: obs.observedAt.toISOString(),
    wire_bytes: obs.wireBytes,
    results: cards.slice(0, input.limit).map(withProv),
  };
}
