import { UpstreamContractChanged } from '../../domain/errors.js';
import { arrOrNull, dateOrInstant, nonEmptyStr, nonEmptyText, num, obj, stringText, textOrNull } from '../../domain/json.js';

export interface AppReview {
  review_id: string;
  title: string | null;
  text: string;
  rating: number | null;
  author: string | null;
  date: string | null;
  edited: boolean;
  developer_response?: { id: string | null; text: string; date: string | null };
}

export interface AppRatings {
  app_id: string | null;
  rating: number | null;
  ratings_count: number | null;
  /** Written reviews (the total the review pages walk). */
  reviews_count: number | null;
  histogram: Record<'1' | '2' | '3' | '4' | '5', number>;
}

/** Review dates as precise as the feed states them. */
const iso = dateOrInstant;

const isFiveCounts = (v: unknown[] | null): v is [number, number, number, number, number] =>
  v !== null && v.length === 5 && v.every((c) => typeof c === 'number');

/**
 * The storefront's ratings summary (`/<cc>/customer-reviews/id<app>?displayable-kind=11` with a
 * store-front header): `ratingCountList` holds the 1- to 5-star counts in that order.
 */
export function parseAppRatings(payload: unknown): AppRatings {
  const root = obj(payload);
  const list = arrOrNull(root, 'ratingCountList');
  if (!root || !isFiveCounts(list)) throw new UpstreamContractChanged('apps', 'ratingCountList of five counts');
  return {
    app_id: textOrNull(root, 'adamId'),
    rating: num(root.ratingAverage),
    ratings_count: num(root.ratingCount),
    reviews_count: num(root.totalNumberOfReviews),
    histogram: { '1': list[0], '2': list[1], '3': list[2], '4': list[3], '5': list[4] },
  };
}

/** One page of `userReviewsRow`; rows without text (bare ratings) are left out. `rows` counts every row. */
export function parseAppReviews(payload: unknown): { reviews: AppReview[]; rows: number } {
  const list = arrOrNull(obj(payload), 'userReviewList');
  if (!list) throw new UpstreamContractChanged('apps', 'userReviewList array');
  const out: AppReview[] = [];
  for (const raw of list) {
    const r = obj(raw);
    const id = r?.userReviewId;
    const body = stringText(r, 'body');
    if (!r || (typeof id !== 'string' && typeof id !== 'number') || body === '') continue;
    const review: AppReview = {
      review_id: String(id),
      title: nonEmptyText(r.title),
      text: body,
      rating: num(r.rating),
      author: nonEmptyStr(r.name),
      date: iso(r.date),
      edited: r.isEdited === true,
    };
    const dev = obj(r.developerResponse);
    const devText = nonEmptyText(dev?.body);
    if (dev && devText !== null) {
      review.developer_response = { id: textOrNull(dev, 'id'), text: devText, date: iso(dev.modified) };
    }
    out.push(review);
  }
  return { reviews: out, rows: list.length };
}
