import { FRESHNESS } from '../../config/cache-settings.js';
import type { Tool } from '../../core/define-tool.js';
import { answersFromCache } from './openapi-responses.js';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; $ref?: string; $defs?: Record<string, Schema> };

/** What a hit adds to the answer's metadata (src/core/result-cache.ts markedAnswer). */
const MARKER = {
  cached: { type: 'boolean', const: true, description: 'Only on an answer from the shared result cache (x-cache: hit), which was free.' },
  observed_at: { type: 'string', description: 'When the answer was fetched from the upstream.' },
};

/**
 * A cached operation's answer schema as the reference shows it: its metadata object (search_metadata
 * where it has one, else meta) may say `cached: true` and `observed_at` on a hit.
 */
export function withCacheMarker(tool: Tool, output: Schema): Schema {
  if (!answersFromCache(tool) || output.type !== 'object' || !output.properties) return output;
  const key = output.properties.search_metadata ? 'search_metadata' : 'meta';
  const own = resolve(output, output.properties[key]);
  const meta: Schema = own
    ? { ...own, properties: { ...own.properties, ...MARKER, ...(own.properties?.observed_at ? { observed_at: own.properties.observed_at } : {}) } }
    : {
        type: 'object',
        description: 'On an answer from the shared result cache (x-cache: hit) only.',
        properties: MARKER,
        required: ['cached', 'observed_at'],
        additionalProperties: false,
      };
  return { ...output, properties: { ...output.properties, [key]: meta } };
}

/** The object schema a property stands for, its `$ref` into the schema's own `$defs` followed. */
function resolve(root: Schema, prop: Schema | undefined): Schema | undefined {
  if (!prop) return undefined;
  if (typeof prop.$ref === 'string' && prop.$ref.startsWith('#/$defs/')) {
    const { $ref, ...rest } = prop;
    const target = root.$defs?.[$ref.slice('#/$defs/'.length)];
    return target ? { ...target, ...rest } : undefined;
  }
  return prop.type === 'object' ? prop : undefined;
}

/** The line of an operation's description that says how long its answers are served from the cache. */
export function cacheText(tool: Tool): string | null {
  if (tool.cache) {
    const f = FRESHNESS[tool.cache];
    return `**Cache:** an identical call within ${minutes(f.seconds)} (${tool.cache}; the operator's ${f.env}) is answered from the shared result cache, free (\`x-cache: hit\`, \`cached: true\`); \`cache: false\` fetches live.`;
  }
  if (tool.cacheInHandler)
    return "**Cache:** the engine's operation is answered from the shared result cache as that operation states (free, `x-cache: hit`); `no_cache=true` fetches live.";
  return null;
}

function minutes(s: number): string {
  return s % 3600 === 0 ? `${s / 3600} h` : `${Math.round(s / 60)} min`;
}
