import type { SourceUses } from '../context.js';
import { guards } from './guards.js';
import { ApiError } from '../../domain/errors.js';
import { checkStatus } from '../shared/observation.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { parseAppLookup, parseAppSearch, type AppRecord } from './parse-app.js';
import { parseAppRatings, parseAppReviews, type AppReview } from './parse-reviews.js';
import {
  appLookupRequest,
  appRatingsRequest,
  appReviewsNextOffset,
  appReviewsRequest,
  appSearchRequest,
  normalizeAppId,
  type AppReviewSort,
  type AppsRequest,
} from './requests.js';

class AppsCall {
  wire_bytes = 0;
  constructor(private readonly deps: SourceUses<'upstream'>) {}

  /** `notFound`: the request is for the caller's app (a 404 is the app missing from the storefront). */
  async send(req: AppsRequest, notFound?: string): Promise<UpstreamResponse> {
    const res = await this.deps.upstream.fetch({ source: 'apps', path: req.path, headers: req.headers, expect: 'json', notFound });
    this.wire_bytes += res.wireBytes;
    return res;
  }
}

const APP_NOT_FOUND = 'app not found in this storefront';

export interface AppAnswer {
  app: AppRecord;
  /** Why the histogram is missing when its call failed; the record is still returned. */
  histogram_error?: string;
  wire_bytes: number;
}

/** Lookup by id or bundle id, then the storefront's ratings histogram. */
export async function fetchApp(deps: SourceUses<'upstream'>, input: { app_id?: string; bundle_id?: string; country: string }): Promise<AppAnswer> {
  const call = new AppsCall(deps);
  const res = await call.send(appLookupRequest(input), APP_NOT_FOUND);
  checkStatus(res);
  const context = { app_id: input.app_id ? normalizeAppId(input.app_id) : undefined, bundle_id: input.bundle_id };
  const app = await withContractGuard('apps', res, (r) => parseAppLookup(r.json(), context));
  let histogram_error: string | undefined;
  try {
    const ratings = await call.send(appRatingsRequest(app.app_id, input.country));
    checkStatus(ratings);
    app.histogram = (await withContractGuard('apps', ratings, (r) => parseAppRatings(r.json()))).histogram;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    histogram_error = typeof err.detail === 'string' ? err.detail : err.name;
  }
  return { app, ...(histogram_error ? { histogram_error } : {}), wire_bytes: call.wire_bytes };
}

export interface ReviewsAnswer {
  reviews: AppReview[];
  /** Written reviews in the storefront; null when the store does not state it. */
  total: number | null;
  next_offset?: number;
  wire_bytes: number;
}

/**
 * The storefront's ratings summary (an unknown app is a 404 there; it also gives the written-review
 * total), then one page of 20 review rows from `offset`.
 */
export async function fetchAppReviews(
  deps: SourceUses<'upstream'>,
  input: { app_id: string; country: string; sort: AppReviewSort; offset: number },
): Promise<ReviewsAnswer> {
  const call = new AppsCall(deps);
  const summary = await call.send(appRatingsRequest(input.app_id, input.country), APP_NOT_FOUND);
  checkStatus(summary);
  const ratings = await withContractGuard('apps', summary, (r) => parseAppRatings(r.json()));
  const res = await call.send(appReviewsRequest(input), APP_NOT_FOUND);
  checkStatus(res);
  const { reviews, rows } = await withContractGuard('apps', res, (r) => parseAppReviews(r.json()));
  const next = appReviewsNextOffset(input.offset, rows, ratings.reviews_count);
  return { reviews, total: ratings.reviews_count, ...(next !== undefined ? { next_offset: next } : {}), wire_bytes: call.wire_bytes };
}

/** Store search by term in one storefront. */
export async function fetchAppSearch(
  deps: SourceUses<'upstream'>,
  input: { term: string; country: string; limit: number },
): Promise<{ total: number; apps: AppRecord[]; wire_bytes: number }> {
  const call = new AppsCall(deps);
  const res = await call.send(appSearchRequest(input));
  checkStatus(res);
  const { total, apps } = await withContractGuard('apps', res, (r) => parseAppSearch(r.json()), { rule: guards.drift.search });
  return { total, apps, wire_bytes: call.wire_bytes };
}
