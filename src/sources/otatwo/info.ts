/**
 * The `propertyInfo` GraphQL reply (shared by `otatwo` and `otathree`): name, address,
 * coordinates, star rating and the review summary as displayed.
 */
import { UpstreamContractChanged } from '../../platform/errors.js';
import { finiteNumber, stringText } from '../shared/json-values.js';

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

export function parsePropertyInfo(alias: 'otatwo' | 'otathree', payload: Json): PropertyInfoRecord {
  const info = payload?.data?.propertyInfo;
  const summary = info?.summary;
  if (!summary || typeof summary !== 'object') throw new UpstreamContractChanged(alias, 'data.propertyInfo.summary');
  const addr = summary.location?.address ?? {};
  const coords = summary.location?.coordinates ?? {};
  const review = info?.reviewInfo?.summary ?? {};
  const scoreText = stringText(review.overallScoreWithDescriptionA11y?.value);
  const countText = stringText(review.propertyReviewCountDetails?.shortDescription);
  const score = /^(\d+(?:\.\d+)?)\s*\/\s*10\b/.exec(scoreText);
  const count = /(\d[\d,]*)/.exec(countText);
  const images = (info?.propertyGallery?.images ?? [])
    .map((im: Json) => stringText(im?.image?.url))
    .filter(Boolean);
  return {
    property_id: stringText(summary.id),
    name: stringText(summary.name),
    tagline: stringText(summary.tagline),
    address: {
      line: stringText(addr.addressLine),
      first_line: stringText(addr.firstAddressLine),
      second_line: stringText(addr.secondAddressLine),
      city: stringText(addr.city),
      province: stringText(addr.province),
      country_code: stringText(addr.countryCode),
    },
    latitude: finiteNumber(coords.latitude),
    longitude: finiteNumber(coords.longitude),
    star_rating: finiteNumber(summary.overview?.propertyRating?.rating),
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
