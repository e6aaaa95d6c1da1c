/**
 * `otathree` I/O: the stay (rooms and rate plans), guest reviews and the property search, on the
 * brand host of the group gateway. Parsing stays in `stay.ts`, `reviews.ts` and `../shared/typeahead.ts`.
 */
import { buildProvenance } from '../../domain/provenance.js';
import { OPERATIONS, OTATHREE_MARKET_CURRENCY, graphqlContext, pointOfSale, type OtathreeMarket } from '../shared/group-graphql.js';
import { guards } from './guards.js';
import { callGroupGraphql, callPropertyOffers, type GroupContext } from '../shared/group-gateway.js';
import { priceProvenance, seconds } from '../shared/observation.js';
import { withHeadlineProvenance, withOfferProvenance, type OtaHeadlineOut, type OtaOfferOut } from '../shared/ota-schemas.js';
import { assertStayAnswered, stayWindow } from '../shared/stay.js';
import { parseOtathreeReviews, type OtathreeReview } from './reviews.js';
import { parseOtathreeStay } from './stay.js';

const COLLECTOR = 'otathree.graphql';

export interface OtathreeStayInput {
  property_id: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  market: OtathreeMarket;
  rooms: boolean;
}

export interface OtathreeStayOutput {
  search_parameters: {
    engine: string;
    property_id: string;
    check_in_date: string;
    check_out_date: string;
    adults: number;
    market: string;
    currency: string;
    rooms: boolean;
  };
  property: OtaHeadlineOut;
  rooms: { unit_id: string; name: string; cheapest_total: number | null; offers: OtaOfferOut[] }[];
  meta: {
    source: 'otathree';
    nights: number;
    wire_bytes: number;
    elapsed_s: number;
    room_types: number;
    offers: number;
    egress_mode: string;
    comparable_across_markets: false;
    collection_id: string;
    observed_at: string;
  };
}

export async function fetchOtathreeStay(deps: GroupContext, input: OtathreeStayInput): Promise<OtathreeStayOutput> {
  return (await readOtathreeStay(deps, input)).stay;
}

/** The stay's answer, and the rooms its prices cover as the reply states (compare's parity reads it). */
export async function readOtathreeStay(deps: GroupContext, input: OtathreeStayInput): Promise<{ stay: OtathreeStayOutput; roomCount: number | null }> {
  const stay = stayWindow(input, 28);
  const currency = OTATHREE_MARKET_CURRENCY[input.market];
  const { parsed, obs } = await callPropertyOffers(
    deps,
    'otathree',
    guards.drift.stay,
    OPERATIONS.roomsAndRates,
    { market: input.market, propertyId: input.property_id, window: stay, adults: input.adults },
    (data) => parseOtathreeStay(data, { propertyId: input.property_id, marketCurrency: currency, rooms: input.rooms, nights: stay.nights }),
  );
  assertStayAnswered(stay, { checkIn: parsed.check_in, checkOut: parsed.check_out });
  const key = { propertyId: input.property_id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.adults };
  const facts = { sourceKind: 'ota_rate_plan', collector: COLLECTOR, market: input.market, requestedCurrency: currency, priceBasis: 'stay_rate_plan' };
  const rooms = parsed.rooms.map((r) => ({ ...r, offers: r.offers.map((o) => withOfferProvenance(o, obs, key, facts)) }));
  const headline = parsed.property;
  const provenance = priceProvenance(obs, key, {
    sourceKind: 'ota_offer',
    collector: COLLECTOR,
    market: input.market,
    requestedCurrency: currency,
    returnedCurrency: headline.total != null || headline.price_per_night != null ? headline.currency : null,
    priceBasis: 'stay_headline',
    derivation: headline.basis === 'sticky_bar' ? 'upstream' : 'normalized_upstream',
    rateId: null,
  });
  const answer: OtathreeStayOutput = {
    search_parameters: {
      engine: 'ota_otathree',
      property_id: input.property_id,
      check_in_date: stay.checkIn,
      check_out_date: stay.checkOut,
      adults: input.adults,
      market: input.market,
      currency,
      rooms: input.rooms,
    },
    property: withHeadlineProvenance(headline, provenance),
    rooms,
    meta: {
      source: 'otathree',
      nights: stay.nights,
      wire_bytes: obs.wireBytes,
      elapsed_s: seconds(obs.elapsedMs),
      room_types: parsed.room_types,
      offers: parsed.offers,
      egress_mode: obs.egressMode,
      comparable_across_markets: false,
      collection_id: obs.collectionId,
      observed_at: obs.observedAt.toISOString(),
    },
  };
  return { stay: answer, roomCount: parsed.room_count };
}

/** The reviews document, written from the fields public clients request (the parser reads exactly these). */
const REVIEWS_QUERY = `query PropertyFilteredReviewsQuery($context: ContextInput!, $propertyId: String!, $searchCriteria: PropertySearchCriteriaInput!) {
  propertyReviewSummaries(context: $context, propertyIds: [$propertyId], searchCriteria: $searchCriteria) { totalCount { raw } }
  propertyInfo(context: $context, propertyId: $propertyId) {
    id
    reviewInfo(searchCriteria: $searchCriteria) {
      reviews {
        id locale title text
        reviewScoreWithDescription { label value }
        submissionTime { longDateFormat }
        themes { label }
        reviewFooter { messages { seoStructuredData { itemprop content } text { ... on EGDSPlainText { text } ... on EGDSGraphicText { text } } } }
        reviewAuthorAttribution { text }
        managementResponses { response }
        reviewInteractionSections { primaryDisplayString reviewInteractionType }
        propertyReviewSource { text { value } }
      }
    }
  }
}`;

export interface OtathreeReviewsInput {
  property_id: string;
  size: number;
  start_index: number;
  market: OtathreeMarket;
}

export async function fetchOtathreeReviews(deps: GroupContext, input: OtathreeReviewsInput) {
  const pos = pointOfSale('otathree', input.market, deps.config.GROUP_POS_CONTEXTS);
  const body = [
    {
      operationName: 'PropertyFilteredReviewsQuery',
      variables: {
        context: graphqlContext(pos),
        propertyId: input.property_id,
        searchCriteria: {
          primary: { dateRange: null, rooms: [{ adults: 2 }], destination: { regionId: null } },
          secondary: {
            booleans: [
              { id: 'includeRecentReviews', value: true },
              { id: 'includeRatingsOnlyReviews', value: true },
              { id: 'overrideEmbargoForIndividualReviews', value: true },
            ],
            counts: [
              { id: 'startIndex', value: input.start_index },
              { id: 'size', value: input.size },
            ],
            selections: [{ id: 'sortBy', value: 'NEWEST_TO_OLDEST_BY_LANGUAGE' }],
          },
        },
      },
      query: REVIEWS_QUERY,
    },
  ];
  const { parsed: page, obs } = await callGroupGraphql(
    deps,
    'otathree',
    { body, market: input.market, root: 'propertyInfo', notFound: `otathree property ${input.property_id} not found`, baseUrl: pos.baseUrl },
    parseOtathreeReviews,
  );
  const warnings: string[] = [];
  const unrated = page.reviews.filter((r) => r.rating == null).length;
  if (unrated) warnings.push(`${unrated} review(s) carry no readable score label; rating is null`);
  const reviews: (OtathreeReview & { source: string })[] = page.reviews.map((r) => ({ source: 'otathree', ...r }));
  return {
    source: 'otathree',
    property_id: input.property_id,
    total: page.total,
    offset: input.start_index,
    limit: input.size,
    rating_scale: 10 as const,
    count: reviews.length,
    reviews,
    provenance: buildProvenance({
      source: 'otathree',
      sourceKind: 'ota_reviews',
      collector: `${COLLECTOR}.reviews`,
      sourcePropertyId: input.property_id,
      checkIn: '',
      checkOut: '',
      adults: 0,
      collectionId: obs.collectionId,
      observedAt: obs.observedAt,
      requestedMarket: input.market,
      requestedCurrency: null,
      returnedCurrency: null,
      egressMode: obs.egressMode,
      priceBasis: 'not_a_price',
      derivation: 'upstream',
      upstreamRateId: null,
    }),
    wire_bytes: obs.wireBytes,
    elapsed_s: seconds(obs.elapsedMs),
    egress_mode: obs.egressMode,
    collection_id: obs.collectionId,
    observed_at: obs.observedAt.toISOString(),
    warnings,
  };
}
