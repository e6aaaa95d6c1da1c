/**
 * A tool's answer checked against its output schema as strictly as clients read it: the zod
 * schema (types, formats, enums, literals) and the JSON Schema the registry publishes for it
 * (OpenAPI and MCP outputSchema), which also refuses keys the schema does not name.
 */
import { z } from 'zod';
import type { Tool } from '../../src/core/define-tool.js';

type Schema = Record<string, any>;

/** Where `value` breaks the JSON Schema (the subset zod emits), or null: extra keys, missing keys, wrong types. */
function violation(schema: Schema, value: unknown, at: string): string | null {
  if (schema.anyOf) return schema.anyOf.some((s: Schema) => violation(s, value, at) === null) ? null : `${at}: matches no variant`;
  if ('const' in schema) return value === schema.const ? null : `${at}: expected ${JSON.stringify(schema.const)}`;
  if (schema.enum) return schema.enum.includes(value) ? null : `${at}: ${JSON.stringify(value)} not in enum`;
  const type = schema.type;
  if (type === 'null') return value === null ? null : `${at}: expected null`;
  if (type === 'string') return typeof value === 'string' ? null : `${at}: expected string`;
  if (type === 'boolean') return typeof value === 'boolean' ? null : `${at}: expected boolean`;
  if (type === 'number') return typeof value === 'number' ? null : `${at}: expected number`;
  if (type === 'integer') return Number.isInteger(value) ? null : `${at}: expected integer`;
  if (type === 'array') {
    if (!Array.isArray(value)) return `${at}: expected array`;
    for (let i = 0; i < value.length; i++) {
      const v = schema.items ? violation(schema.items, value[i], `${at}[${i}]`) : null;
      if (v) return v;
    }
    return null;
  }
  if (type === 'object') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return `${at}: expected object`;
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) return `${at}.${k}: missing`;
    for (const [k, v] of Object.entries(obj)) {
      const prop = schema.properties?.[k];
      if (prop) {
        const bad = violation(prop, v, `${at}.${k}`);
        if (bad) return bad;
      } else if (schema.additionalProperties === false) return `${at}.${k}: not in the output schema`;
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const bad = violation(schema.additionalProperties, v, `${at}.${k}`);
        if (bad) return bad;
      }
    }
    return null;
  }
  return null;
}

/** Throws naming the first place where `body` leaves the tool's output schema. */
export function assertOutputConforms(tool: Tool, body: unknown): void {
  const parsed = tool.output.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${tool.name} answered outside its output schema: $.${issue.path.join('.')}: ${issue.message}`);
  }
  const bad = violation(z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as Schema, body, '$');
  if (bad) throw new Error(`${tool.method} ${tool.path} answered outside its output schema: ${bad}`);
}
