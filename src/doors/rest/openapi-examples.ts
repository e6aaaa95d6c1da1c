import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tool } from '../../core/define-tool.js';
import { addDays, earliestStayDate, nightsBetween } from '../../domain/dates.js';

export interface OperationExample {
  input?: unknown;
  output?: unknown;
  /** recorded: real parser output on a recorded payload (npm run examples); schematic: an empty answer of the right shape. */
  source: 'recorded' | 'schematic';
}

export const RECORDED_EXAMPLES_FILE = fileURLToPath(new URL('./openapi-examples.json', import.meta.url));

let recorded: Record<string, { input: unknown; output: unknown }> | null = null;
function recordings() {
  recorded ??= existsSync(RECORDED_EXAMPLES_FILE) ? JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')) : {};
  return recorded!;
}

type Schema = Record<string, unknown>;

/**
 * A value of the schema that states nothing: nullable fields null, arrays empty, optional fields
 * absent, so that no price, id or count is made up; used where no recording exists.
 */
function schematic(schema: unknown): unknown {
  const s = (schema ?? {}) as Schema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('default' in s) return s.default;
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return schematic(branches.find((b) => b.type === 'null') ?? branches[0]);
  const types: unknown[] | null = Array.isArray(s.type) ? s.type : null;
  const type = types ? (types.includes('null') ? 'null' : types[0]) : s.type;
  switch (type) {
    case 'null':
      return null;
    case 'array':
      return Number(s.minItems ?? 0) > 0 ? Array.from({ length: Number(s.minItems) }, () => schematic(s.items)) : [];
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(((s.required ?? []) as string[]).map((k) => [k, schematic(props[k])]));
    }
    case 'string':
      return s.format === 'date' ? '2026-12-01' : s.format === 'date-time' ? '2026-12-01T00:00:00.000Z' : 'string';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

const ISO_DATE = /\b20\d\d-[01]\d-[0-3]\d\b/g;

/**
 * A recorded call whose dates have passed, moved ahead by whole weeks (weekdays and lengths of stay
 * kept, its answer's dates with it), so its request stays one the API accepts (a past stay or
 * flight date is refused) and the answer still matches it.
 */
function movedAhead(rec: { input: unknown; output: unknown }): { input: unknown; output: unknown } {
  const first = (JSON.stringify(rec.input ?? null).match(ISO_DATE) ?? []).sort()[0];
  const gap = first ? nightsBetween(first, addDays(earliestStayDate(), 7)) : 0;
  if (!(gap > 0)) return rec;
  const days = Math.ceil(gap / 7) * 7;
  const move = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v).replace(ISO_DATE, (d) => addDays(d, days))));
  return { input: move(rec.input), output: move(rec.output) };
}

/** The example of an operation: its recorded real call (dates kept ahead) when there is one, otherwise schematic. */
export function exampleOf(tool: Tool, schemas: { input: unknown; output: unknown }): OperationExample {
  const recording = recordings()[tool.name];
  const rec = recording && movedAhead(recording);
  const valid = (value: unknown, schema: { safeParse(v: unknown): { success: boolean } }) => value !== undefined && schema.safeParse(value).success;
  if (rec && valid(rec.output, tool.output)) return { input: valid(rec.input, tool.input) ? rec.input : undefined, output: rec.output, source: 'recorded' };
  const input = tool.example ?? schematic(schemas.input);
  const output = schematic(schemas.output);
  return { input: valid(input, tool.input) ? input : undefined, output: valid(output, tool.output) ? output : undefined, source: 'schematic' };
}
