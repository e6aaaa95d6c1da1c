/**
 * The rules an MCP tool's input schema states, and whether a converted schema (what an agent
 * framework hands its model) still states each: kept as the same keyword, or said in words in the
 * field's description (some adapters drop keywords; our descriptions say values, bounds and
 * defaults in words for them). Used by the converter-matrix test.
 */
type Schema = Record<string, unknown>;

type RuleKind = 'field' | 'enum' | 'default' | 'bound' | 'required';

export interface Rule {
  kind: RuleKind;
  /** Field path, dots between names, `[]` for an array's items. */
  path: string;
  /** The keyword (bound: minimum, maxLength …) and its value. */
  keyword?: string;
  value?: unknown;
}

const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema's alternatives (anyOf/oneOf, a nullable union) flattened, so a rule is found in any of them. */
function variants(s: Schema): Schema[] {
  const alts = [...((s.anyOf as Schema[]) ?? []), ...((s.oneOf as Schema[]) ?? []), ...((s.allOf as Schema[]) ?? [])].filter(isObj);
  return [s, ...alts.flatMap(variants)];
}

function children(s: Schema): [string, Schema, boolean][] {
  const out: [string, Schema, boolean][] = [];
  for (const v of variants(s)) {
    const required = new Set((v.required as string[]) ?? []);
    if (isObj(v.properties)) for (const [k, sub] of Object.entries(v.properties)) if (isObj(sub)) out.push([k, sub, required.has(k)]);
    if (isObj(v.items)) out.push(['[]', v.items, false]);
  }
  return out;
}

/** Every rule of an input schema. */
export function rulesOf(schema: Schema): Rule[] {
  const rules: Rule[] = [];
  const walk = (s: Schema, path: string) => {
    for (const [key, sub, required] of children(s)) {
      const p = path ? (key === '[]' ? `${path}[]` : `${path}.${key}`) : key;
      if (key !== '[]') rules.push({ kind: 'field', path: p });
      if (required) rules.push({ kind: 'required', path: p });
      for (const v of variants(sub)) {
        if (Array.isArray(v.enum)) rules.push({ kind: 'enum', path: p, value: v.enum.filter((e) => e !== null) });
        // an empty list by default says no more than that the field is optional
        if ('default' in v && !(Array.isArray(v.default) && !v.default.length)) rules.push({ kind: 'default', path: p, value: v.default });
        for (const b of BOUNDS) if (typeof v[b] === 'number') rules.push({ kind: 'bound', path: p, keyword: b, value: v[b] });
      }
      walk(sub, p);
    }
  };
  walk(schema, '');
  return rules;
}

/** The sub-schema at a path and whether its parent requires it; undefined when the field is gone. */
function at(schema: Schema, path: string): { node: Schema; required: boolean } | undefined {
  let node = schema;
  let required = false;
  for (const part of path.replace(/\[\]/g, '.[]').split('.')) {
    const next = children(node).find(([k]) => k === part);
    if (!next) return undefined;
    [, node, required] = next;
  }
  return { node, required };
}

/** All a model reads about a field: its descriptions (and title) in every alternative. */
function words(node: Schema): string {
  return variants(node)
    .map((v) => [v.description, v.title].filter((t) => typeof t === 'string').join(' '))
    .join(' ');
}

const said = (text: string, value: unknown) => text.includes(typeof value === 'string' ? value : JSON.stringify(value));

/** Whether the converted schema still states the rule, and how (as a keyword or in words). */
export function kept(converted: Schema, rule: Rule): 'keyword' | 'words' | 'lost' {
  const found = at(converted, rule.path);
  if (!found) return 'lost';
  const { node } = found;
  const vs = variants(node);
  const text = words(node);
  switch (rule.kind) {
    case 'field':
      return 'keyword';
    case 'required':
      return found.required ? 'keyword' : 'lost';
    case 'enum': {
      const values = rule.value as unknown[];
      if (vs.some((v) => Array.isArray(v.enum) && values.every((e) => (v.enum as unknown[]).includes(e)))) return 'keyword';
      return values.every((e) => said(text, e)) ? 'words' : 'lost';
    }
    case 'default':
      if (vs.some((v) => 'default' in v && JSON.stringify(v.default) === JSON.stringify(rule.value))) return 'keyword';
      return said(text, rule.value) ? 'words' : 'lost';
    case 'bound':
      if (vs.some((v) => v[rule.keyword!] === rule.value)) return 'keyword';
      return said(text, rule.value) || said(text, Number(rule.value).toLocaleString('en-US')) ? 'words' : 'lost';
  }
}

/**
 * Requirements the converted schema adds that the tool does not have (a condition turned into a
 * requirement): a required field that was optional, unless it may be null (OpenAI strict mode
 * requires every field and marks the optional ones nullable, which keeps their meaning).
 */
export function addedRequirements(original: Schema, converted: Schema): string[] {
  const wasRequired = new Set(
    rulesOf(original)
      .filter((r) => r.kind === 'required')
      .map((r) => r.path),
  );
  return rulesOf(converted)
    .filter((r) => r.kind === 'required' && !wasRequired.has(r.path))
    .filter((r) => {
      const node = at(converted, r.path)!.node;
      return !variants(node).some((v) => v.type === 'null' || (Array.isArray(v.type) && v.type.includes('null')));
    })
    .map((r) => r.path);
}

/**
 * What Gemini's function declarations refuse in a schema: a string `format` other than `enum` and
 * `date-time`, references, and top-level conditionals (`if`/`then`/`else`, `not`).
 */
export function geminiRefusals(schema: Schema): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`));
    if (!isObj(v)) return;
    const at = path || '(top)';
    if (typeof v.format === 'string' && !['enum', 'date-time'].includes(v.format)) out.push(`${at}: format ${v.format}`);
    for (const k of ['$ref', 'if', 'then', 'else', 'not']) if (k in v) out.push(`${at}: ${k}`);
    for (const [k, sub] of Object.entries(v)) {
      const here = path ? `${path}.${k}` : k;
      // a properties map names fields (a field may be called "not"): each of its values is a schema
      if (k === 'properties' && isObj(sub)) for (const [name, field] of Object.entries(sub)) walk(field, `${here}.${name}`);
      else if (!['default', 'enum', 'const', 'examples', 'description', 'title'].includes(k)) walk(sub, here);
    }
  };
  walk(schema, '');
  return out;
}
