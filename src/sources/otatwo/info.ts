/**
 * The `propertyInfo` GraphQL reply (shared by `otatwo` and `otathree`): name, address,
 * coordinates, star rating and the review summary as displayed.
 */
import { UpstreamContractChanged } from '../../platform/errors.js';

type Json = any;

export interface PropertyInfoRecord {
  property_id: string;
  name: string;
  tagline: string;
  address: {
    line: string;
    first_line: string;
    second_line: string;
    city: string;
    province: string;
    /** As the reply states it (three letters, e.g. VNM). */
    country_code: string;
  };
  latitude: number | null;
  longitude: number | null;
  star_rating: number | null;
  /** e.g. "9.4/10 Exceptional". */
  review_score_text: string;
  review_score: number | null;
  /** e.g. "See all 149 reviews". */
  review_count_text: string;
  review_count: number | null;
  images: string[];
}

function text(v: Json): string {
  return typeof v === 'string' ? v.trim() : '';
}

function num(v: Json): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function parsePropertyInfo(alias: 'otatwo' | 'otathree', payload: Json): PropertyInfoRecord {
  const info = payload?.data?.propertyInfo;
  const summary = info?.summary;
  if (!summary || typeof summary !== 'object') throw new UpstreamContractChanged(alias, 'data.propertyInfo.summary');
  const addr = summary.location?.address ?? {};
  const coords = summary.location?.coordinates ?? {};
  const review = info?.reviewInfo?.summary ?? {};
  const scoreText = text(review.overallScoreWithDescriptionA11y?.value);
  const countText = text(review.propertyReviewCountDetails?.shortDescription);
  const score = /^(\d+(?:\.\d+)?)\s*\/\s*10\b/.exec(scoreText);
  const count = /(\d[\d,]*)/.exec(countText);
  const images = (info?.propertyGallery?.images ?? [])
    .map((im: Json) => text(im?.image?.url))
    .filter(Boolean);
  return {
    property_id: text(summary.id),
    name: text(summary.name),
    tagline: text(summary.tagline),
    address: {
      line: text(addr.addressLine),
      first_line: text(addr.firstAddressLine),
      second_line: text(addr.secondAddressLine),
      city: text(addr.city),
      province: text(addr.province),
      country_code: text(addr.countryCode),
    },
    latitude: num(coords.latitude),
    longitude: num(coords.longitude),
    star_rating: num(summary.overview?.propertyRating?.rating),
    review_score_text: scoreText,
    review_score: score ? Number(score[1]) : null,
    review_count_text: countText,
    review_count: count ? Number(count[1].replace(/,/g, '')) : null,
    images,
  };
}

export function parseOtatwoPropertyInfo(payload: Json): PropertyInfoRecord {
  return parsePropertyInfo('otatwo', payload);
}
