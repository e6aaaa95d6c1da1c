import { z } from 'zod';
import { readArchivedPage, readArchivedSearch } from '../src/platform/search-archive.js';
import { COMMON_PARAMS, resolveSearch, runCompatSearch, type CompatEngine, type ResolvedSearch } from '../src/core/compat/engine.js';
import { NotFound } from '../src/domain/errors.js';
import type { CreditRule, HttpMethod, Tool } from '../src/core/define-tool.js';
import { defineTool } from '../src/core/define-tool.js';
import { jsonSchema } from '../src/core/json-schema.js';
import { RawBody } from '../src/core/raw-body.js';
import { compatibleAccount } from './compat-account.js';
import { COMPAT_ENGINES } from './compat-engines.js';

/*
 * The compatible search API's routes: GET /api/v1/search?engine=…, GET and POST /v1/serp/<engine>
 * for every engine of the translation table (our own POST /v1/serp/<alias> routes are the
 * operations themselves, finished the same way), and its search archive at json_url / html_url.
 */

const ENGINES = new Map(COMPAT_ENGINES.map((e) => [e.name, e]));
const NAMES = [...ENGINES.keys()] as [string, ...string[]];
const THEIRS = COMPAT_ENGINES.filter((e) => !e.ownEcho).map((e) => e.name);
const OURS = COMPAT_ENGINES.filter((e) => e.ownEcho).map((e) => e.name);

/**
 * That API's engines this service has no source for (its n8n node's engine list and its 2026
 * announcements): named as such in the 400, so a client knows it is not a typo.
 */
const NOT_SERVED = new Set([
  'google',
  'google_light',
  'google_images',
  'google_maps',
  'google_maps_place',
  'google_maps_reviews',
  'google_maps_photos',
  'google_maps_directions',
  'google_shopping',
  'google_shopping_autocomplete',
  'google_shopping_filters',
  'google_news',
  'google_rank_tracking',
  'google_ai_mode',
  'google_ai_overview',
  'google_ads_transparency_center',
  'google_ads_transparency_center_advertiser_search',
  'google_ads_transparency_center_ad_details',
  'google_ads_advertiser_info',
  'google_hotels_autocomplete',
  'booking_autocomplete',
  'skyscanner_flights',
  'skyscanner_hotels',
  'youtube_comments',
  'youtube_trends',
  'bing',
  'bing_news',
  'bing_copilot',
  'baidu',
  'yandex',
  'yandex_reverse_image',
  'duckduckgo',
  'duckduckgo_light',
  'duckduckgo_images',
  'duckduckgo_videos',
  'amazon_search',
  'amazon_product',
  'amazon_offers',
  'meta_ad_library',
  'meta_ad_library_ad_details',
  'meta_ad_library_page_info',
  'meta_ad_library_page_search',
  'linkedin_ad_library',
  'reddit_ad_library',
  'tiktok_ads_library',
  'tiktok_ads_library_advertiser_search',
  'tiktok_ads_library_ad_details',
  'tiktok_profile',
  'instagram_profile',
  'chatgpt',
  'gemini',
  'perplexity',
]);
const SERVED = `engines answered here: ${THEIRS.join(', ')}; and ours: ${OURS.join(', ')}`;

/** The 400 for an engine this service does not answer: what it is, and what we answer. */
function engineError(iss: { input?: unknown }): string {
  if (iss.input === undefined || iss.input === '') return `engine is required; ${SERVED}`;
  const input = iss.input;
  const name = (typeof input === 'string' ? input : Array.isArray(input) ? input.join(',') : JSON.stringify(input)).slice(0, 60);
  return NOT_SERVED.has(name)
    ? `${name} is an engine of the compatible API that this service has no source for; ${SERVED}`
    : `unknown engine ${name}; ${SERVED}`;
}

function targetTools(e: CompatEngine): Tool[] {
  if (typeof e.tool !== 'function') return [e.tool];
  return [...new Set(['booking_token', 'departure_token', ''].map((k) => (e.tool as (p: Record<string, unknown>) => Tool)(k ? { [k]: 'x' } : {})))];
}

function fieldType(e: CompatEngine, name: string): string | undefined {
  const ours = e.params[name]?.to ?? name;
  for (const tool of targetTools(e)) {
    const prop = (jsonSchema(tool.input, 'input') as { properties?: Record<string, { type?: unknown }> }).properties?.[ours];
    if (prop && typeof prop.type === 'string') return prop.type;
  }
  return undefined;
}

/** Every parameter of every engine, documented once: which engines take it and how. */
function parameterFields(): Record<string, z.ZodType> {
  const byName = new Map<string, { engines: string[]; types: Set<string | undefined>; notes: Set<string> }>();
  for (const e of COMPAT_ENGINES) {
    for (const [name, rule] of Object.entries(e.params)) {
      const entry = byName.get(name) ?? { engines: [], types: new Set(), notes: new Set() };
      entry.engines.push(e.name);
      entry.types.add(fieldType(e, name));
      if (rule.doc) entry.notes.add(rule.doc);
      if (rule.to) entry.notes.add(`${e.name}: our ${rule.to}`);
      if (rule.noEffect) entry.notes.add(`${e.name}: accepted, no effect (${rule.noEffect}); named in warnings`);
      if (rule.unsupported)
        entry.notes.add(`${e.name}: only its neutral value${rule.neutral ? ` (${rule.neutral.join(', ')})` : ''}, else 400: ${rule.unsupported}`);
      byName.set(name, entry);
    }
  }
  const fields: Record<string, z.ZodType> = {};
  for (const [name, rule] of Object.entries(COMMON_PARAMS)) {
    if (name === 'engine') continue;
    fields[name] = z
      .unknown()
      .optional()
      .meta({ type: 'boolean', description: `every engine: ${rule.doc ?? `accepted, no effect (${rule.noEffect}); named in warnings`}` });
  }
  for (const [name, { engines, types, notes }] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const type = types.size === 1 ? [...types][0] : undefined;
    const description = [`engines: ${engines.join(', ')}`, ...notes].join('. ');
    fields[name] = z
      .unknown()
      .optional()
      .meta(type ? { type, description } : { description });
  }
  return fields;
}

const PARAMETERS = parameterFields();
const ENGINE_DOC = `the engine, required: that API's names (${THEIRS.join(', ')}) or our aliases (${OURS.join(', ')}); any other is a 400 naming these`;

const SearchOutput = z.looseObject({
  search_metadata: z.looseObject({ id: z.string(), status: z.literal('Success'), json_url: z.string().optional(), html_url: z.string().optional() }),
  search_parameters: z.record(z.string(), z.unknown()),
  warnings: z.array(z.string()).optional(),
});

/** One generic route of the family: the engine picks the operation, whose credits it takes. */
function compatRoute(spec: { name: string; title: string; method: HttpMethod; path: string; engineIn: 'query' | 'path'; description: string }): Tool {
  const location = spec.method === 'POST' ? 'body' : 'query';
  const resolved = new WeakMap<object, { r: ResolvedSearch; output?: unknown }>();
  const resolve = (outer: Record<string, unknown>) => {
    let hit = resolved.get(outer);
    if (!hit) {
      const engine = ENGINES.get(outer.engine as string)!;
      hit = { r: resolveSearch(engine, outer, (key) => (key === 'engine' && spec.engineIn === 'path' ? 'path' : location)) };
      resolved.set(outer, hit);
    }
    return hit;
  };
  const credits: CreditRule<Record<string, unknown>, unknown> = {
    base: Math.max(...COMPAT_ENGINES.flatMap((e) => targetTools(e).map((t) => t.credits.base))),
    note: 'as the engine’s operation: ' + COMPAT_ENGINES.map((e) => `${e.name} ${targetTools(e)[0].credits.base}`).join(', '),
    max: (input) => {
      const { r } = resolve(input);
      return r.tool.credits.max(r.input);
    },
    actual: (input) => {
      const { r, output } = resolve(input);
      return r.tool.credits.actual(r.input, output);
    },
  };
  const engine = z.enum(NAMES, { error: engineError }).describe(ENGINE_DOC);
  const route = defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    method: spec.method,
    path: spec.path,
    tags: ['compatible search'],
    queryKey: spec.method === 'GET',
    // every operation an engine picks: its own fields are documented beside that API's parameters
    engines: Object.fromEntries(COMPAT_ENGINES.map((e) => [e.name, targetTools(e).at(-1)!])),
    input: z.looseObject({ engine, ...PARAMETERS }),
    output: SearchOutput,
    credits,
    async handler(input, ctx) {
      const hit = resolve(input);
      const { output, body } = await runCompatSearch(hit.r, ctx);
      hit.output = output;
      return body as z.output<typeof SearchOutput>;
    },
  });
  // the engine's operation is cached (as its descriptor says), inside runCompatSearch; the envelope is made per call
  return { ...route, cacheInHandler: true };
}

const FAMILY =
  'Answers as the compatible search API (SearchApi.io) does: its engine and parameter names, its envelope (search_metadata with json_url and html_url, search_parameters in its value types), 400 with {"error"} for invalid or missing parameters, 401 for a bad key. A parameter it documents that cannot change our answer is accepted and named in warnings. Each engine is one of our operations and costs what that operation costs.';

const compatibleSearch = compatRoute({
  name: 'compatible_search',
  title: 'Compatible search endpoint',
  method: 'GET',
  path: '/api/v1/search',
  engineIn: 'query',
  description: `Drop-in for the third-party search-results API: keep its query parameters and pick the engine with engine= (required, as that API requires it). The key may be sent as api_key in the query or as a Bearer token. ${FAMILY}`,
});

const compatibleSerpGet = compatRoute({
  name: 'compatible_serp_get',
  title: 'Compatible search by engine (query string)',
  method: 'GET',
  path: '/v1/serp/{engine}',
  engineIn: 'path',
  description: `GET /api/v1/search with the engine in the path. ${FAMILY}`,
});

const compatibleSerpPost = compatRoute({
  name: 'compatible_serp_post',
  title: 'Compatible search by engine (JSON body)',
  method: 'POST',
  path: '/v1/serp/{engine}',
  engineIn: 'path',
  description: `The same search with its parameters as a JSON body (numbers and booleans as JSON values or text). Our own aliases (metasearch_*, rentaltwo*) have their own POST routes. ${FAMILY}`,
});

const searchId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Input should be a search id (search_metadata.id)')
  .describe('search_metadata.id of one of your compatible searches (the request id it answered with).');
const ARCHIVE =
  'Free. Only searches made with the calling key are found; a search made with zero_retention, an unknown id, another key’s search or one older than the retention period (SEARCH_ARCHIVE_DAYS, default 30 days) is 404.';

const getArchivedSearchPage = defineTool({
  name: 'get_archived_search_page',
  title: 'Raw upstream page of an archived search (html_url)',
  description: `The first upstream reply of one of your compatible searches, as received (HTML, or JSON for sources that answer JSON): search_metadata.html_url. Present only when the search kept one. Served inert, as a download (Content-Disposition: attachment) under \`Content-Security-Policy: sandbox; default-src 'none'\` and \`X-Content-Type-Options: nosniff\`: the upstream's scripts never run. ${ARCHIVE}`,
  method: 'GET',
  path: '/api/v1/searches/{search_id}.html',
  tags: ['compatible search'],
  queryKey: true,
  input: z.strictObject({ search_id: searchId }),
  output: z.string().describe('the raw page, with its own content type'),
  credits: 0,
  errors: { 404: 'Not a search of this key, made with zero_retention, past the retention period, or kept without a raw page.' },
  async handler(input, { deps, key }) {
    const page = await readArchivedPage(deps.sql, input.search_id, key);
    if (!page) throw new NotFound('search not found');
    // served as a download under a sandbox policy, never as a page of this origin (inertHeaders)
    return new RawBody(page.contentType ?? 'text/html; charset=utf-8', page.body, `${input.search_id}.html`) as unknown as string;
  },
});

const getArchivedSearch = defineTool({
  name: 'get_archived_search',
  title: 'Archived search (json_url)',
  description: `The stored answer of one of your compatible searches, exactly as it was sent: search_metadata.json_url. ${ARCHIVE}`,
  method: 'GET',
  path: '/api/v1/searches/{search_id}',
  tags: ['compatible search'],
  queryKey: true,
  input: z.strictObject({ search_id: searchId }),
  output: SearchOutput,
  credits: 0,
  errors: { 404: 'Not a search of this key, made with zero_retention, or past the retention period.' },
  async handler(input, { deps, key }) {
    const stored = await readArchivedSearch(deps.sql, input.search_id, key);
    if (!stored) throw new NotFound('search not found');
    return stored as z.output<typeof SearchOutput>;
  },
});

/** Routes of the family; mounted after every operation so that /v1/serp/<alias> stays the operation's own. */
export const COMPAT_TOOLS: Tool[] = [compatibleSearch, compatibleSerpGet, compatibleSerpPost, getArchivedSearchPage, getArchivedSearch, compatibleAccount];
