import type { z } from 'zod';
import { InvalidInput, type ValidationIssue } from '../domain/errors.js';

export type Location = 'body' | 'query' | 'path';

/** Deeper than any operation's input: refused before the schema (and any recursion) sees it. */
const MAX_INPUT_DEPTH = 16;

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p as string];
  }
  return cur;
}

function issue(type: string, loc: (string | number)[], msg: string, input: unknown): ValidationIssue {
  return { type, loc, msg, input };
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
export function toValidationIssues(issues: z.core.$ZodIssue[], data: unknown, locate: (topKey: string | undefined) => Location): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const zi of issues) {
    const path = zi.path.map<string | number>((p) => (typeof p === 'symbol' ? String(p) : p));
    const where = locate(typeof path[0] === 'string' ? path[0] : undefined);
    const input = valueAt(data, path);
    switch (zi.code) {
      case 'unrecognized_keys':
        for (const key of zi.keys) {
          const keyWhere = path.length ? where : locate(key);
          out.push(issue('extra_forbidden', [keyWhere, ...path, key], 'Extra inputs are not permitted', valueAt(data, [...path, key]) ?? null));
        }
        continue;
      case 'invalid_type':
        // a field required only under a condition says which (its check's message starts "Field required")
        if (input === undefined) out.push(issue('missing', [where, ...path], zi.message.startsWith('Field required ') ? zi.message : 'Field required', null));
        else out.push(issue(TYPE_NAMES[zi.expected] ?? `${zi.expected}_type`, [where, ...path], zi.message, input));
        continue;
      case 'too_small':
        out.push(issue(boundType(zi, true), [where, ...path], zi.message, input ?? null));
        continue;
      case 'too_big':
        out.push(issue(boundType(zi, false), [where, ...path], zi.message, input ?? null));
        continue;
      case 'invalid_value':
        out.push(issue('enum', [where, ...path], zi.message, input ?? null));
        continue;
      case 'invalid_format':
        out.push(issue('string_pattern_mismatch', [where, ...path], zi.message, input ?? null));
        continue;
      case 'custom':
        // a check may name its own type (futureDate: date_future)
        out.push(issue(typeof zi.params?.type === 'string' ? zi.params.type : 'value_error', [where, ...path], zi.message, input ?? null));
        continue;
      default:
        out.push(issue('value_error', [where, ...path], zi.message, input ?? null));
    }
  }
  return out;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored or sent on (a NUL character, a lone surrogate), or null. */
export function badText(s: string): string | null {
  if (s.includes('\u0000')) return 'Input should not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'Input should be a valid Unicode string (no lone surrogates)';
  return null;
}

/**
 * Inputs no operation can take, found before the schema runs: nesting deeper than any input
 * (schemas, error echoes and JSON.stringify recurse), NUL characters and lone surrogates (a
 * PostgreSQL text or jsonb value cannot hold them, and no upstream identifier contains them).
 * Iterative, so that the check itself cannot run out of stack.
 */
export function inputHazards(data: unknown, locate: (topKey: string | undefined) => Location): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: data, path: [] }];
  const at = (path: (string | number)[]) => [locate(typeof path[0] === 'string' ? path[0] : undefined), ...path];
  while (stack.length && out.length < 20) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const why = badText(value);
      if (why) out.push(issue('string_unicode', at(path), why, value));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      out.push(issue('value_error', at(path), `Input should not be nested deeper than ${MAX_INPUT_DEPTH} levels`, null));
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    for (const k of Object.keys(value).reverse()) {
      const why = badText(k);
      if (why) out.push(issue('string_unicode', at([...path, k]), `Field name: ${why}`, k));
      else stack.push({ value: (value as Record<string, unknown>)[k], path: [...path, k] });
    }
  }
  return out;
}

export function parseInput<S extends z.ZodType>(schema: S, data: unknown, locate: (topKey: string | undefined) => Location): z.output<S> {
  const hazards = inputHazards(data, locate);
  if (hazards.length) throw new InvalidInput(hazards);
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new InvalidInput(toValidationIssues(result.error.issues, data, locate));
}
