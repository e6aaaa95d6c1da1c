import { BROWSER_HOSTS, type Alias } from '../../config/hosts.js';
import type { Upstream } from '../../upstream/scope.js';

/*
 * Finds a build-time identifier (a persisted query's hash) in the JavaScript a site's page loads,
 * for a source whose request the site refused because the identifier moved with a release. The
 * page's scripts are read in order, the ones likely to hold it first; a loader script that names
 * further chunks adds them. Bounded: at most `maxFetches` script fetches after the page, and only
 * from the source's own host or the asset hosts its pages load from (config/hosts.ts), so a page
 * cannot send the scan anywhere else.
 */

const HASH = '([0-9a-f]{64})';
const HASH_KEY = `['"]?(?:operationId|sha256Hash)['"]?\\s*:\\s*['"]${HASH}['"]`;

/**
 * A persisted query's hash written beside its operation's name in a script, as bundlers of
 * persisted GraphQL documents write them (`name`/`operationName` and `operationId`/`sha256Hash` in
 * one object, either order), or null.
 */
export function hashBesideName(operation: string, text: string): string | null {
  if (!/^\w+$/.test(operation) || !text.includes(operation)) return null;
  const name = `['"]?(?:name|operationName)['"]?\\s*:\\s*['"]${operation}['"]`;
  for (const p of [new RegExp(`${name}[\\s\\S]{0,2000}?${HASH_KEY}`), new RegExp(`${HASH_KEY}[\\s\\S]{0,2000}?${name}`)]) {
    const m = p.exec(text);
    if (m) return m[1]!;
  }
  return null;
}

export interface ChunkScan {
  source: Alias;
  /** The page that loads the site's scripts, relative to the source's base URL. */
  page: string;
  /** The identifier in one script's (or the page's) text, or null. */
  find(text: string): string | null;
  /** Chunks a loader script names (its module map), as absolute URLs. */
  named?(text: string, url: URL): URL[];
  /** Scripts to read first (the operation's own route module, the loader that names it). */
  prefer?: RegExp;
  maxFetches: number;
}

export interface ScanResult {
  value: string | null;
  /** Scripts fetched (the page not counted). */
  fetched: number;
}

const SCRIPT_SRC = /<script\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi;

/** The scripts a page loads, in document order, resolved against the page's URL. */
export function pageScripts(html: string, pageUrl: URL): URL[] {
  const out: URL[] = [];
  for (const m of html.matchAll(SCRIPT_SRC)) {
    try {
      out.push(new URL(m[1]!.replaceAll('&amp;', '&'), pageUrl));
    } catch {
      // not a URL: skipped
    }
  }
  return out;
}

const hostMatches = (host: string, pattern: string) =>
  pattern.startsWith('*.') ? host === pattern.slice(2) || host.endsWith(pattern.slice(1)) : host === pattern;

/** Whether the scan may fetch `url`: the page's own origin, or an https asset host of the source. */
function mayFetch(url: URL, pageOrigin: string, source: Alias): boolean {
  if (url.origin === pageOrigin) return true;
  return url.protocol === 'https:' && BROWSER_HOSTS[source].some((p) => hostMatches(url.hostname.toLowerCase(), p));
}

/** `urls` with the preferred ones first, then those after the first preferred one (its neighbours in a module map), then the rest. */
function ordered(urls: URL[], prefer: RegExp | undefined): URL[] {
  if (!prefer) return urls;
  const first = urls.findIndex((u) => prefer.test(u.pathname));
  if (first < 0) return urls;
  const preferred = urls.filter((u) => prefer.test(u.pathname));
  const rest = [...urls.slice(first), ...urls.slice(0, first)].filter((u) => !prefer.test(u.pathname));
  return [...preferred, ...rest];
}

export async function scanChunks(upstream: Upstream, scan: ChunkScan): Promise<ScanResult> {
  let fetched = 0;
  const page = await upstream.fetch({ source: scan.source, path: scan.page, expect: 'html' }).catch(() => null);
  if (!page || page.status < 200 || page.status >= 300) return { value: null, fetched };
  const html = page.text();
  const inline = scan.find(html);
  if (inline) return { value: inline, fetched };
  const pageUrl = new URL(page.url);
  const seen = new Set<string>();
  const queue: URL[] = [];
  const enqueue = (urls: URL[]) => {
    const fresh = urls.filter((u) => !seen.has(u.href) && mayFetch(u, pageUrl.origin, scan.source));
    for (const u of fresh) seen.add(u.href);
    // what a loader names goes before the page's other scripts: it is where the loader points
    queue.unshift(...ordered(fresh, scan.prefer));
  };
  enqueue(pageScripts(html, pageUrl));
  while (queue.length && fetched < scan.maxFetches) {
    const url = queue.shift()!;
    fetched++;
    const res = await upstream.fetch({ source: scan.source, baseUrl: url.origin, path: `${url.pathname}${url.search}`, expect: 'any' }).catch(() => null);
    if (!res || res.status < 200 || res.status >= 300) continue;
    const text = res.text();
    const value = scan.find(text);
    if (value) return { value, fetched };
    if (scan.named) enqueue(scan.named(text, url));
  }
  return { value: null, fetched };
}
