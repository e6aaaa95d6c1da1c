import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonSchema } from '../../../../src/core/json-schema.js';
import { RECORDED_EXAMPLES_FILE } from '../../../../src/doors/rest/openapi-examples.js';
import { TOOLS } from '../../../../tools/index.js';
import { FIELD_EVIDENCE } from './field-evidence.js';
import { fixturePath, readFixture } from '../../../helpers/fixtures.js';

/**
 * The registry's table of output fields → their source: every field of every operation's output
 * schema is either shown by that operation's recorded example (real parser output on the recorded
 * pages of ../shared/fixtures) or listed in test/unit/sources/fidelity/field-evidence.ts with its source (a
 * recorded page and the text it shows, the request, our own record, or why no recording shows it).
 * A new field without either fails here; so does a listed one the schemas no longer have.
 */
type Schema = Record<string, any>;

function leaves(s: Schema | undefined, at: string, out: Set<string>, defs: Record<string, Schema>, depth = 0): void {
  if (!s || depth > 16) return;
  if (typeof s.$ref === 'string') return leaves(defs[s.$ref.split('/').pop()!], at, out, defs, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf']) for (const x of (s[k] as Schema[] | undefined) ?? []) leaves(x, at, out, defs, depth + 1);
  for (const [k, v] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
    const p = at ? `${at}.${k}` : k;
    out.add(p);
    leaves(v, p, out, defs, depth + 1);
  }
  if (s.items) leaves(s.items as Schema, `${at}[]`, out, defs, depth + 1);
}

/** Paths the example states: present, not null, not an empty list. */
function stated(v: unknown, at: string, out: Set<string>): void {
  if (Array.isArray(v)) {
    for (const x of v) stated(x, `${at}[]`, out);
    return;
  }
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    const p = at ? `${at}.${k}` : k;
    if (x !== null && !(Array.isArray(x) && x.length === 0)) out.add(p);
    stated(x, p, out);
  }
}

const examples = JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')) as Record<string, { output: unknown }>;

describe('every output field has its source: a recorded example, or the evidence table', () => {
  const unexplained: string[] = [];
  const stale: string[] = [];
  for (const tool of TOOLS) {
    const schema = jsonSchema(tool.output, 'output') as Schema;
    const fields = new Set<string>();
    leaves(schema, '', fields, (schema.$defs ?? schema.definitions ?? {}) as Record<string, Schema>);
    const shown = new Set<string>();
    stated(examples[tool.name]?.output, '', shown);
    const table = FIELD_EVIDENCE[tool.name] ?? {};
    for (const f of fields) if (!shown.has(f) && !table[f]) unexplained.push(`${tool.name} ${f}`);
    for (const f of Object.keys(table)) if (!fields.has(f)) stale.push(`${tool.name} ${f}`);
  }
  for (const name of Object.keys(FIELD_EVIDENCE)) if (!TOOLS.some((t) => t.name === name)) stale.push(`${name} (no such operation)`);

  it('no field lacks its source (add its recorded page to the table, or record the example from one)', () => {
    expect(unexplained).toEqual([]);
  });

  it('no table entry names a field the schemas no longer have', () => {
    expect(stale).toEqual([]);
  });

  it('each entry gives its reason; each page entry’s text is on that recorded page', () => {
    for (const [tool, entries] of Object.entries(FIELD_EVIDENCE)) {
      for (const [field, e] of Object.entries(entries)) {
        const why = 'page' in e ? e.shows : Object.values(e)[0];
        expect(`${tool} ${field}: ${why}`.length).toBeGreaterThan(tool.length + field.length + 12);
        if ('page' in e && existsSync(fixturePath(e.page))) expect(readFixture(e.page), `${tool} ${field}`).toContain(e.shows);
      }
    }
  });
});
