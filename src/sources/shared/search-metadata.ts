import { z } from 'zod';

/**
 * `search_metadata` of the compatible search routes (`/api/v1/search`, `/v1/serp/*`), as the
 * third-party API names it; timing in seconds. `id` is our request id.
 */
export const SearchMetadataSchema = z.object({
  id: z.string(),
  status: z.literal('Success'),
  created_at: z.string(),
  request_time_taken: z.number(),
  parsing_time_taken: z.number(),
  total_time_taken: z.number(),
  request_url: z.string(),
  /** The raw upstream page of this search (GET /api/v1/searches/{id}.html), when archived. */
  html_url: z.string().optional(),
  /** This answer as stored (GET /api/v1/searches/{id}); absent with zero_retention. */
  json_url: z.string().optional(),
  collection_id: z.string().optional(),
  observed_at: z.string().optional(),
  wire_bytes: z.int().optional(),
});
export type SearchMetadata = z.infer<typeof SearchMetadataSchema>;

/** Times one compatible call: upstream seconds and parsing seconds are added as they happen. */
export class SearchTimer {
  readonly createdAt = new Date();
  readonly #start = performance.now();
  #request = 0;
  #parsing = 0;

  async upstream<T>(fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.#request += performance.now() - t;
    }
  }

  parse<T>(fn: () => T): T {
    const t = performance.now();
    try {
      return fn();
    } finally {
      this.#parsing += performance.now() - t;
    }
  }

  metadata(id: string, requestUrl: string, extra: Pick<SearchMetadata, 'collection_id' | 'observed_at' | 'wire_bytes'> = {}): SearchMetadata {
    const s = (ms: number) => Math.round(ms) / 1000;
    return {
      id,
      status: 'Success',
      created_at: this.createdAt.toISOString(),
      request_time_taken: s(this.#request),
      parsing_time_taken: s(this.#parsing),
      total_time_taken: s(performance.now() - this.#start),
      request_url: requestUrl,
      ...extra,
    };
  }
}

/** `search_parameters` echo: every value a string, unset ones omitted. */
export function echoParameters(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    out[k] = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : Array.isArray(v) ? v.join(',') : JSON.stringify(v);
  }
  return out;
}
