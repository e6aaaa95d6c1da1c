import { NotFound, UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, dateOrInstant, isObject, nonEmptyStr, obj, type JsonObject } from '../../domain/json.js';

export interface AppRecord {
  app_id: string;
  bundle_id: string | null;
  title: string | null;
  url: string | null;
  developer: { name: string | null; id: string | null; url: string | null };
  seller: { name: string | null; url: string | null };
  price: { value: number | null; currency: string | null; text: string | null; free: boolean | null };
  rating: number | null;
  ratings_count: number | null;
  current_version_rating: number | null;
  current_version_ratings_count: number | null;
  /** Filled from the ratings source; null until then. */
  histogram: Record<'1' | '2' | '3' | '4' | '5', number> | null;
  version: string | null;
  release_notes: string | null;
  released: string | null;
  updated: string | null;
  size_bytes: number | null;
  minimum_os_version: string | null;
  primary_genre: string | null;
  primary_genre_id: number | null;
  genres: string[];
  content_rating: string | null;
  advisories: string[];
  description: string | null;
  icon: string | null;
  screenshots: string[];
  ipad_screenshots: string[];
  languages: string[];
}

/** A finite number, or a string of digits (with decimals) as the store writes some counts. */
function n(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : null;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}

/** releaseDate / currentVersionReleaseDate: as precise as the store states them. */
const iso = dateOrInstant;

/** Average and count; the store reports 0 for "no ratings", which is not an average of 0. */
function rating(avg: unknown, count: unknown): [number | null, number | null] {
  const c = n(count);
  const a = n(avg);
  return [c ? a : null, c];
}

/** One software result of the lookup/search API (iOS and Mac App Store share the schema). */
function mapAppResult(r: JsonObject): AppRecord {
  const id = n(r.trackId);
  if (id === null) throw new UpstreamContractChanged('apps', 'trackId');
  const [avg, count] = rating(r.averageUserRating, r.userRatingCount);
  const [curAvg, curCount] = rating(r.averageUserRatingForCurrentVersion, r.userRatingCountForCurrentVersion);
  const price = n(r.price);
  return {
    app_id: String(id),
    bundle_id: nonEmptyStr(r.bundleId),
    title: nonEmptyStr(r.trackName),
    url: nonEmptyStr(r.trackViewUrl),
    developer: { name: nonEmptyStr(r.artistName), id: n(r.artistId) !== null ? String(r.artistId) : null, url: nonEmptyStr(r.artistViewUrl) },
    seller: { name: nonEmptyStr(r.sellerName), url: nonEmptyStr(r.sellerUrl) },
    price: { value: price, currency: nonEmptyStr(r.currency), text: nonEmptyStr(r.formattedPrice), free: price === null ? null : price === 0 },
    rating: avg,
    ratings_count: count,
    current_version_rating: curAvg,
    current_version_ratings_count: curCount,
    histogram: null,
    version: nonEmptyStr(r.version),
    release_notes: nonEmptyStr(r.releaseNotes),
    released: iso(r.releaseDate),
    updated: iso(r.currentVersionReleaseDate),
    size_bytes: n(r.fileSizeBytes),
    minimum_os_version: nonEmptyStr(r.minimumOsVersion),
    primary_genre: nonEmptyStr(r.primaryGenreName),
    primary_genre_id: n(r.primaryGenreId),
    genres: strings(r.genres),
    content_rating: nonEmptyStr(r.trackContentRating) ?? nonEmptyStr(r.contentAdvisoryRating),
    advisories: strings(r.advisories),
    description: nonEmptyStr(r.description),
    icon: nonEmptyStr(r.artworkUrl512) ?? nonEmptyStr(r.artworkUrl100) ?? nonEmptyStr(r.artworkUrl60),
    screenshots: strings(r.screenshotUrls),
    ipad_screenshots: strings(r.ipadScreenshotUrls),
    languages: strings(r.languageCodesISO2A),
  };
}

function softwareResults(payload: unknown): JsonObject[] {
  const root = obj(payload);
  if (!root || !Array.isArray(root.results)) throw new UpstreamContractChanged('apps', 'lookup results array');
  return arr(root.results)
    .filter(isObject)
    .filter((r) => r.wrapperType === 'software');
}

/** `GET /lookup?id=…` or `?bundleId=…`: the app, or 404 when the storefront does not carry it. */
export function parseAppLookup(payload: unknown, context: { app_id?: string; bundle_id?: string } = {}): AppRecord {
  const results = softwareResults(payload);
  const hit =
    results.find((r) => (context.app_id ? String(r.trackId) === context.app_id : true) && (context.bundle_id ? r.bundleId === context.bundle_id : true)) ??
    (context.app_id || context.bundle_id ? undefined : results[0]);
  if (!hit) throw new NotFound('app not found in this storefront');
  return mapAppResult(hit);
}

/** `GET /search?entity=software…`: the result list in store order. */
export function parseAppSearch(payload: unknown): { total: number; apps: AppRecord[] } {
  const results = softwareResults(payload);
  const total = n(at(payload, 'resultCount')) ?? results.length;
  return { total, apps: results.map(mapAppResult) };
}
