import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { calendarReply, realRateBlock } from '../../helpers/calendar-payload.js';
import { hasFixture, readFixture, SHARED_FIXTURES } from '../../helpers/fixtures.js';
import {
  MCP_INIT,
  mcpToolEvent,
  OTAFOUR_SECONDARY_DATA,
  OTAONE_PROPERTY_PAGE,
  OTATHREE_REVIEWS,
  RENTALONE_LISTING_PAGE,
  TYPEAHEAD,
} from '../../fixtures/ota-payloads.js';
import { OTAFOUR_SUGGEST } from '../../fixtures/otafour-payloads.js';
import { nestedText } from './schema-values.js';

/**
 * The fuzz run's upstream: answers every request, under `/<alias>/…` for each source, `/ats/…`
 * for careers boards and `/site/…` for websites. The answer is picked from the request itself
 * (hash of seed, method, URL and body), so a run is repeatable: a recorded page of that source
 * (from ../shared/fixtures, or a hand-built payload of test/integration), another source's page,
 * a page cut off mid-transfer or complete but truncated, garbage, an error status, an empty
 * body, a reset connection or a redirect.
 */
export interface ChaosUpstream {
  url: string;
  requests: number;
  close(): Promise<void>;
}

const POOLS: Record<string, string[]> = {
  metasearch: ['google-hotels', 'google-flights'],
  otaone: ['booking'],
  otatwo: ['expedia'],
  otathree: ['expedia'],
  rentalone: ['expedia'],
  rentaltwo: ['airbnb'],
  travelreview: ['trivago'],
  hostel: ['hostelworld'],
  network: ['linkedin'],
  video: ['youtube'],
  apps: ['apps'],
  retail: ['walmart'],
  trends: ['google_trends'],
  ats: ['ats'],
  site: ['booking-engines'],
};

interface Page {
  body: Buffer;
  type: string;
}

function listFiles(dir: string): string[] {
  const abs = path.join(SHARED_FIXTURES, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(abs, f)).isFile()).map((f) => `${dir}/${f}`);
}

function typeOf(name: string): string {
  const n = name.replace(/\.zst$/, '');
  if (n.endsWith('.json')) return 'application/json';
  if (n.endsWith('.xml')) return 'application/xml';
  if (n.endsWith('.txt')) return 'text/plain';
  return 'text/html; charset=utf-8';
}

const built = (body: string | object, type?: string): Page => ({
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  type: type ?? (typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json'),
});

/** Hand-built payloads of the integration tests, per source (test/fixtures/README.md says where each comes from). */
function builtPages(): Record<string, Page[]> {
  const pages: Record<string, Page[]> = {
    otaone: [built(OTAONE_PROPERTY_PAGE)],
    otathree: [built(OTATHREE_REVIEWS), built(TYPEAHEAD)],
    otatwo: [built(TYPEAHEAD)],
    otafour: [built(OTAFOUR_SECONDARY_DATA), built(OTAFOUR_SUGGEST)],
    rentalone: [built(RENTALONE_LISTING_PAGE), built(TYPEAHEAD)],
    travelreview: [built(MCP_INIT), built(mcpToolEvent([]), 'text/event-stream')],
  };
  if (hasFixture('google-hotels/travel-search-paris-budget.html')) {
    const block = realRateBlock();
    pages.metasearch = [built(calendarReply([block]), 'application/json'), built(calendarReply(null), 'application/json')];
  }
  return pages;
}

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const GARBAGE = [
  '',
  '{}',
  '[]',
  'null',
  ")]}'\n",
  ')]}\'\n\n42\n[["wrb.fr",null,null]]',
  '<html><body></body></html>',
  '<html><head><script>var x = {"a": [</script></html>',
  '{"data":null,"errors":[{"message":"boom"}]}',
  '{"data":{}}',
  '\u0000\u0001\u0002binary',
  'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":null}\n\n',
  `{"a":${nestedText(20_000, 'array')}}`,
  nestedText(20_000, 'object'),
];

const TOKEN = /"(?:[^"\\\n]|\\.){0,60}"|-?\b\d+(?:\.\d+)?\b|\btrue\b|\bfalse\b|\bnull\b/g;
const SWAPS = [
  'null',
  '0',
  '-1',
  '""',
  '[]',
  '{}',
  '"x"',
  '1e308',
  '[null]',
  '{"a":null}',
  'true',
  '"2001-02-30"',
  '"\\u0000"',
  '"http://["',
  '"/@%E0%A4%A"',
  '"%zz"',
];

/**
 * The page with a few of its JSON-ish tokens (strings, numbers, booleans, null) swapped for values
 * of other types: the structure a parser walks stays recognisable, the leaves do not.
 */
function mutated(page: Page, h: number): Page {
  const text = page.body.toString('utf8');
  const spots: number[] = [];
  for (const m of text.matchAll(TOKEN)) spots.push(m.index);
  if (!spots.length) return page;
  let rnd = h || 1;
  const next = () => (rnd = Math.imul(rnd ^ (rnd >>> 15), 0x2c1b3c6d) >>> 0 || 1);
  const picks = new Map<number, string>();
  const count = 1 + (next() % 12);
  for (let i = 0; i < count; i++) picks.set(spots[next() % spots.length], SWAPS[next() % SWAPS.length]);
  const out = text.replace(TOKEN, (tok, offset: number) => picks.get(offset) ?? tok);
  return { ...page, body: Buffer.from(out) };
}

export async function startChaosUpstream(seed: number): Promise<ChaosUpstream> {
  const files: Record<string, string[]> = Object.fromEntries(Object.entries(POOLS).map(([k, dirs]) => [k, dirs.flatMap(listFiles)]));
  const all = [...new Set(Object.values(files).flat())];
  const cache = new Map<string, Page>();
  const load = (rel: string): Page => {
    let p = cache.get(rel);
    if (!p) cache.set(rel, (p = { body: Buffer.from(readFixture(rel)), type: typeOf(rel) }));
    return p;
  };
  const hand = builtPages();
  const pick = <T>(list: T[], h: number): T | undefined => (list.length ? list[h % list.length] : undefined);
  const pageFor = (pool: string, h: number): Page => {
    const own: Page[] = [...(hand[pool] ?? [])];
    const rel = pick(files[pool] ?? [], h >>> 8);
    const choice = (h >>> 4) % (own.length + (rel ? 2 : 0));
    if (choice < own.length) return own[choice];
    if (rel) return load(rel);
    const any = pick(all, h >>> 8);
    return any ? load(any) : built('<html></html>');
  };

  let requests = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    requests++;
    const url = req.url ?? '/';
    const pool = url.split('/')[1]?.split('?')[0] ?? '';
    const h = fnv(`${seed}|${req.method}|${url}|${Buffer.concat(chunks).toString('utf8')}`);
    const bucket = h % 100;
    const send = (status: number, page: Page, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': page.type, 'content-length': String(page.body.length), ...headers }).end(page.body);
    };
    if (bucket < 45) {
      const page = bucket < 22 ? pageFor(pool, h) : mutated(pageFor(pool, h), h);
      const gzip = (h >>> 12) % 4 === 0 && /gzip/.test(String(req.headers['accept-encoding'] ?? ''));
      return gzip ? send(200, { ...page, body: zlib.gzipSync(page.body) }, { 'content-encoding': 'gzip' }) : send(200, page);
    }
    if (bucket < 52) return send(200, load(pick(all, h >>> 8) ?? all[0]));
    if (bucket < 60) {
      // cut off mid-transfer: the declared length is never reached
      const page = pageFor(pool, h);
      res.writeHead(200, { 'content-type': page.type, 'content-length': String(page.body.length) });
      res.write(page.body.subarray(0, Math.floor(page.body.length / 2)));
      setImmediate(() => res.destroy());
      return;
    }
    if (bucket < 65) {
      const page = pageFor(pool, h);
      return send(200, { ...page, body: page.body.subarray(0, Math.floor((page.body.length * (((h >>> 8) % 90) + 5)) / 100)) });
    }
    if (bucket < 73) {
      const g = GARBAGE[(h >>> 8) % GARBAGE.length];
      return send(200, built(g, (h >>> 16) % 2 ? 'application/json' : 'text/html; charset=utf-8'));
    }
    if (bucket < 83) {
      const status = [500, 502, 503, 429, 403, 404, 401, 410, 400, 451][(h >>> 8) % 10];
      return send(status, built(`<html><body>status ${status}</body></html>`), status === 429 ? { 'retry-after': '1' } : {});
    }
    if (bucket < 88) return send(200, built('', (h >>> 8) % 2 ? 'application/json' : 'text/html'));
    if (bucket < 93) {
      req.socket.destroy();
      return;
    }
    if (bucket < 97) {
      const to = [`/${pool}/moved`, 'http://169.254.169.254/latest/meta-data/', url, 'ftp://example.com/', 'http://[', 'https://exa mple.com/'][(h >>> 8) % 6];
      res.writeHead(302, { location: to, 'content-length': '0' }).end();
      return;
    }
    // slower than the fuzz run's upstream timeout
    setTimeout(() => send(200, pageFor(pool, h)), 1_500);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
