import { z } from 'zod';

/** JSON Schema of a zod schema as clients send it (`io: 'input'`) or receive it (`io: 'output'`). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}
