import { z } from 'zod';
import { jsonSchema } from './json-schema.js';

interface FieldTypes {
  types: Set<string>;
  items: Set<string>;
}

const fieldCache = new WeakMap<z.ZodType, Map<string, FieldTypes>>();

function typesOf(node: Record<string, unknown> | undefined): Set<string> {
  const out = new Set<string>();
  if (!node) return out;
  const t = node.type;
  if (typeof t === 'string') out.add(t);
  else if (Array.isArray(t)) for (const x of t) out.add(String(x));
  for (const alt of [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])])
    for (const x of typesOf(alt as Record<string, unknown>)) out.add(x);
  if (out.size === 0 && node.const !== undefined) out.add(typeof node.const);
  if (out.size === 0 && Array.isArray(node.enum)) for (const v of node.enum) out.add(typeof v);
  return out;
}

function itemsOf(node: Record<string, unknown> | undefined): Set<string> {
  const out = new Set<string>();
  if (!node) return out;
  for (const alt of [node, ...((node.anyOf as Record<string, unknown>[]) ?? [])])
    for (const x of typesOf(alt.items as Record<string, unknown> | undefined)) out.add(x);
  return out;
}

function fields(schema: z.ZodType): Map<string, FieldTypes> {
  let map = fieldCache.get(schema);
  if (!map) {
    const props = (jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
    map = new Map(Object.entries(props).map(([k, node]) => [k, { types: typesOf(node), items: itemsOf(node) }]));
    fieldCache.set(schema, map);
  }
  return map;
}

function scalar(text: string, types: Set<string>): unknown {
  if (types.has('string')) return text;
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/**
 * Query-string text converted to the types the schema's fields take, so a GET carries every type a
 * JSON body does: booleans as `true`/`false`, numbers as digits, arrays as comma lists (or repeated
 * keys). A field that accepts text keeps it; anything unconvertible is left for validation to report.
 */
export function coerceQuery(schema: z.ZodType, raw: Record<string, unknown>): Record<string, unknown> {
  const known = fields(schema);
  const out: Record<string, unknown> = { ...raw };
  for (const [key, value] of Object.entries(raw)) {
    const f = known.get(key);
    if (!f || f.types.has('string')) continue;
    if (f.types.has('array')) {
      const list: unknown[] | null = Array.isArray(value) ? value : typeof value === 'string' ? (value === '' ? [] : value.split(',')) : null;
      if (list) out[key] = list.map((v) => (typeof v === 'string' ? scalar(v.trim(), f.items) : v));
    } else if (typeof value === 'string') out[key] = scalar(value, f.types);
  }
  return out;
}
