import { z } from 'zod';

/**
 * Converted once per schema and direction: the registry asks for the same schemas many times
 * (the compatible API documents each engine's parameters from its tools' inputs, then the MCP
 * listing, the OpenAPI document and the query parser convert them again), and the conversion is
 * most of what a process spends starting. Callers read the result and build their own objects
 * from it; it is frozen so that none can change what another one reads.
 */
const converted = { input: new WeakMap<z.ZodType, Record<string, unknown>>(), output: new WeakMap<z.ZodType, Record<string, unknown>>() };

/** JSON Schema of a zod schema as clients send it (`io: 'input'`) or receive it (`io: 'output'`). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  let out = converted[io].get(schema);
  if (!out) {
    out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
    delete out.$schema;
    deepFreeze(out);
    converted[io].set(schema, out);
  }
  return out;
}

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
