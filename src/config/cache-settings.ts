import { z } from 'zod';

/*
 * Settings of the shared result cache (src/core/result-cache.ts decides, src/platform/result-cache.ts
 * stores): whether it is on, how big it may grow, and how long each kind of answer stays fresh.
 */

/**
 * How fast the data of an answer goes out of date. Each cached operation names one in its descriptor
 * (`cache`); the seconds are settings.
 */
export const FRESHNESS = {
  /** Prices and availability (hotel, flight, OTA and rental quotes, retail search). */
  prices: { env: 'RESULT_CACHE_PRICES_S', seconds: 600, doc: 'prices and availability (hotel, flight, OTA, rental and retail answers)' },
  /** Result lists without prices: app, video and trend searches. */
  listings: { env: 'RESULT_CACHE_LISTINGS_S', seconds: 3_600, doc: 'result lists without prices (app, video, channel and trend searches)' },
  /** Job boards and job cards. */
  jobs: { env: 'RESULT_CACHE_JOBS_S', seconds: 10_800, doc: 'job boards and job searches' },
  /** What a thing is: hotel, app and video details, name and place look-ups. */
  details: { env: 'RESULT_CACHE_DETAILS_S', seconds: 21_600, doc: 'details (hotel and app details, videos, transcripts, look-ups of names and places)' },
  /** Reviews. */
  reviews: { env: 'RESULT_CACHE_REVIEWS_S', seconds: 21_600, doc: 'reviews' },
} as const;

export type Freshness = keyof typeof FRESHNESS;
const FRESHNESS_NAMES = Object.keys(FRESHNESS) as Freshness[];

type FreshnessEnv = (typeof FRESHNESS)[Freshness]['env'];

const seconds = (dflt: number) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(dflt);

function parseOperationSeconds(json: string): Record<string, number> {
  const parsed = JSON.parse(json) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
  for (const [name, s] of Object.entries(parsed)) {
    if (!/^[a-z][a-z0-9_]{0,80}$/.test(name)) throw new Error(`${name.slice(0, 40)} is not an operation name`);
    if (!Number.isInteger(s) || (s as number) < 0 || (s as number) > 7 * 86_400) throw new Error(`${name}: seconds must be an integer from 0 to 604800`);
  }
  return parsed as Record<string, number>;
}

const operationSeconds = z
  .string()
  .default('{}')
  .transform((value, ctx) => {
    try {
      return parseOperationSeconds(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `must be a JSON object of operation name to seconds: ${(err as Error).message}` });
      return z.NEVER;
    }
  });

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Zod fields spread into the config schema. */
export const CACHE_FIELDS = {
  RESULT_CACHE_ENABLED: bool.default(true),
  RESULT_CACHE_MAX_MB: z.coerce.number().int().min(1).max(1_000_000).default(256),
  ...(Object.fromEntries(Object.values(FRESHNESS).map((f) => [f.env, seconds(f.seconds)])) as Record<FreshnessEnv, ReturnType<typeof seconds>>),
  RESULT_CACHE_OPERATION_S: operationSeconds,
};

export const CACHE_DOC: Record<keyof typeof CACHE_FIELDS, string> = {
  RESULT_CACHE_ENABLED:
    'answer repeated calls from the shared result cache (PostgreSQL, shared by every process) and let identical calls in flight share one upstream fetch; false: every call is fetched live',
  RESULT_CACHE_MAX_MB:
    'size cap of the answers the result cache keeps; past it the entries nearest their expiry go first, and an answer over a tenth of it is not kept',
  ...(Object.fromEntries(
    Object.values(FRESHNESS).map((f) => [f.env, `seconds an answer of ${f.doc} is served from the result cache (default ${f.seconds}); 0: not cached`]),
  ) as Record<FreshnessEnv, string>),
  RESULT_CACHE_OPERATION_S:
    'JSON map of operation name to seconds, overriding its kind\'s freshness, e.g. {"search_hotels":300,"get_hotel_offers":0} (0: that operation is not cached)',
};

export interface CacheSettings {
  enabled: boolean;
  maxBytes: number;
  /** Seconds per kind of answer. */
  freshness: Record<Freshness, number>;
  /** Seconds per operation, where set (RESULT_CACHE_OPERATION_S). */
  operations: Record<string, number>;
}

export function resolveCacheSettings(s: { [K in keyof typeof CACHE_FIELDS]: z.output<(typeof CACHE_FIELDS)[K]> }): CacheSettings {
  return {
    enabled: s.RESULT_CACHE_ENABLED,
    maxBytes: s.RESULT_CACHE_MAX_MB * 1024 * 1024,
    freshness: Object.fromEntries(FRESHNESS_NAMES.map((n) => [n, s[FRESHNESS[n].env]])) as Record<Freshness, number>,
    operations: s.RESULT_CACHE_OPERATION_S,
  };
}
