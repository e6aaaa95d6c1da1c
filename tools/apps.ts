import { z } from 'zod';
import { countryLower } from '../src/domain/codes.js';
import { InvalidInput } from '../src/domain/errors.js';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchApp, fetchAppReviews, fetchAppSearch } from '../src/sources/apps/fetch.js';
import { normalizeAppId } from '../src/sources/apps/requests.js';
import { elapsedSince, WebMeta } from './webdata-schemas.js';

const ns = z.string().nullable();
const nn = z.number().nullable();
const appIdField = z.string().regex(/^(?:id)?\d{1,12}$/i, 'Input should be a numeric app id, optionally prefixed with id');
const countryField = countryLower.default('us').describe('Two-letter storefront country, lower case (the store differs per country).');
const Stars = z.object({ '1': z.number(), '2': z.number(), '3': z.number(), '4': z.number(), '5': z.number() });

const App = z.object({
  app_id: z.string(),
  bundle_id: ns,
  title: ns,
  url: ns,
  developer: z.object({ name: ns, id: ns, url: ns }),
  seller: z.object({ name: ns, url: ns }),
  price: z.object({ value: nn, currency: ns, text: ns, free: z.boolean().nullable() }),
  rating: nn,
  ratings_count: nn,
  current_version_rating: nn,
  current_version_ratings_count: nn,
  histogram: Stars.nullable(),
  version: ns,
  release_notes: ns,
  released: ns,
  updated: ns,
  size_bytes: nn,
  minimum_os_version: ns,
  primary_genre: ns,
  primary_genre_id: nn,
  genres: z.array(z.string()),
  content_rating: ns,
  advisories: z.array(z.string()),
  description: ns,
  icon: ns,
  screenshots: z.array(z.string()),
  ipad_screenshots: z.array(z.string()),
  languages: z.array(z.string()),
});

export const getApp = defineTool({
  name: 'get_app',
  title: 'Mobile app record',
  description:
    'One app of the mobile app store in a storefront (country): title, developer, seller, price, rating and ratings count (overall and current version), the 1-5 star histogram, version and release notes, dates, size, genres, content rating, description, icon, screenshots, languages. Send app_id (digits, optionally id-prefixed) or bundle_id. When the histogram call fails the record still comes back with histogram null and meta.histogram_error. Costs 2 credits; an app missing from the storefront (404) and failures are free. App ids come from search_apps; reviews from get_app_reviews.',
  method: 'POST',
  path: '/v1/apps/app',
  tags: ['apps'],
  input: z.strictObject({
    app_id: appIdField.optional().describe('Numeric store id of the app (from its store URL …/id<digits>). Give app_id or bundle_id.'),
    bundle_id: z
      .string()
      .max(255)
      .regex(/^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/, 'Input should be a dot-separated bundle identifier')
      .optional()
      .describe('Bundle identifier of the app, e.g. com.example.notes. Give app_id or bundle_id.'),
    country: countryField,
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('apps_app'), app_id: ns, bundle_id: ns, country: z.string() }),
    app: App,
    meta: WebMeta.extend({ histogram_error: z.string().optional() }),
  }),
  credits: 2,
  cache: 'details',
  async handler(input, { deps }) {
    const started = performance.now();
    if (!input.app_id === !input.bundle_id) throw new InvalidInput('send one of app_id or bundle_id');
    const answer = await fetchApp(deps, input);
    return {
      search_parameters: {
        engine: 'apps_app' as const,
        app_id: input.app_id ? normalizeAppId(input.app_id) : answer.app.app_id,
        bundle_id: input.bundle_id ?? null,
        country: input.country,
      },
      app: answer.app,
      meta: {
        source: 'apps',
        wire_bytes: answer.wire_bytes,
        elapsed_s: elapsedSince(started),
        ...(answer.histogram_error ? { histogram_error: answer.histogram_error } : {}),
      },
    };
  },
});

export const getAppReviews = defineTool({
  name: 'get_app_reviews',
  title: 'Mobile app reviews',
  description:
    "Written reviews of one app in a storefront, 20 per page (ratings without text never appear), each with rating, title, text, author, date, edited and the developer response when there is one; total is the storefront's written-review count. Page with offset = the previous next_offset (absent on the last page). Costs 1 credit per non-empty page (our choice: the spec shows none); an empty page, an unknown app (404) and failures are free. Get the app id from search_apps or get_app.",
  method: 'POST',
  path: '/v1/apps/reviews',
  tags: ['apps'],
  input: z.strictObject({
    app_id: appIdField.describe('Numeric store id of the app (from its store URL …/id<digits>).'),
    country: countryField,
    sort: z.enum(['most_helpful', 'most_recent', 'most_favorable', 'most_critical']).default('most_helpful').describe('Order of the reviews.'),
    offset: z.int().min(0).max(50_000).default(0).describe('Reviews to skip, for paging.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('apps_reviews'), app_id: z.string(), country: z.string(), sort: z.string(), offset: z.int() }),
    reviews: z.array(
      z.object({
        review_id: z.string(),
        title: ns,
        text: z.string(),
        rating: nn,
        author: ns,
        date: ns,
        edited: z.boolean(),
        developer_response: z.object({ id: ns, text: z.string(), date: ns }).optional(),
      }),
    ),
    total: z.int().nullable(),
    next_offset: z.int().optional(),
    meta: WebMeta,
  }),
  credits: 1,
  cache: 'reviews',
  isEmpty: (o) => o.reviews.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const appId = normalizeAppId(input.app_id);
    const answer = await fetchAppReviews(deps, { ...input, app_id: appId });
    return {
      search_parameters: { engine: 'apps_reviews' as const, app_id: appId, country: input.country, sort: input.sort, offset: input.offset },
      reviews: answer.reviews,
      total: answer.total,
      ...(answer.next_offset !== undefined ? { next_offset: answer.next_offset } : {}),
      meta: { source: 'apps', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const searchApps = defineTool({
  name: 'search_apps',
  title: 'Search mobile apps',
  description:
    'Apps of the mobile app store matching a term in one storefront, in store order, as full app records (histogram null: use get_app for it). Costs 2 credits per non-empty answer (our choice: the spec shows none); no results and failures are free. Feeds get_app and get_app_reviews.',
  method: 'POST',
  path: '/v1/apps/search',
  tags: ['apps'],
  input: z.strictObject({
    term: z.string().min(1).max(200).describe('Search words, as typed in the store.'),
    country: countryField,
    limit: z.int().min(1).max(200).default(50).describe('Most apps returned.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('apps_search'), term: z.string(), country: z.string(), limit: z.int() }),
    apps: z.array(App),
    total: z.int(),
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'listings',
  isEmpty: (o) => o.apps.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const answer = await fetchAppSearch(deps, input);
    return {
      search_parameters: { engine: 'apps_search' as const, term: input.term, country: input.country, limit: input.limit },
      apps: answer.apps,
      total: answer.total,
      meta: { source: 'apps', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const APPS_TOOLS = [getApp, getAppReviews, searchApps];
