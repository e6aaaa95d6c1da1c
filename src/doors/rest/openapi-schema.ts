const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A JSON Schema as the reference shows it: without the ±2^53 bounds zod puts on every integer
 * (noise for a reader), records over an enum written as objects with those properties, and closed tuples written as `items` of their members rather than
 * `items: false` (equivalent under maxItems, and the form OpenAPI linters understand).
 */
export function openApiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    out[k] =
      k === 'properties' || k === '$defs'
        ? mapValues(v as Record<string, unknown>)
        : k === 'default' || k === 'const' || k === 'enum' || k === 'examples'
          ? v
          : openApiSchema(v);
  }
  const names = (out.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (names && !out.properties && out.additionalProperties && typeof out.additionalProperties === 'object') {
    // A record over an enum (every key present): the same object written with its properties.
    out.properties = Object.fromEntries(names.map((n) => [String(n), out.additionalProperties]));
    out.additionalProperties = false;
    delete out.propertyNames;
  }
  if (out.items === false && Array.isArray(out.prefixItems)) {
    const members = [...new Map((out.prefixItems as unknown[]).map((m) => [JSON.stringify(m), m])).values()];
    out.items = members.length === 1 ? members[0] : { anyOf: members };
  }
  return out;
}

function mapValues(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, openApiSchema(v)]));
}
