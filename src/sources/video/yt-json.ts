/**
 * Readers of the video platform's renderer objects (text runs, thumbnails, counts) and of the page's
 * embedded JSON, on top of the shared JSON readers (src/domain/json.ts).
 */
import { arr, isObject, jsonValueEnd, obj, str, type JsonObject } from '../../domain/json.js';

/** Text of `{simpleText}`, `{runs:[{text}]}` or `{content}` objects, or a plain string. */
export function rendererText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  const o = obj(v);
  if (!o) return null;
  if (typeof o.simpleText === 'string') return o.simpleText;
  if (typeof o.content === 'string') return o.content;
  if (Array.isArray(o.runs)) return o.runs.map((r) => str(r, 'text') ?? '').join('');
  return null;
}

export interface Thumb {
  url: string;
  width: number | null;
  height: number | null;
}

/** Thumbnails of `{thumbnails:[...]}` or `{sources:[...]}`, protocol-relative URLs made absolute. */
export function thumbs(v: unknown): Thumb[] {
  const o = obj(v);
  const list = arr(o?.thumbnails ?? o?.sources ?? v);
  return list.flatMap((t) => {
    const url = str(t, 'url');
    if (!isObject(t) || url === null) return [];
    return [
      {
        url: url.startsWith('//') ? `https:${url}` : url,
        width: typeof t.width === 'number' ? t.width : null,
        height: typeof t.height === 'number' ? t.height : null,
      },
    ];
  });
}

/** The widest thumbnail's URL (the last one when sizes are not given). */
export function bestThumb(v: unknown): string | null {
  const list = thumbs(v);
  if (list.length === 0) return null;
  return list.reduce((best, t) => ((t.width ?? 0) >= (best.width ?? 0) ? t : best)).url;
}

/** "1:07:34" → 4054. */
export function clockSeconds(s: string | null | undefined): number | null {
  if (!s || !/^\d+(?::\d{1,2}){0,2}$/.test(s.trim())) return null;
  return s
    .trim()
    .split(':')
    .reduce((acc, p) => acc * 60 + Number(p), 0);
}

/** Integer from a count string with separators ("2,133,707 views" → 2133707); null for abbreviated counts. */
export function exactCount(s: string | null | undefined): number | null {
  if (!s) return null;
  const m = /^\D*?(\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+|\d+)(?![.,]?\d*\s*[kKmMbB]\b)/.exec(s.trim());
  if (!m) return null;
  return Number(m[1]!.replace(/[^\d]/g, ''));
}

/** Extracts `var <name> = {...};` (or `window["<name>"] = {...}`) from a page without evaluating it. */
export function extractAssignedJson(html: string, name: string): JsonObject | null {
  const markers = [`var ${name} = `, `window["${name}"] = `, `window['${name}'] = `, `${name} = `];
  for (const marker of markers) {
    let from = 0;
    for (;;) {
      const i = html.indexOf(marker, from);
      if (i < 0) break;
      from = i + marker.length;
      const start = html.indexOf('{', from);
      if (start < 0 || start - from > 3) continue;
      const end = jsonValueEnd(html, start);
      if (end < 0) continue;
      try {
        // The slice is balanced from a '{', so what parses is an object.
        return JSON.parse(html.slice(start, end)) as JsonObject;
      } catch {
        continue;
      }
    }
  }
  return null;
}
