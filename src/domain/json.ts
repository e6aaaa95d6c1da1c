/**
 * Reading untyped JSON: upstream replies, embedded page data, stored documents. A parsed value is
 * `unknown` (alias `Json`) until one of these readers takes a typed value out of it; no parser
 * reaches into it with `any`.
 *
 * Every reader takes the value and an optional path of keys and indexes: `num(reply, 'rates', 0,
 * 'amount')` reads `reply.rates[0].amount`. A number steps into an array only, a string into an
 * object only (an own key, never an array's or a prototype's); a missing step reads as absent.
 * Hand a reader to map or filter in a lambda (`list.map((v) => text(v))`): passed bare, the
 * element's index would become a path step (the compiler refuses that on an `unknown[]`).
 *
 * The string readers differ on purpose, because the sources differ: some state ids and prices as
 * numbers, some pad names with spaces that must go, some use `''` for absent. `…Str` readers give
 * the string as stated; `…Text` readers trim it.
 */

/** A value parsed from JSON and not read yet. */
export type Json = unknown;
export type JsonObject = Record<string, unknown>;
type JsonKey = string | number;
export type JsonPath = readonly JsonKey[];

/** A JSON object: not null, not an array. */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at `path` (numbers index arrays, strings key objects); undefined as soon as a step is missing. */
export function at(v: unknown, ...path: JsonPath): unknown {
  let cur = v;
  for (const k of path) {
    if (typeof k === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[k];
    } else {
      if (!isObject(cur) || !Object.hasOwn(cur, k)) return undefined;
      cur = cur[k];
    }
  }
  return cur;
}

/** The object at `path`, or null. */
export function obj(v: unknown, ...path: JsonPath): JsonObject | null {
  const x = at(v, ...path);
  return isObject(x) ? x : null;
}

/** The array at `path`; [] for anything else. */
export function arr(v: unknown, ...path: JsonPath): unknown[] {
  const x = at(v, ...path);
  return Array.isArray(x) ? x : [];
}

/** The array at `path`, or null (where a missing list means something else than an empty one). */
export function arrOrNull(v: unknown, ...path: JsonPath): unknown[] | null {
  const x = at(v, ...path);
  return Array.isArray(x) ? x : null;
}

/** The objects of the array at `path`, other items left out. */
export function objs(v: unknown, ...path: JsonPath): JsonObject[] {
  return arr(v, ...path).filter(isObject);
}

/** A string as stated ('' included), or null. */
export function str(v: unknown, ...path: JsonPath): string | null {
  const x = at(v, ...path);
  return typeof x === 'string' ? x : null;
}

/** A non-empty string as stated (not trimmed), or null. */
export function nonEmptyStr(v: unknown, ...path: JsonPath): string | null {
  const x = at(v, ...path);
  return typeof x === 'string' && x !== '' ? x : null;
}

/** A string, trimmed, or a number written as text; '' for anything else. */
export function text(v: unknown, ...path: JsonPath): string {
  const x = at(v, ...path);
  return typeof x === 'string' ? x.trim() : typeof x === 'number' ? String(x) : '';
}

/** `text`, with null instead of ''. */
export function textOrNull(v: unknown, ...path: JsonPath): string | null {
  return text(v, ...path) || null;
}

/** A string, trimmed; '' for anything else, numbers included. */
export function stringText(v: unknown, ...path: JsonPath): string {
  const x = at(v, ...path);
  return typeof x === 'string' ? x.trim() : '';
}

/** A trimmed non-empty string, or null; numbers are not taken for text. */
export function nonEmptyText(v: unknown, ...path: JsonPath): string | null {
  return stringText(v, ...path) || null;
}

/** A finite number; null for anything else, numeric strings included. */
export function num(v: unknown, ...path: JsonPath): number | null {
  const x = at(v, ...path);
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/** A finite number, or a string holding one (as some sources write prices and ids); null for anything else. */
export function numeric(v: unknown, ...path: JsonPath): number | null {
  const x = at(v, ...path);
  if (typeof x === 'number' && Number.isFinite(x)) return x;
  if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) return Number(x);
  return null;
}

/** A boolean, or null. */
export function bool(v: unknown, ...path: JsonPath): boolean | null {
  const x = at(v, ...path);
  return typeof x === 'boolean' ? x : null;
}

/**
 * A source's date or time, as precise as the source states it: a date-only value stays YYYY-MM-DD
 * (never turned into a midnight timestamp it did not state); a value with a time becomes ISO-8601
 * UTC to the second. null for anything unreadable.
 */
export function dateOrInstant(v: unknown, ...path: JsonPath): string | null {
  const s = nonEmptyText(v, ...path);
  if (!s) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT, QUOTE, BACKSLASH] = [0x5b, 0x5d, 0x7b, 0x7d, 0x22, 0x5c]; // [ ] { } " \

/**
 * Index one past the end of the JSON array or object that starts at `start` in a page's text (a
 * script assigns it, a callback receives it), counting brackets and braces outside strings; -1
 * when it does not close. What it cuts out is then for JSON.parse: nothing on the page is evaluated.
 */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
