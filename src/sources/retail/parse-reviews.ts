import { UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { arr, at, nonEmptyText, num, obj, type Json } from '../../domain/json.js';

type Stars = '1' | '2' | '3' | '4' | '5';

interface RetailSummary {
  average: number | null;
  total: number | null;
  counts: Record<Stars, number | null>;
  percentages: Record<Stars, number | null>;
  recommended_pct: number | null;
}

interface RetailReview {
  source: string;
  review_id: string;
  rating: number | null;
  title: string | null;
  text: string | null;
  date: string | null;
  author: string | null;
  labels: string[];
}

export interface RetailReviewsPage {
  total: number | null;
  /** Reviews that have text: the ones the pages list. */
  reviews_with_text: number | null;
  summary: RetailSummary;
  reviews: RetailReview[];
}

const WORDS: Record<Stars, string> = { '1': 'One', '2': 'Two', '3': 'Three', '4': 'Four', '5': 'Five' };
const STARS: Stars[] = ['1', '2', '3', '4', '5'];
/** Reviews written on the retailer itself (syndicated ones name their source). */
const OWN_SOURCE = 'retail';

/** "2/15/2023" (M/D/YYYY, as the review list shows it) or an ISO timestamp → "2023-02-15". */
export function retailDate(v: unknown): string | null {
  const s = nonEmptyText(v);
  if (!s) return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  const iso = /^(\d{4}-\d{2}-\d{2})(?:T|$)/.exec(s);
  return iso?.[1] ?? null;
}

/** The `reviews` object of a product page's `__NEXT_DATA__` (props.pageProps.initialData.data.reviews). */
export function parseRetailReviews(reviewsData: unknown): RetailReviewsPage {
  const r = obj(reviewsData);
  if (!r || !Array.isArray(r.customerReviews)) throw new UpstreamContractChanged('retail', 'reviews.customerReviews');
  const counts = Object.fromEntries(STARS.map((k) => [k, num(r[`ratingValue${WORDS[k]}Count`])])) as Record<Stars, number | null>;
  const percentages = Object.fromEntries(STARS.map((k) => [k, num(r[`percentage${WORDS[k]}Count`])])) as Record<Stars, number | null>;
  const total = num(r.totalReviewCount);
  return {
    total,
    reviews_with_text: num(r.reviewsWithTextCount),
    summary: {
      average: num(r.averageOverallRating) ?? num(r.roundedAverageOverallRating),
      total,
      counts,
      percentages,
      recommended_pct: num(r.recommendedPercentage),
    },
    reviews: arr(r.customerReviews)
      .map((x) => retailReview(x))
      .filter((x): x is RetailReview => x !== null),
  };
}

function retailReview(raw: unknown): RetailReview | null {
  const c = obj(raw);
  const id = c?.reviewId;
  if (!c || (typeof id !== 'string' && typeof id !== 'number')) return null;
  const labels: string[] = [];
  for (const b of arr(c.badges)) {
    const t = nonEmptyText(b, 'glassBadge', 'text') ?? nonEmptyText(b, 'text');
    if (t && !labels.includes(t)) labels.push(t);
  }
  const source = c.syndicationSource;
  const syndication = source && typeof source === 'object' ? nonEmptyText(source, 'name') : nonEmptyText(source);
  return {
    source: syndication ?? OWN_SOURCE,
    review_id: String(id),
    rating: num(c.rating),
    title: nonEmptyText(c.reviewTitle),
    text: nonEmptyText(c.reviewText),
    date: retailDate(c.reviewSubmissionTime),
    author: nonEmptyText(c.userNickname),
    labels,
  };
}

/** Reviews subtree from a whole product or reviews page (`<script id="__NEXT_DATA__">`). */
export function extractRetailNextData(html: string): Json {
  const m = /<script[^>]*id="__NEXT_DATA__"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  if (!m) {
    if (/px-captcha|Robot or human\?|blocked\?url=/i.test(html)) throw new UpstreamFailed('BotChallenge');
    throw new UpstreamContractChanged('retail', '__NEXT_DATA__ script');
  }
  try {
    return JSON.parse(m[1]!);
  } catch {
    throw new UpstreamContractChanged('retail', '__NEXT_DATA__ JSON');
  }
}

/** props.pageProps.initialData.data.reviews of a page's __NEXT_DATA__. */
export function retailReviewsFromNextData(next: Json): unknown {
  const reviews = at(next, 'props', 'pageProps', 'initialData', 'data', 'reviews');
  if (!reviews) throw new UpstreamContractChanged('retail', 'initialData.data.reviews');
  return reviews;
}
