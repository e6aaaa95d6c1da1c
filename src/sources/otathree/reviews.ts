/**
 * `POST /v1/ota/otathree/reviews`: guest reviews from the group's `PropertyFilteredReviewsQuery`
 * reply (`data.propertyInfo.reviewInfo.reviews[]`, total in `propertyReviewSummaries[0]`).
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, at, stringText, type Json } from '../../domain/json.js';

export interface OtathreeReview {
  review_id: string;
  /** 0-10, parsed from the score label ("10/10 Excellent"). */
  rating: number | null;
  title: string;
  text: string;
  /** As displayed, e.g. "Dec 9, 2023". */
  date: string;
  author: string;
  management_reply?: string;
  /** e.g. de_DE. */
  language: string;
  helpful_votes?: number;
  /** Liked/disliked themes and a verified marker when shown. */
  labels: string[];
  /** e.g. "Stayed 3 nights in Dec 2023". */
  stay_info: string;
}

export interface OtathreeReviewPage {
  total: number | null;
  reviews: OtathreeReview[];
}

function rating(label: string): number | null {
  const m = /^\s*(\d+(?:[.,]\d+)?)\s*(?:\/\s*10|out of 10)/i.exec(label);
  if (!m) return null;
  const n = Number(m[1]!.replace(',', '.'));
  return n >= 0 && n <= 10 ? n : null;
}

function review(r: Json): OtathreeReview {
  const score = at(r, 'reviewScoreWithDescription');
  const footer = arr(r, 'reviewFooter', 'messages');
  const stay = footer.map((m) => stringText(m, 'text', 'text')).find(Boolean) ?? '';
  const helpful = arr(r, 'reviewInteractionSections').find((s) => at(s, 'reviewInteractionType') === 'HELPFUL_REVIEW');
  const helpfulText = at(helpful, 'primaryDisplayString');
  const votes = helpful && /^\d+$/.test(stringText(helpfulText)) ? Number(helpfulText) : undefined;
  const replies = arr(r, 'managementResponses')
    .map((m) => stringText(m, 'response'))
    .filter(Boolean);
  const labels = [...arr(r, 'themes').map((t) => stringText(t, 'label')), stringText(r, 'propertyReviewSource', 'text', 'value')].filter(Boolean);
  const author =
    stringText(r, 'reviewAuthorAttribution', 'text') ||
    stringText(
      footer.find((m) => at(m, 'seoStructuredData', 'itemprop') === 'author'),
      'seoStructuredData',
      'content',
    );
  const out: OtathreeReview = {
    review_id: stringText(r, 'id'),
    rating: rating(stringText(score, 'value') || stringText(score, 'label')),
    title: stringText(r, 'title'),
    text: stringText(r, 'text'),
    date: stringText(r, 'submissionTime', 'longDateFormat') || stringText(r, 'submissionTimeLocalized'),
    author,
    language: stringText(r, 'locale'),
    labels,
    stay_info: stay,
  };
  if (replies.length) out.management_reply = replies.join('\n');
  if (votes !== undefined) out.helpful_votes = votes;
  return out;
}

export function parseOtathreeReviews(payload: Json): OtathreeReviewPage {
  const root: unknown = Array.isArray(payload) ? payload[0] : payload;
  const list = arrOrNull(root, 'data', 'propertyInfo', 'reviewInfo', 'reviews');
  if (!list) throw new UpstreamContractChanged('otathree', 'propertyInfo.reviewInfo.reviews');
  const raw = at(root, 'data', 'propertyReviewSummaries', 0, 'totalCount', 'raw');
  return { total: typeof raw === 'number' ? raw : null, reviews: list.map((r) => review(r)) };
}
