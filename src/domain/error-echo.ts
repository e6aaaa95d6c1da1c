/**
 * Errors quote what the caller sent, never much of it: a 2 MB field, a key of thousands of
 * characters or an input nested thousands of levels deep comes back as a short prefix, so an
 * error body stays small (well under 16 KB) and serialising it can never run out of stack.
 */

/** Longest string echoed (as `input`, a key in `loc`); longer ones are cut. */
const ECHO_CHARS = 100;
/** Longest JSON text of an echoed object or array; larger ones are echoed as a cut JSON text. */
const ECHO_JSON_CHARS = 200;
const MSG_CHARS = 500;
/** A 422 lists problems until its detail reaches this size; the rest are counted in one entry. */
const DETAIL_BUDGET = 8_000;
/** Longest string detail. */
export const DETAIL_CHARS = 2_000;

export function cutText(text: string, max = ECHO_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * JSON text of `value`, stopping once it passes `max` characters (a huge or deeply nested input
 * is never serialised whole). Each level adds at least one character, so the recursion is at
 * most `max` deep.
 */
function boundedJson(value: unknown, max: number): string {
  let out = '';
  const walk = (v: unknown): void => {
    if (out.length > max) return;
    if (v === null || typeof v !== 'object') {
      out += typeof v === 'string' ? JSON.stringify(cutText(v, max)) : (JSON.stringify(v) ?? 'null');
      return;
    }
    if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length && out.length <= max; i++) {
        if (i) out += ',';
        walk(v[i]);
      }
      out += ']';
      return;
    }
    out += '{';
    let first = true;
    for (const k of Object.keys(v)) {
      if (out.length > max) break;
      out += `${first ? '' : ','}${JSON.stringify(cutText(k, max))}:`;
      first = false;
      walk((v as Record<string, unknown>)[k]);
    }
    out += '}';
  };
  walk(value);
  return out;
}

/** The value itself when small; else a long string's start, or the start of a large object's JSON text. */
function echo(input: unknown): unknown {
  if (typeof input === 'string') return cutText(input);
  if (input === null || typeof input !== 'object') return input;
  const text = boundedJson(input, ECHO_JSON_CHARS);
  return text.length > ECHO_JSON_CHARS ? `${text.slice(0, ECHO_JSON_CHARS)}…` : input;
}

interface Issue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

/** Each problem with short echoes; problems past the size budget summed up in one last entry. */
export function shortIssues<T extends Issue>(issues: T[]): T[] {
  const out: T[] = [];
  let size = 0;
  for (const [i, it] of issues.entries()) {
    const short = { ...it, loc: it.loc.map((p) => (typeof p === 'string' ? cutText(p) : p)), msg: cutText(it.msg, MSG_CHARS), input: echo(it.input) };
    size += JSON.stringify(short).length;
    if (size > DETAIL_BUDGET && out.length) {
      out.push({ ...it, type: 'too_many_errors', loc: [short.loc[0] ?? 'body'], msg: `${issues.length - i} more problems not listed`, input: null });
      break;
    }
    out.push(short);
  }
  return out;
}
