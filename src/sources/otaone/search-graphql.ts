/**
 * `otaone` search through its GraphQL `FullSearch` operation (POST /dml/graphql), or the same
 * object from the page's embedded cache: `data.searchQueries.search.results[]`. Searched without
 * dates, results carry no price and no blocks.
 */
import { UpstreamContractChanged } from '../../platform/errors.js';
import { num, text } from '../shared/json-values.js';

type Json = any;

export interface OtaoneSearchBlock {
  /** Parts of the block key as the reply gives them; the composite block_id string is not in this reply. */
  room_id: string;
  occupancy: number | null;
  policy_group_id: string;
  meal_plan_id: number | null;
  package_id: string;
  price: number | null;
  currency: string;
  free_cancellation_until: string | null;
}

export interface OtaoneSearchResult {
  position: number;
  hotel_id: string;
  name: string;
  pagename: string;
  country: string;
  city: string;
  address: string;
  display_location: string;
  distance: string;
  review_score: number | null;
  review_count: number | null;
  star_rating: number | null;
  sold_out: boolean;
  /** The card shows its free-cancellation / no-prepayment label. */
  free_cancellation: boolean;
  no_prepayment: boolean;
  /** Stay price when searched with dates; null otherwise. */
  price: number | null;
  price_text: string;
  currency: string;
  blocks: OtaoneSearchBlock[];
}

export interface OtaoneSearchPage {
  total_results: number | null;
  per_page: number | null;
  results: OtaoneSearchResult[];
}

function block(b: Json): OtaoneSearchBlock {
  const id = b?.blockId ?? {};
  return {
    room_id: text(id.roomId),
    occupancy: num(id.occupancy),
    policy_group_id: text(id.policyGroupId),
    meal_plan_id: num(id.mealPlanId),
    package_id: text(id.packageId),
    price: num(b?.finalPrice?.amount),
    currency: text(b?.finalPrice?.currency),
    free_cancellation_until: text(b?.freeCancellationUntil) || null,
  };
}

function result(r: Json, i: number): OtaoneSearchResult {
  const basic = r?.basicPropertyData;
  if (!basic || basic.id == null || !basic.pageName) {
    throw new UpstreamContractChanged('otaone', 'results[].basicPropertyData.{id,pageName}');
  }
  const loc = basic.location ?? {};
  const reviews = basic.reviewScore ?? basic.reviews ?? {};
  const stay = r?.priceDisplayInfoIrene?.displayPrice?.amountPerStay ?? {};
  const count = num(reviews.reviewCount ?? reviews.reviewsCount);
  return {
    position: i + 1,
    hotel_id: text(basic.id),
    name: text(r?.displayName?.text),
    pagename: text(basic.pageName),
    country: text(loc.countryCode).toLowerCase(),
    city: text(loc.city),
    address: text(loc.address),
    display_location: text(r?.location?.displayLocation),
    distance: text(r?.location?.mainDistance),
    // A property without reviews reports score 0 and count 0: no score, not a zero score.
    review_score: count ? num(reviews.score ?? reviews.totalScore) : null,
    review_count: count,
    star_rating: num(basic.starRating?.value),
    sold_out: r?.soldOutInfo?.isSoldOut === true,
    free_cancellation: r?.policies?.showFreeCancellation === true,
    no_prepayment: r?.policies?.showNoPrepayment === true,
    price: num(stay.amountUnformatted),
    price_text: text(stay.amount),
    currency: text(stay.currency),
    blocks: (Array.isArray(r?.blocks) ? r.blocks : []).map(block),
  };
}

export function parseOtaoneSearchGraphql(payload: Json): OtaoneSearchPage {
  const search = payload?.data?.searchQueries?.search;
  if (!search || !Array.isArray(search.results)) throw new UpstreamContractChanged('otaone', 'data.searchQueries.search.results');
  const props = search.results.filter((r: Json) => r?.__typename === undefined || r.__typename === 'SearchResultProperty');
  return {
    total_results: num(search.pagination?.nbResultsTotal),
    per_page: num(search.pagination?.nbResultsPerPage),
    results: props.map(result),
  };
}
