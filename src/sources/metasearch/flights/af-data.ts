/**
 * Extracts the JSON payloads the search engine's pages embed as
 * `AF_initDataCallback({key: 'ds:N', hash: '…', data:[…], sideChannel: {}});`.
 */
import { jsonValueEnd } from '../../../domain/json.js';

const OPEN = '['.charCodeAt(0);
const OPEN_OBJ = '{'.charCodeAt(0);

function callbackStarts(html: string, key: string): number[] {
  const out: number[] = [];
  const re = new RegExp(`AF_initDataCallback\\(\\{\\s*key:\\s*['"]${key.replace(/[:.]/g, '\\$&')}['"]`, 'g');
  for (let m = re.exec(html); m; m = re.exec(html)) out.push(m.index + m[0].length);
  return out;
}

/**
 * The parsed `data` of the callback keyed `key`, or undefined when the page has no such
 * callback (or its data is not valid JSON). Several callbacks with one key: the last parseable wins.
 */
export function extractAfData(html: string, key: string): unknown {
  let found: unknown;
  for (const after of callbackStarts(html, key)) {
    const dataAt = html.indexOf('data:', after);
    if (dataAt < 0) continue;
    let start = dataAt + 5;
    while (start < html.length && /\s/.test(html.charAt(start))) start++;
    const first = html.charCodeAt(start);
    if (first !== OPEN && first !== OPEN_OBJ) continue;
    const end = jsonValueEnd(html, start);
    if (end < 0) continue;
    try {
      found = JSON.parse(html.slice(start, end));
    } catch {
      // an unparseable blob counts as absent; the caller reports the contract change
    }
  }
  return found;
}

/** Keys of every AF_initDataCallback on the page, for diagnostics. */
export function afKeys(html: string): string[] {
  const keys: string[] = [];
  const re = /AF_initDataCallback\(\{\s*key:\s*['"]([^'"]+)['"]/g;
  for (let m = re.exec(html); m; m = re.exec(html)) keys.push(m[1]!);
  return keys;
}
