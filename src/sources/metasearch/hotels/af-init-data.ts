/**
 * Server-rendered data blobs of the engine's pages:
 *   AF_initDataCallback({key: 'ds:0', hash: '2', data:[…], sideChannel: {}});
 * `data` is a JSON value inside a JS object literal, so it is cut out by bracket balancing
 * (string-aware) and handed to JSON.parse; nothing on the page is evaluated.
 * `AF_dataServiceRequests = {'ds:0' : {id:'AtySUc',request:[…]}, …}` names the RPC behind each key.
 */

import { isObject, jsonValueEnd } from '../../../domain/json.js';

const CALL = 'AF_initDataCallback(';
const KEY_RE = /^\{\s*key:\s*'([^']*)'/;
const HEAD_WINDOW = 200;

export interface InitDataBlob {
  key: string;
  /** Parsed `data` value; undefined when the blob is an error blob without data. */
  data: unknown;
}

/** Every AF_initDataCallback blob on the page, in page order. Malformed blobs are skipped. */
export function extractInitData(html: string): InitDataBlob[] {
  const blobs: InitDataBlob[] = [];
  let from = 0;
  for (;;) {
    const at = html.indexOf(CALL, from);
    if (at < 0) break;
    from = at + CALL.length;
    const key = KEY_RE.exec(html.slice(from, from + HEAD_WINDOW))?.[1];
    if (key === undefined) continue;
    // `data:` follows key and hash closely; an error blob has none, and the page has other "data:" text.
    const dataAt = html.indexOf('data:', from);
    const nextCall = html.indexOf(CALL, from);
    if (dataAt < 0 || dataAt - from > HEAD_WINDOW || (nextCall >= 0 && nextCall < dataAt)) {
      blobs.push({ key, data: undefined });
      continue;
    }
    let start = dataAt + 5;
    while (start < html.length && /\s/.test(html.charAt(start))) start++;
    const open = html.charAt(start);
    if (open !== '[' && open !== '{') {
      blobs.push({ key, data: undefined });
      continue;
    }
    const end = jsonValueEnd(html, start);
    if (end < 0) continue;
    try {
      blobs.push({ key, data: JSON.parse(html.slice(start, end)) });
    } catch {
      // A blob that is not JSON is left out; callers report the missing structure.
    }
    from = end;
  }
  return blobs;
}

/** ds key → RPC id, from AF_dataServiceRequests (e.g. 'ds:0' → 'AtySUc'). */
export function dataServiceRpcIds(html: string): Map<string, string> {
  const ids = new Map<string, string>();
  const at = html.indexOf('AF_dataServiceRequests');
  if (at < 0) return ids;
  const end = html.indexOf('</script>', at);
  const decl = html.slice(at, end < 0 ? undefined : end);
  for (const m of decl.matchAll(/'(ds:\d+)'\s*:\s*\{\s*id:\s*'([^']+)'/g)) ids.set(m[1]!, m[2]!);
  return ids;
}

/** The value of `key` in the first object of `entries` that carries it (the extension entries of a reply). */
export function extensionIn(entries: unknown[], key: string): unknown {
  for (const e of entries) {
    if (isObject(e) && Object.hasOwn(e, key)) return e[key];
  }
  return undefined;
}

/** `[2026, 8, 15]` → `2026-08-15`; null unless the value is an array of at least three numbers. */
export function ymd(v: unknown): string | null {
  if (!Array.isArray(v) || v.length < 3 || !v.every((x) => typeof x === 'number')) return null;
  const [y, m, d] = v;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A set flag of the page data: `true` or `1`. */
export const truthy = (v: unknown): boolean => v === true || v === 1;
