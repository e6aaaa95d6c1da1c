/**
 * JSON Schemas as the MCP tool list carries them. An agent pays for every byte of `tools/list` in
 * every conversation, so the listing keeps what tells it what to send and what comes back (field
 * names, types, short enums, bounds it can break, descriptions) and drops what only a validator
 * needs: JavaScript's safe-integer bounds, regular expressions behind a format, enums longer than
 * MAX_ENUM (currency lists: the field's description names the code system; the server still
 * checks and its 422 lists the values), fields with nothing to choose (a constant, such as the
 * compatible routes' `engine`) or kept only for older callers (deprecated aliases), and on outputs
 * `additionalProperties`, `required` and tuple arities. An output schema keeps the nesting depth
 * that fits OUTPUT_SCHEMA_BYTES (deeper objects are listed as objects); sub-schemas repeated inside
 * one tool become one `$defs` entry each. The full schemas stay in /openapi.json.
 */

type Schema = Record<string, unknown>;

const SAFE_INT = Number.MAX_SAFE_INTEGER;
const MAX_ENUM = 24;
/** Byte budget of one tool's output schema in the listing (18 tools share the ≤ 48 KB of tools/list). */
export const OUTPUT_SCHEMA_BYTES = 1_300;
/** Keys an output schema does not need: outputs are produced by us, not checked against the agent. */
const OUTPUT_ONLY_DROPS = new Set(['required', 'additionalProperties', 'minLength', 'maxLength', 'pattern', 'format', 'const', 'minItems', 'maxItems', 'minimum', 'maximum', 'default']);

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `anyOf: [X, {type: null}]` → X with "null" added to its type, when X has a plain type. */
function foldNullable(s: Schema): Schema {
  const { anyOf, ...rest } = s;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return s;
  const nullIndex = anyOf.findIndex((x) => isSchema(x) && x.type === 'null' && Object.keys(x).length === 1);
  if (nullIndex < 0) return s;
  const other = anyOf[1 - nullIndex] as Schema;
  if (typeof other.type !== 'string' || other.type === 'null') return s;
  const folded: Schema = { ...other, ...rest, type: [other.type, 'null'] };
  // an enum must list the null it now admits
  if (Array.isArray(other.enum)) folded.enum = [...other.enum, null];
  return folded;
}

function trim(s: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(s)) return s.map((x) => trim(x, io));
  if (!isSchema(s)) return s;
  const src = foldNullable(s);
  const out: Schema = {};
  for (const [k, v] of Object.entries(src)) {
    if ((k === 'minimum' && v === -SAFE_INT) || (k === 'maximum' && v === SAFE_INT)) continue;
    if (k === 'enum' && Array.isArray(v) && v.length > MAX_ENUM) continue;
    if (k === 'minLength' && v === 1) continue; // any non-empty text: nothing an agent needs told
    if (k === 'pattern' && src.format) continue;
    if (io === 'output' && OUTPUT_ONLY_DROPS.has(k)) continue;
    if (io === 'output' && k === 'prefixItems' && Array.isArray(v)) {
      // a fixed-length tuple of one type reads as a list of that type
      const kinds = new Set(v.map((x) => JSON.stringify(trim(x, io))));
      if (kinds.size === 1) out.items = trim(v[0], io);
      continue;
    }
    if (io === 'output' && k === 'items' && v === false) continue;
    if (k === 'properties' && isSchema(v)) {
      const kept = Object.entries(v).filter(([, p]) => !(isSchema(p) && (p.deprecated === true || 'const' in p)));
      out.properties = Object.fromEntries(kept.map(([name, p]) => [name, trim(p, io)]));
    } else if (k === 'required' && Array.isArray(v) && isSchema(src.properties)) {
      const props = src.properties;
      out.required = v.filter((name) => isSchema(props[name]) && !(props[name].deprecated === true || 'const' in props[name]));
    } else out[k] = trim(v, io);
  }
  return out;
}

interface Occurrence {
  text: string;
  name: string;
  count: number;
}

/** Every sub-schema (root excluded) by canonical text, with the property name it first appeared under. */
function occurrences(root: Schema, defs: Record<string, Schema>): Map<string, Occurrence> {
  const seen = new Map<string, Occurrence>();
  const visit = (v: unknown, name: string, isRoot: boolean) => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x, name, false));
    if (!isSchema(v) || '$ref' in v) return;
    if (!isRoot) {
      const text = JSON.stringify(v);
      const o = seen.get(text);
      if (o) o.count++;
      else seen.set(text, { text, name, count: 1 });
    }
    for (const [k, child] of Object.entries(v)) {
      if (k === 'properties' && isSchema(child)) for (const [p, sub] of Object.entries(child)) visit(sub, p, false);
      else if (k !== '$defs') visit(child, k === 'items' ? `${name}_item` : name, false);
    }
  };
  visit(root, 'root', true);
  for (const [n, d] of Object.entries(defs)) visit(d, n, true);
  return seen;
}

function replaceAll(v: unknown, text: string, ref: Schema): unknown {
  if (Array.isArray(v)) return v.map((x) => replaceAll(x, text, ref));
  if (!isSchema(v)) return v;
  if (JSON.stringify(v) === text) return ref;
  return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, replaceAll(child, text, ref)]));
}

/** Moves sub-schemas repeated within one schema into `$defs`, largest saving first. */
function shareDefinitions(schema: Schema): Schema {
  let root = schema;
  const defs: Record<string, Schema> = {};
  for (;;) {
    let best: Occurrence | null = null;
    let bestSaving = 0;
    for (const o of occurrences(root, defs).values()) {
      if (o.count < 2) continue;
      const refLength = `{"$ref":"#/$defs/${o.name}"}`.length;
      const saving = (o.count - 1) * o.text.length - o.count * refLength - o.name.length;
      if (saving > bestSaving) [best, bestSaving] = [o, saving];
    }
    if (!best) break;
    let name = best.name;
    for (let i = 2; defs[name]; i++) name = `${best.name}${i}`;
    const ref = { $ref: `#/$defs/${name}` };
    root = replaceAll(root, best.text, ref) as Schema;
    for (const [n, d] of Object.entries(defs)) defs[n] = Object.fromEntries(Object.entries(d).map(([k, child]) => [k, replaceAll(child, best.text, ref)]));
    defs[name] = JSON.parse(best.text) as Schema;
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

/** `schema` with objects nested deeper than `depth` property levels reduced to their type. */
function cutBelow(s: unknown, depth: number): unknown {
  if (Array.isArray(s)) return s.map((x) => cutBelow(x, depth));
  if (!isSchema(s)) return s;
  if (depth < 0 && isSchema(s.properties)) return { type: s.type ?? 'object' };
  return Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, k === 'properties' && isSchema(v) ? Object.fromEntries(Object.entries(v).map(([n, p]) => [n, cutBelow(p, depth - 1)])) : cutBelow(v, depth)]),
  );
}

/** The listing form of a tool's input or output JSON Schema. */
export function leanSchema(schema: Schema, io: 'input' | 'output'): Schema {
  const lean = (s: Schema) => shareDefinitions(trim(s, io) as Schema);
  if (io === 'input') return lean(schema);
  // the deepest form within the budget; the top level alone when even one level more does not fit
  for (const depth of [Infinity, 3, 2, 1]) {
    const candidate = lean(cutBelow(schema, depth) as Schema);
    if (JSON.stringify(candidate).length <= OUTPUT_SCHEMA_BYTES) return candidate;
  }
  return lean(cutBelow(schema, 0) as Schema);
}
