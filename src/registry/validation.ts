import type { z } from 'zod';
import { InvalidInput, type ValidationIssue } from '../platform/errors.js';

export type Location = 'body' | 'query' | 'path';

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p as string];
  }
  return cur;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  number: 'number_type',
  int: 'int_type',
  boolean: 'bool_type',
  array: 'list_type',
  object: 'dict_type',
};

function boundType(issue: { origin?: string; inclusive?: boolean }, small: boolean): string {
  switch (issue.origin) {
    case 'string':
      return small ? 'string_too_short' : 'string_too_long';
    case 'array':
    case 'set':
      return small ? 'too_short' : 'too_long';
    default:
      if (small) return issue.inclusive === false ? 'greater_than' : 'greater_than_equal';
      return issue.inclusive === false ? 'less_than' : 'less_than_equal';
  }
}

/** Zod issues in the spec's 422 shape: {type, loc, msg, input}, one entry per problem. */
export function toValidationIssues(
  issues: z.core.$ZodIssue[],
  data: unknown,
  locate: (topKey: string | undefined) => Location,
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) as (string | number)[];
    const where = locate(typeof path[0] === 'string' ? path[0] : undefined);
    const input = valueAt(data, path);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const keyWhere = path.length ? where : locate(key);
          out.push({ type: 'extra_forbidden', loc: [keyWhere, ...path, key], msg: 'Extra inputs are not permitted', input: valueAt(data, [...path, key]) ?? null });
        }
        continue;
      case 'invalid_type':
        if (input === undefined) {
          out.push({ type: 'missing', loc: [where, ...path], msg: 'Field required', input: null });
        } else {
          out.push({ type: TYPE_NAMES[issue.expected] ?? `${issue.expected}_type`, loc: [where, ...path], msg: issue.message, input });
        }
        continue;
      case 'too_small':
        out.push({ type: boundType(issue, true), loc: [where, ...path], msg: issue.message, input: input ?? null });
        continue;
      case 'too_big':
        out.push({ type: boundType(issue, false), loc: [where, ...path], msg: issue.message, input: input ?? null });
        continue;
      case 'invalid_value':
        out.push({ type: 'enum', loc: [where, ...path], msg: issue.message, input: input ?? null });
        continue;
      case 'invalid_format':
        out.push({ type: 'string_pattern_mismatch', loc: [where, ...path], msg: issue.message, input: input ?? null });
        continue;
      default:
        out.push({ type: 'value_error', loc: [where, ...path], msg: issue.message, input: input ?? null });
    }
  }
  return out;
}

export function parseInput<S extends z.ZodType>(
  schema: S,
  data: unknown,
  locate: (topKey: string | undefined) => Location,
): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new InvalidInput(toValidationIssues(result.error.issues, data, locate));
}
