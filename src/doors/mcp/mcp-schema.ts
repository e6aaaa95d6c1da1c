/**
 * JSON Schemas as the MCP tool list carries them. An agent pays for every byte of `tools/list` in
 * every conversation, so the listing keeps what tells it what to send and what comes back (field
 * names, types, short enums, bounds it can break, descriptions) and drops what only a validator
 * needs: JavaScript's safe-integer bounds, regular expressions behind a format or an example in
 * the description (`e.g. en`), enums longer than
 * MAX_ENUM (currency lists: the field's description names the code system; the server still
 * checks and its 422 lists the values), fields with nothing to choose (a constant, such as the
 * compatible routes' `engine`) or kept only for older callers (deprecated aliases), and on outputs
 * `additionalProperties`, `required` and tuple arities. An output schema keeps the nesting depth
 * that fits OUTPUT_SCHEMA_BYTES (deeper objects are listed as objects). The full schemas stay in
 * /openapi.json.
 *
 * Portable to the clients' schema converters (OpenAI strict mode, Gemini's OpenAPI subset, Mastra,
 * LangChain, mcp-use; the MCP Inspector's schema-portability check): no `$ref` (every sub-schema
 * inline), a nullable field as `anyOf` of single-`type` branches (never a `type` array), every
 * sub-schema typed (a value of any kind lists its kinds). Inputs also (portableInput): no string
 * `format` (Gemini takes only `enum` and `date-time`: a date is its pattern, a URL its words), no
 * union a converter cannot type (a choice of numbers is their range, text-or-JSON is the JSON),
 * and each field's allowed values, bounds and default also in its words, since some adapters
 * (mcp-use) drop those keywords. What a field requires only under a condition is said in words
 * and checked by the server; a top-level `if`/`then`/`else` would become an unconditional
 * `required` in LangChain's adapter.
 */

type Schema = Record<string, unknown>;

const SAFE_INT = Number.MAX_SAFE_INTEGER;
const ISO_DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const MAX_ENUM = 24;
/** Text bounds at or past this are left out of the listing (the server still checks them). */
const LONG_TEXT = 200;
/** Byte budget of one tool's output schema in the listing (18 tools share the ≤ 48 KB of tools/list). */
const OUTPUT_SCHEMA_BYTES = 1_000;
/** Keys an output schema does not need: outputs are produced by us, not checked against the agent. */
const OUTPUT_ONLY_DROPS = new Set([
  'required',
  'additionalProperties',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'const',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'default',
]);

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `type: [A, B]` → `anyOf` of one branch per type (Gemini's converter takes a single `type`). */
function splitTypeUnion(s: Schema): Schema {
  if (!Array.isArray(s.type)) return s;
  const { type, description, default: dflt, ...constraints } = s;
  const branches = (type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...constraints }));
  return { ...(description === undefined ? {} : { description }), ...(dflt === undefined ? {} : { default: dflt }), anyOf: branches };
}

/** `{anyOf: [X, {type: null}]}` → X (with the outer description and default). */
function withoutNull(p: unknown): unknown {
  if (!isSchema(p)) return p;
  const s = splitTypeUnion(p);
  if (!Array.isArray(s.anyOf)) return s;
  const others = s.anyOf.filter((b) => !(isSchema(b) && b.type === 'null' && Object.keys(b).length === 1));
  if (others.length !== 1 || others.length === s.anyOf.length || !isSchema(others[0])) return s;
  const { anyOf: _anyOf, ...outer } = s;
  return { ...outer, ...others[0] };
}

/** Keywords that constrain a value (as the Inspector counts them); a sub-schema with none accepts anything (its "untyped-schema"). */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  'properties',
  'items',
  'prefixItems',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
]);
/** Any JSON value, spelled as its kinds. */
const ANY_VALUE = ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type }));
const constrains = (s: Schema) => Object.keys(s).some((k) => CONSTRAINING.has(k)) || ('if' in s && ('then' in s || 'else' in s));
/** Keywords whose value is one sub-schema, or a list of them. */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);
const SUBSCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf']);

/** One sub-schema in its listing form. */
function trim(schema: unknown, io: 'input' | 'output'): unknown {
  if (!isSchema(schema)) return schema;
  const src = splitTypeUnion(schema);
  const out: Schema = {};
  for (const [k, v] of Object.entries(src)) {
    if ((k === 'minimum' && v === -SAFE_INT) || (k === 'maximum' && v === SAFE_INT)) continue;
    if (k === 'enum' && Array.isArray(v) && v.length > MAX_ENUM) continue;
    if (k === 'minLength' && v === 1) continue; // any non-empty text: nothing an agent needs told
    if (k === 'maxLength' && typeof v === 'number' && v >= LONG_TEXT) continue; // a bound no name, place or URL an agent sends comes near
    if (k === 'pattern' && src.format) continue;
    // a form the description shows by example (a language, country or currency code) needs no regular expression too: the server's 422 names it
    if (k === 'pattern' && typeof src.description === 'string' && /\be\.g\. /.test(src.description)) continue;
    if (io === 'output' && OUTPUT_ONLY_DROPS.has(k)) continue;
    if (io === 'output' && k === 'prefixItems' && Array.isArray(v)) {
      // a fixed-length tuple of one type reads as a list of that type
      const kinds = new Set(v.map((x) => JSON.stringify(trim(x, io))));
      if (kinds.size === 1) out.items = trim(v[0], io);
      continue;
    }
    if (io === 'output' && k === 'items' && v === false) continue;
    // object keys are text in JSON: saying so tells nothing
    if (k === 'propertyNames' && isSchema(v) && v.type === 'string' && Object.keys(v).length === 1) continue;
    // "anything else" is what an object allows by default: said as a schema, it is an untyped one
    if (k === 'additionalProperties' && isSchema(v) && !constrains(v)) continue;
    if (k === 'properties' && isSchema(v)) {
      const kept = Object.entries(v).filter(([, p]) => !(isSchema(p) && (p.deprecated === true || 'const' in p)));
      const required = new Set(Array.isArray(src.required) ? src.required : []);
      // an optional input that may be null is simply left out: the listing admits less than the server, never more
      out.properties = Object.fromEntries(kept.map(([name, p]) => [name, trim(io === 'input' && !required.has(name) ? withoutNull(p) : p, io)]));
    } else if (k === 'required' && Array.isArray(v) && isSchema(src.properties)) {
      const props = src.properties;
      const names: unknown[] = v;
      out.required = names.filter((name) => typeof name === 'string' && isSchema(props[name]) && !(props[name].deprecated === true || 'const' in props[name]));
    } else if (SUBSCHEMA.has(k)) out[k] = trim(v, io);
    else if (SUBSCHEMA_LIST.has(k) && Array.isArray(v)) out[k] = v.map((x) => trim(x, io));
    else out[k] = v; // a value, not a schema (default, enum, description …)
  }
  const typed = io === 'input' ? portableInput(out) : out;
  // a field of any kind (an unknown, a free-form value) lists its kinds
  return constrains(typed) ? typed : { ...typed, anyOf: ANY_VALUE };
}

/** Words a description gains, unless it already says them. */
function say(description: unknown, ...parts: (string | null)[]): string | undefined {
  const text = typeof description === 'string' ? description : '';
  const missing = parts.filter((p): p is string => !!p && !text.includes(p));
  if (!missing.length) return text || undefined;
  return text ? `${text} (${missing.join('; ')})` : missing.join('; ');
}

const isConstBranch = (b: unknown): b is Schema => isSchema(b) && 'const' in b;

/** One input sub-schema in the form every client's converter keeps (see the header). */
function portableInput(s: Schema): Schema {
  let out = { ...s };
  // a choice of constants (zod's union of literals): text as an enum, numbers as their range (Gemini's enums are text only)
  if (Array.isArray(out.anyOf) && out.anyOf.length > 1 && out.anyOf.every(isConstBranch)) {
    const { anyOf, ...rest } = out;
    const values = anyOf.map((b) => b.const);
    out = values.every((v) => typeof v === 'string')
      ? { ...rest, type: 'string', enum: values }
      : {
          ...rest,
          type: 'number',
          minimum: Math.min(...(values as number[])),
          maximum: Math.max(...(values as number[])),
          description: say(rest.description, `one of ${values.join(', ')}`),
        };
  }
  // text or structured JSON (the JSON given as text, for query strings): the structured form, which every converter types
  if (Array.isArray(out.anyOf) && out.anyOf.length === 2 && out.anyOf.some((b) => isSchema(b) && b.type === 'string' && Object.keys(b).length === 1)) {
    const { anyOf, ...rest } = out;
    const structured = (anyOf as Schema[]).find((b) => !(b.type === 'string' && Object.keys(b).length === 1))!;
    // the field's own words win over the branch's (which only restate its bounds, said again below)
    out = { ...structured, ...rest };
  }
  if (out.format === 'date' || out.format === 'uri') {
    const { format, ...rest } = out;
    out =
      format === 'date'
        ? { ...rest, pattern: ISO_DATE_PATTERN, description: say(rest.description, 'YYYY-MM-DD') }
        : { ...rest, description: say(rest.description, 'an http(s) URL') };
  }
  const words: (string | null)[] = [];
  if (Array.isArray(out.enum)) words.push(`one of ${out.enum.join(', ')}`);
  const [min, max] = [out.minimum, out.maximum].map((b) => (typeof b === 'number' ? b : null));
  if (min !== null && max !== null) words.push(`${min}-${max}`);
  else if (min !== null) words.push(`at least ${min}`);
  else if (max !== null) words.push(`at most ${max}`);
  if (typeof out.maxItems === 'number') words.push(`at most ${out.maxItems} items`);
  const [minLen, maxLen] = [out.minLength, out.maxLength].map((b) => (typeof b === 'number' ? b : null));
  // text lengths tersely: about 25 fields carry one, in a listing kept small
  if (minLen !== null && maxLen !== null) words.push(`${minLen}-${maxLen} chars`);
  else if (minLen !== null) words.push(`min ${minLen} chars`);
  else if (maxLen !== null) words.push(`max ${maxLen} chars`);
  if (out.default !== undefined && !(Array.isArray(out.default) && !out.default.length))
    words.push(`default ${JSON.stringify(out.default).replace(/^"|"$/g, '')}`);
  if (words.length) out.description = say(out.description, ...words);
  return out;
}

/** `$ref`s into the schema's own `$defs` replaced by their targets (the converters of several clients drop a `$ref`). */
function inlineRefs(root: Schema): Schema {
  const defs = isSchema(root.$defs) ? root.$defs : {};
  const resolve = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) return v.map((x) => resolve(x, depth));
    if (!isSchema(v)) return v;
    if (typeof v.$ref === 'string' && v.$ref.startsWith('#/$defs/')) {
      const { $ref, ...rest } = v;
      const target = defs[$ref.slice('#/$defs/'.length)];
      // a recursive definition is listed as an object past a few levels
      if (!isSchema(target) || depth > 4) return { type: 'object', ...rest };
      return { ...(resolve(target, depth + 1) as Schema), ...rest };
    }
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== '$defs')
        .map(([k, child]) => [k, resolve(child, depth)]),
    );
  };
  return resolve(root, 0) as Schema;
}

/** `schema` with objects nested deeper than `depth` property levels reduced to their type. */
function cutBelow(s: unknown, depth: number): unknown {
  if (Array.isArray(s)) return s.map((x) => cutBelow(x, depth));
  if (!isSchema(s)) return s;
  if (depth < 0 && isSchema(s.properties)) return { type: s.type ?? 'object' };
  return Object.fromEntries(
    Object.entries(s).map(([k, v]) => [
      k,
      k === 'properties' && isSchema(v) ? Object.fromEntries(Object.entries(v).map(([n, p]) => [n, cutBelow(p, depth - 1)])) : cutBelow(v, depth),
    ]),
  );
}

/** The listing form of a tool's input or output JSON Schema. */
export function leanSchema(schema: Schema, io: 'input' | 'output'): Schema {
  const lean = (s: Schema) => trim(inlineRefs(s), io) as Schema;
  if (io === 'input') return lean(schema);
  // the deepest form within the budget; the top level alone when even one level more does not fit
  for (const depth of [Infinity, 3, 2, 1]) {
    const candidate = lean(cutBelow(schema, depth) as Schema);
    if (JSON.stringify(candidate).length <= OUTPUT_SCHEMA_BYTES) return candidate;
  }
  return lean(cutBelow(schema, 0) as Schema);
}
